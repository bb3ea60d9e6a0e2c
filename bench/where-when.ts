/**
 * BENCH_ONLY=wherewhen (issue 23): near a point and open now on the bench world, at the bench's
 * connections, through bench/where-when-server.ts (the service functions behind bare node:http;
 * the search procedures do not take these parameters yet).
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { asc, desc } from "drizzle-orm";
import { categories, cities, createDatabase } from "@directory/db";
import { runLoad, type LoadResult } from "./load";
import { startAndWait, stop } from "./processes";

const root = fileURLToPath(new URL("..", import.meta.url));

function row(name: string, r: LoadResult): string {
  return `| ${name} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.requests} | ${r.non2xx + r.errors} |`;
}

export async function benchWhereWhen(databaseUrl: string, note: (line: string) => void, options: { connections: number; seconds: number }): Promise<void> {
  const database = await createDatabase({ url: databaseUrl });
  const [topCities, topCategories] = await Promise.all([
    database.db.select({ id: cities.id, lat: cities.lat, lng: cities.lng }).from(cities).orderBy(desc(cities.population)).limit(20),
    database.db.select({ slug: categories.slug }).from(categories).orderBy(desc(categories.popularity), asc(categories.slug)).limit(10),
  ]);
  await database.close();
  const port = 3850 + Math.floor(Math.random() * 50);
  const base = `http://127.0.0.1:${port}`;
  const radius = (km: number) => topCities.map((city) => `/radius?lat=${city.lat}&lng=${city.lng}&km=${km}`);
  // Nearest to a point a little off each centre: not a business's own coordinates.
  const nearest = topCities.map((city) => `/nearest?lat=${city.lat + 0.0123}&lng=${city.lng - 0.0234}`);
  const category = (open: boolean) =>
    topCategories.flatMap((c) => topCities.map((city) => `/category?category=${c.slug}&cityId=${city.id}&open=${open ? 1 : 0}`));
  const server = await startAndWait(
    process.execPath,
    ["--import", "tsx", join(root, "bench/where-when-server.ts")],
    { DATABASE_URL: databaseUrl, PORT: String(port) },
    `${base}${nearest[0]}`,
    60_000,
  );
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
    const closed: LoadResult[] = [];
    const open: LoadResult[] = [];
    for (let round = 0; round < 2; round++) {
      closed.push(await load(category(false)));
      open.push(await load(category(true)));
    }
    results.push(["category+city, page of 10 + count (10 categories x 20 cities)", closed[0]!], ["the same with openNow", open[0]!]);
    results.push(["category+city again", closed[1]!], ["openNow again", open[1]!]);
    note("");
    note(
      `## Near a point and open now (bench/where-when-server.ts: the where-when service functions behind bare node:http, ${options.connections} connections)`,
    );
    note("");
    note("| query | req/s | p50 ms | p90 ms | p99 ms | requests | failures |");
    note("|---|---|---|---|---|---|---|");
    for (const [name, result] of results) note(row(name, result));
    const ratio = (open[0]!.rps + open[1]!.rps) / (closed[0]!.rps + closed[1]!.rps);
    note("");
    note(
      `**openNow keeps ${(ratio * 100).toFixed(1)}% of the category+city req/s** (target >= 80%); p99 target < 30 ms: ${results.every(([, r]) => r.p99 < 30) ? "holds" : "missed"} for every row.`,
    );
  } finally {
    await stop(server.child);
  }
}
