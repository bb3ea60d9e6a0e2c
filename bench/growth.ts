/*
 * BENCH_ONLY=growth (issue 43 item 5): the hot paths at 1,000,000 and at 5,000,000 businesses, side
 * by side with their targets, each world in its own database on the bench's server
 * (directory_bench_1m, directory_bench_5m), seeded when empty and reused when not.
 *   BENCH_GROWTH_WORLDS  comma-separated world sizes (default 1000000,5000000)
 */
import { sql } from "drizzle-orm";
import { createApiKey } from "@directory/api";
import { businesses, createDatabase, rowsOf } from "@directory/db";
import { feedPages, feedHeaders } from "./feed";
import { keywordPaths } from "./keyword";
import { runLoad, type LoadResult } from "./load";
import { writeChanges } from "./partner-feed";
import { stop } from "./processes";
import { loadBesideLimit, startLimitServer } from "./search";
import { connections, databaseUrl, seconds, startServer } from "./settings";
import { whereWhenPaths } from "./where-when";
import { prepareWorld, type WorldPlace } from "./world";

type Note = (line: string) => void;

/** A hot path as measured on one world; `limit` where the bench has a limit server for it. */
interface PathFigure {
  result: LoadResult;
  limit?: LoadResult;
}

/** The hot paths, in the report's order, with the target each is held to elsewhere in the bench. */
const HOT_PATHS = [
  { name: "category search (GET /api/assistant-plugin, 10 categories x 20 cities)", target: "p99 < 20 ms; >= 50% of the limit server's req/s" },
  { name: "keyword search (tRPC search.searchKeyword, 8 queries, 4 connections)", target: "p95 < 30 ms, p99 < 60 ms" },
  { name: "near a point: 10 nearest within 10 km of 20 city centres, with the count", target: "p99 < 30 ms" },
  { name: "near a point: 20 nearest within 50 km of 20 points", target: "p99 < 30 ms" },
  { name: "a profile (GET /api/v2/entity-profile, 200 businesses)", target: "p99 < 20 ms (as a search)" },
  { name: "a partner feed page (GET /api/v2/partner-feed, limit 500, 100 cursors across the feed; one partner)", target: "<= 16.7 ms a page (30,000 rows/s)" },
  { name: "a change feed page (GET /api/v2/partner-feed/changes, limit 1000, 100 positions; one partner)", target: "<= 20 ms a page (50,000 changes/s)" },
] as const;

/** Changes written once into each world, so the change feed has pages to serve. */
const CHANGES = 50_000;
const PROFILES = 200;
const FEED_CURSORS = 100;

const sizes = (process.env.BENCH_GROWTH_WORLDS ?? "1000000,5000000").split(",").map((size) => Number(size.trim()));

function worldPlace(size: number): WorldPlace {
  const url = new URL(databaseUrl);
  url.pathname = `/directory_bench_${size % 1_000_000 === 0 ? `${size / 1_000_000}m` : `${size / 1_000}k`}`;
  return { url: url.toString(), size };
}

/** The indexes the hot paths descend: their size says how much of each stays in memory as the world grows. */
const PATH_INDEXES = [
  "businesses_search_idx",
  "business_search_document_idx",
  "businesses_earth_idx",
  "businesses_slug_unique",
  "businesses_feed_idx",
  "feed_changes_pkey",
];

async function noteIndexSizes(url: string, note: Note): Promise<void> {
  const database = await createDatabase({ url });
  try {
    const sizes = rowsOf<{ name: string; size: string }>(
      await database.db.execute(sql`select c.relname as name, pg_size_pretty(pg_relation_size(c.oid)) as size from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relname in (${sql.join(
          PATH_INDEXES.map((name) => sql`${name}`),
          sql`, `,
        )}) order by c.relname`),
    );
    note(`- Indexes the paths read: ${sizes.map((row) => `${row.name} ${row.size}`).join(", ")}`);
  } finally {
    await database.close();
  }
}

/** A partner key, the profiles' slugs (a sample in id order, which is random) and the change feed's positions, writing changes once. */
async function worldSamples(url: string): Promise<{ key: string; slugs: string[]; changeStart: number; changeEnd: number }> {
  const database = await createDatabase({ url });
  try {
    const { key } = await createApiKey(database.db, { kind: "partner", label: "bench growth" });
    const slugs = await database.db
      .select({ slug: businesses.slug })
      .from(businesses)
      .where(sql`${businesses.status} = 'active'`)
      .orderBy(businesses.id)
      .limit(PROFILES);
    const position = async () => {
      const [row] = rowsOf<{ last: string; pruned: string }>(
        await database.db.execute(sql`select last, pruned_through as pruned from feed_position where id = 1`),
      );
      return { start: Number(row?.pruned ?? 0), end: Number(row?.last ?? 0) };
    };
    if ((await position()).end < CHANGES) await writeChanges(url, CHANGES);
    const { start, end } = await position();
    return { key, slugs: slugs.map((row) => row.slug), changeStart: start, changeEnd: end };
  } finally {
    await database.close();
  }
}

/** Cursor paths spread over the whole feed: walked once page by page, every n-th kept. */
async function feedCursorPaths(base: string, key: string): Promise<string[]> {
  const first = (await (await fetch(`${base}/api/v2/partner-feed?limit=500`, { headers: feedHeaders(key, "identity") })).json()) as { total: number };
  const every = Math.max(1, Math.ceil(first.total / 500 / FEED_CURSORS));
  const paths = ["/api/v2/partner-feed?limit=500"];
  let page = 0;
  for await (const body of feedPages<{ nextCursor: string | null }>(base, "/api/v2/partner-feed?limit=500", feedHeaders(key, "identity"), "sequential")) {
    if (body.nextCursor && ++page % every === 0) paths.push(`/api/v2/partner-feed?${new URLSearchParams({ limit: "500", cursor: body.nextCursor })}`);
  }
  return paths;
}

/** Every hot path on one world, through the built server (and the limit server for category search). */
async function measureWorld(place: WorldPlace, note: Note): Promise<PathFigure[]> {
  const search = await prepareWorld(note, place);
  const samples = await worldSamples(place.url);
  await noteIndexSizes(place.url, note);
  const near = await whereWhenPaths(place.url);
  const port = 3700 + Math.floor(Math.random() * 50);
  const base = `http://127.0.0.1:${port}`;
  const app = await startServer(port, place.url);
  const bare = await startLimitServer(port + 100, place.url, search.mix[0]!);
  try {
    const load = async (paths: string[], options: { connections?: number; headers?: Record<string, string> } = {}): Promise<PathFigure> => {
      const settings = { connections: options.connections ?? connections, headers: options.headers };
      await runLoad(base, paths, { ...settings, seconds: 3 });
      return { result: await runLoad(base, paths, { ...settings, seconds }) };
    };
    const partner = { authorization: `Bearer ${samples.key}`, "accept-encoding": "identity" };
    const category = await loadBesideLimit(base, `http://127.0.0.1:${port + 100}`, search.mix);
    const step = Math.max(1, Math.floor((samples.changeEnd - 1_000) / 100));
    const changePositions = Array.from({ length: 100 }, (_, i) => Math.min(samples.changeEnd - 1_000, samples.changeStart + i * step));
    return [
      { result: category.ours, limit: category.limit },
      await load(keywordPaths(), { connections: 4 }),
      await load(near.radius(10)),
      await load(near.nearest),
      await load(samples.slugs.map((slug) => `/api/v2/entity-profile?slug=${encodeURIComponent(slug)}`)),
      // A partner reads its pages one after another: the feed's targets are one reader's rows/s.
      await load(await feedCursorPaths(base, samples.key), { connections: 1, headers: partner }),
      await load(
        changePositions.map((after) => `/api/v2/partner-feed/changes?after=${after}&limit=1000`),
        { connections: 1, headers: partner },
      ),
    ];
  } finally {
    await stop(app.child);
    await stop(bare.child);
  }
}

/** A world's three cells for a path: req/s (beside the limit server's where there is one), p50, p95 / p99. */
function cells(figure: PathFigure | undefined): string[] {
  if (!figure) return ["-", "-", "-"];
  const { result, limit } = figure;
  const failures = result.non2xx + result.errors;
  const ratio = limit ? ` (${((result.rps / limit.rps) * 100).toFixed(0)}% of the limit server's ${limit.rps})` : "";
  return [`${result.rps}${ratio}${failures ? `, ${failures} failures` : ""}`, String(result.p50), `${result.p95} / ${result.p99}`];
}

export async function benchGrowth(note: Note): Promise<void> {
  const figures: PathFigure[][] = [];
  for (const size of sizes) {
    note(`- World of ${size.toLocaleString("en")} businesses (${new URL(worldPlace(size).url).pathname.slice(1)}):`);
    figures.push(await measureWorld(worldPlace(size), note));
  }
  const names = sizes.map((size) => `${(size / 1_000_000).toLocaleString("en")}M`);
  note("");
  note(`## Growth: the hot paths at ${names.join(" and ")} businesses (built server, ${connections} connections unless said, ${seconds} s per load)`);
  note("");
  note(`| hot path | target | ${names.map((name) => `${name} req/s | ${name} p50 ms | ${name} p95 / p99 ms`).join(" | ")} |`);
  note(`|---|---|${names.map(() => "---|---|---").join("|")}|`);
  for (const [index, path] of HOT_PATHS.entries()) {
    note(`| ${[path.name, path.target, ...figures.flatMap((world) => cells(world[index]))].join(" | ")} |`);
  }
}
