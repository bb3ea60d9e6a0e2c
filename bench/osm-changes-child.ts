/**
 * One change file applied in a process of its own, so its peak resident memory is its alone:
 * `node --import tsx bench/osm-changes-child.ts <extract> <change file> <database url> <data dir>`
 * makes the extract the source's snapshot (as `import osm` does after importing it), then applies
 * the change file as `import osm-changes` does, and prints one JSON line: the summary, the seconds
 * of the apply alone and the peak RSS.
 */
import { createDatabase, forChores, migrate } from "@directory/db";
import { applyOsmChanges, keepImportedSnapshot } from "@directory/api";

const [extract, changes, url, dataDir] = process.argv.slice(2);
if (!extract || !changes || !url || !dataDir) throw new Error("usage: osm-changes-child.ts <extract> <change file> <database url> <data dir>");
const database = await createDatabase(forChores({ url }));
try {
  await migrate(database);
  // How current the extract is matters only to refuse older change files; the bench applies a newer one.
  await keepImportedSnapshot(database.db, "openstreetmap", extract, dataDir, { currentAt: null });
  const started = performance.now();
  const summary = await applyOsmChanges(database.db, { source: "openstreetmap", files: [changes], dataDir, concurrency: 2 });
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`${JSON.stringify({ summary, seconds, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
} finally {
  await database.close();
}
