/*
 * An OSM import in a process of its own, for the test that kills it mid-way
 * (import-interrupted.test.ts): prints "done N" after each committed batch, then the summary.
 * Usage: node --import tsx import-child.ts <file.osm.pbf> <batch size> <postgres url | PGlite data dir>
 */
import { createDatabase, migrate } from "@directory/db";
import { importFeed } from "./import-registry";
import { osmRegistryFeed } from "./osm/osm-feed";

const [file, batchSize, target] = process.argv.slice(2);
if (!file || !batchSize || !target) throw new Error("usage: import-child.ts <file> <batch size> <postgres url | data dir>");
const onPostgres = target.startsWith("postgres");
const database = await createDatabase(onPostgres ? { url: target } : { dataDir: target });
try {
  await migrate(database);
  const summary = await importFeed(database.db, osmRegistryFeed(file), {
    source: "openstreetmap",
    batchSize: Number(batchSize),
    concurrency: onPostgres ? 2 : 1,
    onProgress: (done) => process.stdout.write(`done ${done}\n`),
  });
  process.stdout.write(`${JSON.stringify(summary)}\n`);
} finally {
  await database.close();
}
