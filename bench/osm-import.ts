/**
 * The streaming OSM import at a country's size (issue 41), in a fresh database on the
 * BENCH_DATABASE_URL server (dropped afterwards), on a synthetic extract of BENCH_OSM_BUSINESSES
 * businesses (default 1,000,000) tiled from the real extracts (osm-tiles.ts):
 * - the import as the CLI runs it (a process of its own, two batches in flight): businesses/s and
 *   the importer's peak resident memory;
 * - the same file again (a diff with nothing to change);
 * - a change file of BENCH_OSM_CHANGES changes (default 10,000) applied to it (osm-change-file.ts),
 *   as `import osm-changes` does, in a process of its own;
 * - this machine's limit in the same run: reading the file alone (the survey and the stream, no
 *   database), which no import can beat;
 * - the stored feed documents' share: the feed step every batch runs (recordFeedChanges), timed
 *   alone over the imported businesses in the import's batches.
 * Runs alone (`npx -y pnpm@10.34.8 exec tsx bench/osm-import.ts`) or as the "osm" part of bench/run.ts.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { rowsOf } from "@directory/db";
import { osmRegistryFeed, type ImportSummary } from "@directory/api";
import { recordFeedChanges } from "../packages/api/src/services/feed/feed-documents";
import type { OsmChangesSummary } from "@directory/api";
import { writeChangeFile } from "./osm-change-file";
import { tiledExtract } from "./osm-tiles";
import { withScratchDatabase } from "./scratch-database";
import { node, root } from "./settings";

const TARGET_BUSINESSES_PER_SECOND = 5_000;
const TARGET_PEAK_RSS_MB = 1_024;
const businesses = Number(process.env.BENCH_OSM_BUSINESSES ?? 1_000_000);
const changeCount = Number(process.env.BENCH_OSM_CHANGES ?? 10_000);
const run = promisify(execFile);

interface ChildResult {
  summary: ImportSummary;
  seconds: number;
  peakRssMb: number;
}

async function importInChild(file: string, url: string): Promise<ChildResult> {
  const { stdout } = await run(node, ["--import", "tsx", join(root, "bench/osm-import-child.ts"), file, url], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as ChildResult;
}

async function applyChangesInChild(extract: string, url: string) {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-osm-changes-"));
  try {
    const changeFile = join(dataDir, "changes.osc.gz");
    const counts = await writeChangeFile(extract, changeCount, changeFile);
    const child = join(root, "bench/osm-changes-child.ts");
    const { stdout } = await run(node, ["--import", "tsx", child, extract, changeFile, url, dataDir], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    const result = JSON.parse(stdout.trim().split("\n").at(-1)!) as { summary: OsmChangesSummary; seconds: number; peakRssMb: number };
    return { ...result, counts };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Reading the file as the import does, writing nothing: the survey and one stream. */
async function readingRate(file: string): Promise<{ seconds: number; records: number }> {
  const started = performance.now();
  const feed = osmRegistryFeed(file);
  await feed.survey();
  let records = 0;
  await feed.stream(async (batch) => void (records += batch.length), { skipped: {}, unmappedTags: {}, unparsedOpeningHours: {} });
  return { seconds: (performance.now() - started) / 1000, records };
}

const fmt = (n: number) => Math.round(n).toLocaleString("en");
const mark = (ok: boolean) => (ok ? "✅" : "❌");

export async function benchOsmImport(serverUrl: string, note: (line: string) => void): Promise<void> {
  const dir = join(root, "bench/results");
  mkdirSync(dir, { recursive: true });
  const extractsDir = join(root, "fixtures/osm");
  const tiled = await tiledExtract([join(extractsDir, "liechtenstein-2015-07.osm.pbf"), join(extractsDir, "andorra-2013-05.osm.pbf")], businesses, dir);
  await withScratchDatabase(serverUrl, "osm", async (database, databaseUrl) => {
    note("");
    note(`## OSM import at a country's size (PostgreSQL, fresh database; ${tiled.tiles.toLocaleString("en")} tiles of the real extracts)`);
    note("");
    const limit = await readingRate(tiled.file);
    const limitRate = limit.records / limit.seconds;
    const fresh = await importInChild(tiled.file, databaseUrl);
    const rate = fresh.summary.added / fresh.seconds;
    note(
      `- Import: ${fmt(fresh.summary.added)} businesses (${fmt(fresh.summary.elements)} elements) in ${fresh.seconds.toFixed(1)} s: ` +
        `**${fmt(rate)} businesses/s** (target ≥ ${fmt(TARGET_BUSINESSES_PER_SECOND)}) ${mark(rate >= TARGET_BUSINESSES_PER_SECOND)}; ` +
        `limit, same run: reading the file alone (survey and stream, no database) ${limit.seconds.toFixed(1)} s, ${fmt(limitRate)} businesses/s: ratio ${((rate / limitRate) * 100).toFixed(0)}%`,
    );
    note(
      `- Importer's peak resident memory: **${fmt(fresh.peakRssMb)} MB** (target < ${fmt(TARGET_PEAK_RSS_MB)} MB) ${mark(fresh.peakRssMb < TARGET_PEAK_RSS_MB)}`,
    );
    const again = await importInChild(tiled.file, databaseUrl);
    const againRate = again.summary.unchanged / again.seconds;
    note(
      `- The same file again (nothing to change): ${fmt(again.summary.unchanged)} unchanged, ${again.summary.added + again.summary.changed + again.summary.removed} written, ` +
        `in ${again.seconds.toFixed(1)} s: **${fmt(againRate)} businesses/s** (target ≥ ${fmt(TARGET_BUSINESSES_PER_SECOND)}) ${mark(againRate >= TARGET_BUSINESSES_PER_SECOND)}; ` +
        `peak RSS ${fmt(again.peakRssMb)} MB; ratio to the reading limit ${((againRate / limitRate) * 100).toFixed(0)}%`,
    );
    const changes = await applyChangesInChild(tiled.file, databaseUrl);
    const businessChanges = changes.summary.created + changes.summary.changed + changes.summary.removed;
    note(
      `- A change file of ${fmt(changeCount)} changes (${fmt(changes.counts.modify)} modified, ${fmt(changes.counts.delete)} deleted, ${fmt(changes.counts.create)} created business nodes) ` +
        `applied to it: ${fmt(changes.summary.created)} created, ${fmt(changes.summary.changed)} changed, ${fmt(changes.summary.removed)} removed in ${changes.seconds.toFixed(1)} s ` +
        `(the snapshot rewritten and re-imported as a diff: **${fmt(again.summary.unchanged / changes.seconds)} businesses/s** over the snapshot, target ≥ ${fmt(TARGET_BUSINESSES_PER_SECOND)} ` +
        `${mark(again.summary.unchanged / changes.seconds >= TARGET_BUSINESSES_PER_SECOND)}; ${fmt(businessChanges / changes.seconds)} business changes/s); peak RSS ${fmt(changes.peakRssMb)} MB ` +
        `(target < ${fmt(TARGET_PEAK_RSS_MB)} MB) ${mark(changes.peakRssMb < TARGET_PEAK_RSS_MB)}`,
    );
    const feedSeconds = await feedStepSeconds(database.db);
    note(
      `- Stored feed documents: the feed step each batch runs (recordFeedChanges: reads each business's row and stores a document for the feed-visible ones, ` +
        `none of an unclaimed import) takes ${feedSeconds.toFixed(1)} s over the same businesses in batches of 500: ` +
        `**${((feedSeconds / fresh.seconds) * 100).toFixed(1)}% of the import**`,
    );
  });
}

/** recordFeedChanges over every imported business, 500 at a time, as the batches call it. */
async function feedStepSeconds(db: Parameters<typeof recordFeedChanges>[0]): Promise<number> {
  const ids = rowsOf<{ id: string }>(await db.execute(sql`select business_id as id from registry_records where same_as is null order by record_id`)).map(
    (row) => row.id,
  );
  const started = performance.now();
  for (let start = 0; start < ids.length; start += 500) {
    await db.transaction((tx) => recordFeedChanges(tx, ids.slice(start, start + 500), new Date()));
  }
  return (performance.now() - started) / 1000;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await benchOsmImport(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/directory_bench", console.log);
}
