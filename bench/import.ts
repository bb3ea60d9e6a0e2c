/**
 * Registry import on PostgreSQL, in a fresh database on the BENCH_DATABASE_URL server (dropped
 * afterwards):
 * - the largest real extract in fixtures/osm: reading (elements/s) and importing (businesses/s);
 * - a synthetic registry of BENCH_IMPORT_RECORDS businesses (default 100,000) with the facts an OSM
 *   element carries (name, category, city, coordinates, address, postcode, phone, website, hours),
 *   imported through the same claim write path, then imported again (a diff with nothing to do);
 * - the process's heap and resident memory sampled during the synthetic import: flat means the
 *   peak does not grow with the number of batches done.
 * Runs alone (`npx -y pnpm@10.34.8 exec tsx bench/import.ts`) or as a section of bench/run.ts.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { sql } from "drizzle-orm";
import { rowsOf } from "@directory/db";
import { loadGazetteer } from "@directory/db/gazetteer";
import { importRegistry, scanOsmExtract, type RegistryScan } from "@directory/api";
import { withScratchDatabase } from "./scratch-database";

const TARGET_BUSINESSES_PER_SECOND = 5_000;
const syntheticRecords = Number(process.env.BENCH_IMPORT_RECORDS ?? 100_000);
const extractsDir = fileURLToPath(new URL("../fixtures/osm/", import.meta.url));

/** Where the synthetic businesses are: a few gazetteer cities around each of these centres. */
const CENTRES = [
  [19.07, 72.88],
  [52.52, 13.4],
  [48.86, 2.35],
  [40.71, -74.0],
  [35.68, 139.69],
  [-23.55, -46.63],
  [6.52, 3.38],
  [-33.87, 151.21],
  [19.43, -99.13],
  [30.04, 31.24],
] as const;

/** Deterministic businesses spread over ~40 real gazetteer cities, a few km around each centre. */
export function syntheticScan(count: number): RegistryScan {
  const gazetteer = loadGazetteer();
  const cities = CENTRES.flatMap(([lat, lng]) =>
    gazetteer
      .near(lat, lng, 25)
      .slice(0, 4)
      .map((nearby) => nearby.city),
  );
  const categories = ["restaurant", "cafe", "hotel", "grocery-store", "pharmacy", "bank", "bakery", "hair-salon"];
  const observedAt = new Date("2026-01-01T00:00:00Z");
  const records = Array.from({ length: count }, (_, index) => {
    const city = cities[index % cities.length]!;
    const offset = ((index * 7919) % 1000) / 1000 - 0.5;
    const coordinates = { lat: Math.round((city.lat + offset * 0.05) * 1e7) / 1e7, lng: Math.round((city.lng - offset * 0.05) * 1e7) / 1e7 };
    // Facts in OpenStreetMap's proportions, a little richer than the real extracts (Liechtenstein
    // 2015: 5.0 claims a business; Andorra 2013: 4.1): every one has a name, category, city and
    // point; half an address, a third a postcode, a fifth a phone and a website, a tenth hours.
    const has = (share: number, salt: number) => (((index + salt * 7919) * 2654435761) >>> 0) % 1000 < share * 1000;
    const facts: RegistryScan["records"][number]["facts"] = {
      name: `Synthetic Business ${index}`,
      category: categories[index % categories.length]!,
      coordinates,
    };
    if (has(0.5, 1)) facts.address = `${(index % 200) + 1} Bench Street`;
    if (has(0.33, 2)) facts.postalCode = String(10_000 + (index % 89_999));
    if (has(0.2, 3)) facts.phone = `+1 555 ${String(1_000_000 + index).slice(-7)}`;
    if (has(0.2, 4)) facts.website = `https://business-${index}.example/`;
    if (has(0.1, 5)) {
      facts.openingHours = [{ days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"], opens: "09:00", closes: "18:00" }];
      facts.openingHoursText = "Mo-Fr 09:00-18:00";
    }
    return { recordId: `node/${1_000_000 + index}`, observedAt, confidence: 0.8, city, facts };
  });
  const lats = records.map((record) => record.facts.coordinates.lat);
  const lngs = records.map((record) => record.facts.coordinates.lng);
  return {
    area: { minLat: Math.min(...lats), maxLat: Math.max(...lats), minLng: Math.min(...lngs), maxLng: Math.max(...lngs) },
    records,
    elements: count,
    skipped: {},
    unmappedTags: {},
    unparsedOpeningHours: {},
  };
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export async function benchImport(serverUrl: string, note: (line: string) => void): Promise<void> {
  await withScratchDatabase(serverUrl, "import", async (database) => {
    note("");
    note("## Registry import (PostgreSQL, fresh database)");
    const largest = ["liechtenstein-2015-07.osm.pbf", "andorra-2013-05.osm.pbf", "liechtenstein-2013-08.osm.pbf"]
      .map((file) => join(extractsDir, file))
      .filter((file) => existsSync(file))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0];
    if (largest) {
      const gazetteer = loadGazetteer();
      const readStarted = performance.now();
      const scan = await scanOsmExtract(largest, { gazetteer });
      const readSeconds = (performance.now() - readStarted) / 1000;
      const importStarted = performance.now();
      const summary = await importRegistry(database.db, scan, { source: "openstreetmap", concurrency: 2 });
      const importSeconds = (performance.now() - importStarted) / 1000;
      note(
        `- ${largest.split("/").pop()}: read ${scan.elements.toLocaleString("en")} elements in ${readSeconds.toFixed(2)} s ` +
          `(${Math.round(scan.elements / readSeconds).toLocaleString("en")} elements/s); imported ${summary.added} businesses in ${importSeconds.toFixed(2)} s ` +
          `(${Math.round(summary.added / importSeconds).toLocaleString("en")} businesses/s; a small file is dominated by per-run setup)`,
      );
    } else {
      note(`- Real extracts: not measured (none in ${extractsDir})`);
    }

    const scan = syntheticScan(syntheticRecords);
    const samples: { rss: number; heap: number }[] = [];
    const sample = () => samples.push({ rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed });
    sample();
    const started = performance.now();
    // As the CLI runs it on PostgreSQL: two batches in flight.
    const summary = await importRegistry(database.db, scan, { source: "bench", concurrency: 2, onProgress: sample });
    const seconds = (performance.now() - started) / 1000;
    const [claims] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from claims`));
    const rate = Math.round(summary.added / seconds);
    note(
      `- Synthetic registry: ${summary.added.toLocaleString("en")} businesses with ${claims!.n.toLocaleString("en")} claims in ${seconds.toFixed(1)} s: ` +
        `**${rate.toLocaleString("en")} businesses/s** (target ≥ ${TARGET_BUSINESSES_PER_SECOND.toLocaleString("en")}) ${rate >= TARGET_BUSINESSES_PER_SECOND ? "✅" : "❌"}`,
    );
    const half = Math.floor(samples.length / 2);
    const peak = (from: number, to: number) => Math.max(...samples.slice(from, to).map((s) => s.heap));
    note(
      `- Memory during it: heap peak ${mb(peak(0, half))} in the first half of the batches, ${mb(peak(half, samples.length))} in the second ` +
        `(flat when equal within noise); resident ${mb(samples[0]!.rss)} before, ${mb(Math.max(...samples.map((s) => s.rss)))} at most (the scan itself holds every record)`,
    );
    const againStarted = performance.now();
    const again = await importRegistry(database.db, scan, { source: "bench", concurrency: 2 });
    const againSeconds = (performance.now() - againStarted) / 1000;
    note(
      `- The same registry again (a diff, nothing to change): ${again.unchanged.toLocaleString("en")} unchanged, ${again.added + again.changed} written, ` +
        `in ${againSeconds.toFixed(1)} s (${Math.round(again.unchanged / againSeconds).toLocaleString("en")} businesses/s)`,
    );
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await benchImport(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/directory_bench", console.log);
}
