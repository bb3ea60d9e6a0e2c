/**
 * One OSM import in a process of its own, so its peak resident memory is the importer's alone:
 * `node --import tsx bench/osm-import-child.ts <file> <database url>` prints one JSON line with
 * the summary, the seconds and the peak RSS (getrusage's maxrss), as the CLI runs it on
 * PostgreSQL (two batches in flight).
 */
import { createDatabase, forChores, migrate } from "@directory/db";
import { importFeed, osmRegistryFeed } from "@directory/api";

const [file, url] = process.argv.slice(2);
if (!file || !url) throw new Error("usage: osm-import-child.ts <file> <database url>");
const database = await createDatabase(forChores({ url }));
try {
  await migrate(database);
  const started = performance.now();
  const summary = await importFeed(database.db, osmRegistryFeed(file), { source: "openstreetmap", concurrency: 2 });
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`${JSON.stringify({ summary, seconds, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
} finally {
  await database.close();
}
