/**
 * BENCH_ONLY=wherewhen (issue 23): near a point and open now on the bench world, at the bench's
 * connections, through the built server's REST door (GET /api/v2/businesses), as a client asks:
 *   radius 1 km and 10 km around 20 city centres, the 10 nearest of each circle with its count;
 *   the 20 nearest to 20 points near the centres (within 50 km);
 *   a category+city page of 10 with its count, without and with openNow=true (10 x 20 pairs).
 */
import { asc, desc } from "drizzle-orm";
import { categories, cities, createDatabase } from "@directory/db";
import { runLoad, type LoadResult } from "./load";
import { stop, type startAndWait } from "./processes";

function row(name: string, r: LoadResult): string {
  return `| ${name} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.requests} | ${r.non2xx + r.errors} |`;
}

const lookup = (params: Record<string, string | number>) =>
  `/api/v2/businesses?${new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)]))}`;

/** The part's paths, drawn from the world: around the 20 largest cities, and the 10 most popular categories there. */
export async function whereWhenPaths(databaseUrl: string) {
  const database = await createDatabase({ url: databaseUrl });
  const [topCities, topCategories] = await Promise.all([
    database.db.select({ name: cities.name, lat: cities.lat, lng: cities.lng }).from(cities).orderBy(desc(cities.population)).limit(20),
    database.db.select({ slug: categories.slug }).from(categories).orderBy(desc(categories.popularity), asc(categories.slug)).limit(10),
  ]).finally(() => database.close());
  return {
    radius: (km: number) => topCities.map((city) => lookup({ near: `${city.lat},${city.lng}`, radiusKm: km, sort: "distance", limit: 10 })),
    // Nearest to a point a little off each centre: not a business's own coordinates.
    nearest: topCities.map((city) => lookup({ near: `${city.lat + 0.0123},${city.lng - 0.0234}`, radiusKm: 50, sort: "distance", limit: 20 })),
    category: (open: boolean) =>
      topCategories.flatMap((c) => topCities.map((city) => lookup({ category: c.slug, city: city.name, limit: 10, ...(open ? { openNow: "true" } : {}) }))),
  };
}

export async function benchWhereWhen(
  databaseUrl: string,
  note: (line: string) => void,
  options: { connections: number; seconds: number; startServer: (port: number) => ReturnType<typeof startAndWait> },
): Promise<void> {
  const { radius, nearest, category } = await whereWhenPaths(databaseUrl);
  const port = 3850 + Math.floor(Math.random() * 50);
  const base = `http://127.0.0.1:${port}`;
  const server = await options.startServer(port);
  try {
    const load = async (paths: string[]) => {
      await runLoad(base, paths, { connections: options.connections, seconds: 3 });
      return runLoad(base, paths, options);
    };
    const results: [string, LoadResult][] = [
      ["radius 1 km around 20 city centres (10 nearest + count)", await load(radius(1))],
      ["radius 10 km around 20 city centres (10 nearest + count)", await load(radius(10))],
      ["nearest 20 to 20 points near city centres (within 50 km)", await load(nearest)],
    ];
    // Alternated twice: on a shared machine a single pair says more about the neighbours than the filter.
    const plain: LoadResult[] = [];
    const open: LoadResult[] = [];
    for (let round = 0; round < 2; round++) {
      plain.push(await load(category(false)));
      open.push(await load(category(true)));
    }
    results.push(["category+city, page of 10 + count (10 categories x 20 cities)", plain[0]!], ["the same with openNow=true", open[0]!]);
    results.push(["category+city again", plain[1]!], ["openNow=true again", open[1]!]);
    note("");
    note(`## Near a point and open now (GET /api/v2/businesses on the built server, ${options.connections} connections)`);
    note("");
    note("| query | req/s | p50 ms | p90 ms | p99 ms | requests | failures |");
    note("|---|---|---|---|---|---|---|");
    for (const [name, result] of results) note(row(name, result));
    const ratio = (open[0]!.rps + open[1]!.rps) / (plain[0]!.rps + plain[1]!.rps);
    note("");
    note(
      `**openNow keeps ${(ratio * 100).toFixed(1)}% of the category+city req/s** (target >= 80%); p99 target < 30 ms: ${results.every(([, r]) => r.p99 < 30) ? "holds" : "missed"} for every row.`,
    );
  } finally {
    await stop(server.child);
  }
}
