/**
 * pnpm bench: measures the targets on this machine and writes bench/results/latest.md.
 *   BENCH_DATABASE_URL  PostgreSQL server database to use (default .../directory_bench; created if missing)
 *   BENCH_BUSINESSES    world size to seed into an empty bench database (default 1,000,000)
 *   BENCH_SECONDS       seconds per load run (default 15); BENCH_CONNECTIONS (default 10)
 *   BENCH_ONLY          comma-separated parts to run (start, search, keyword, graph, citations, feed, webhooks, import, osm, tokens, wherewhen, partnerfeed, pooler); default all
 *   BENCH_CITATION_CHECKS checks the citations part runs through the stand-in engine (default 200, the daily budget); BENCH_CITATION_INGESTS answers it ingests (default 40)
 *   BENCH_OSM_BUSINESSES businesses in the tiled OSM extract of the osm part (default 1,000,000)
 *   BENCH_ONLY=growth   the hot paths at 1M and 5M businesses in worlds of their own (growth.ts); only when named, never in a run of all parts
 *   BENCH_SERVER_FLAGS  node flags for the measured server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" (NODE_OPTIONS refuses --cpu-prof)
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createDatabase } from "@directory/db";
import { createApiKey } from "@directory/api";
import { copyFeedRate, timeOffsetPage, walkFeed } from "./feed";
import { benchCitations } from "./citations";
import { benchFirstStart } from "./first-start";
import { benchGrowth } from "./growth";
import { benchGraph } from "./graph";
import { benchImport } from "./import";
import { benchOsmImport } from "./osm-import";
import { benchKeyword } from "./keyword";
import { benchMcpTokens } from "./mcp-tokens";
import { benchPartnerFeed, preparePartnerFeed } from "./partner-feed";
import { benchPooler } from "./pooler";
import { stop } from "./processes";
import { benchSearch } from "./search";
import { connections, databaseUrl, node, root, seconds, startServer } from "./settings";
import { benchWebhooks } from "./webhooks";
import { benchWhereWhen } from "./where-when";
import { prepareWorld } from "./world";

/** The service runs as in production: node on the esbuild bundle, built once here when stale. */
execFileSync(node, [join(root, "apps/server/build.mjs"), "--if-stale"], { stdio: "inherit" });

const report: string[] = [
  `# Benchmark ${new Date().toISOString()}`,
  "",
  `Node ${process.version}, PostgreSQL at ${new URL(databaseUrl).host}, ${connections} connections, ${seconds} s per run.`,
  "",
];

function note(line: string): void {
  console.log(line);
  report.push(line);
}

async function benchFeed(): Promise<void> {
  const port = 3960;
  const app = await startServer(port);
  try {
    const database = await createDatabase({ url: databaseUrl });
    const { key } = await createApiKey(database.db, { kind: "partner", label: "bench" }).finally(() => database.close());
    const pid = app.child.pid ?? 0;
    const limit = await copyFeedRate(databaseUrl);
    const walk = await walkFeed(`http://127.0.0.1:${port}`, key, pid);
    const deepOffset = Math.max(0, walk.rows - 500);
    const shallowMs = await timeOffsetPage(`http://127.0.0.1:${port}`, key, 0);
    const deepMs = await timeOffsetPage(`http://127.0.0.1:${port}`, key, deepOffset);
    note("");
    note("## Partner feed (GET /api/v2/partner-feed, limit 500, cursor walk over every verified location)");
    note("");
    note(
      `- ${walk.rows.toLocaleString("en")} rows in ${walk.pages} pages, ${walk.seconds.toFixed(1)} s: **${walk.rowsPerSecond.toLocaleString("en")} rows/s** (target 50,000); page p50 ${walk.pageP50Ms} ms, p90 ${walk.pageP90Ms} ms, p99 ${walk.pageP99Ms} ms, slowest ${walk.slowestPageMs} ms`,
    );
    note(
      `- Limit, same run: \`COPY (<the JSON-LD's raw columns>) TO STDOUT\` of ${limit.rows.toLocaleString("en")} rows in feed order, ${limit.seconds.toFixed(1)} s: ${limit.rowsPerSecond.toLocaleString("en")} rows/s. **Ratio feed/limit: ${((walk.rowsPerSecond / limit.rowsPerSecond) * 100).toFixed(1)}%** (target >= 40%)`,
    );
    note(`- Server RSS at 10% / 50% / 100% of the walk: ${walk.rssSamplesMb.join(" / ")} MB; peak ${walk.peakMb} MB`);
    note(`- Offset paging for comparison: page at offset 0 ${shallowMs} ms, at offset ${deepOffset.toLocaleString("en")} ${deepMs} ms`);
  } finally {
    await stop(app.child);
  }
}

async function benchPartnerFeedPart(): Promise<void> {
  await preparePartnerFeed(databaseUrl, note);
  const port = 3990;
  const app = await startServer(port);
  try {
    await benchPartnerFeed(databaseUrl, `http://127.0.0.1:${port}`, app.child.pid ?? 0, note);
  } finally {
    await stop(app.child);
  }
}

async function benchTokens(): Promise<void> {
  const port = 3980;
  const app = await startServer(port);
  try {
    await benchMcpTokens(`http://127.0.0.1:${port}`, note);
  } finally {
    await stop(app.child);
  }
}

/** BENCH_ONLY=keyword,graph runs only those parts (start, search, keyword, graph, citations, feed, webhooks, import, osm, tokens, wherewhen, partnerfeed, pooler); the report says so. */
const only = process.env.BENCH_ONLY?.split(",").map((part) => part.trim());
const runs = (part: string) => !only || only.includes(part);
if (only) note(`> Partial run: BENCH_ONLY=${only.join(",")}`);

// First start goes first: after a million-row seed, PostgreSQL's autovacuum would compete for the CPU.
if (runs("start")) await benchFirstStart(note);
// The growth part builds worlds of its own: run alone, it needs no bench world.
const paths = only?.every((part) => part === "growth") ? { mix: [], heavy: [] } : await prepareWorld(note);
if (runs("search")) await benchSearch(paths, note);
if (runs("keyword")) await benchKeyword(note);
if (runs("graph")) await benchGraph(databaseUrl, note);
if (runs("citations")) await benchCitations(databaseUrl, note);
if (runs("feed")) await benchFeed();
if (runs("webhooks")) await benchWebhooks(databaseUrl, note);
if (runs("import")) await benchImport(databaseUrl, note);
if (runs("osm")) await benchOsmImport(databaseUrl, note);
if (runs("tokens")) await benchTokens();
if (runs("wherewhen"))
  await benchWhereWhen(databaseUrl, note, {
    connections,
    seconds,
    startServer,
  });
if (runs("partnerfeed")) await benchPartnerFeedPart();
if (runs("pooler")) await benchPooler(paths, note);
if (only?.includes("growth")) await benchGrowth(note);
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(join(root, "bench/results/latest.md"), `${report.join("\n")}\n`);
console.log("\nwritten to bench/results/latest.md");
process.exit(0);
