import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGazetteer, type Gazetteer } from "@directory/db/gazetteer";
import { rowsOf } from "@directory/db";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { importRegistry } from "./import-registry";
import { scanOsmExtract } from "./osm/scan-osm";
import { osmPbfFile } from "./osm/pbf-test-files";
import { OSM_EXTRACTS } from "./osm/test-extracts";
import type { RegistryRecord, RegistryScan } from "./registry-record";

/* What an import refuses or corrects whatever its file says: mass removals, one record twice, edits from the future. */

let database: TestDatabase;
let gazetteer: Gazetteer;
let dir: string;
let liechtenstein: RegistryScan;
const SOURCE = "openstreetmap";

beforeAll(async () => {
  database = await createTestDatabase({ seed: false });
  gazetteer = loadGazetteer();
  dir = await mkdtemp(path.join(tmpdir(), "import-guards-"));
  liechtenstein = await scanOsmExtract(OSM_EXTRACTS.liechtenstein2013, { gazetteer });
  await importRegistry(database.db, liechtenstein, { source: SOURCE });
}, 120_000);
afterAll(async () => {
  await database?.destroy();
  await rm(dir, { recursive: true, force: true });
});

async function registryState() {
  const [row] = rowsOf<{ records: number; removed: number; claims: number }>(
    await database.db.execute(sql`
      select (select count(*)::int from registry_records) as records,
             (select count(*)::int from registry_records where removed_at is not null) as removed,
             (select count(*)::int from claims) as claims`),
  );
  return row!;
}

describe("an import that would remove much of a source", () => {
  it("is refused when a one-node file's header declares the whole world, dry run or not, writing nothing", async () => {
    const file = path.join(dir, "whole-world.osm.pbf");
    const world = { minLat: -90, minLng: -180, maxLat: 90, maxLng: 180 };
    await writeFile(
      file,
      osmPbfFile({ bbox: world }, [{ id: 1, lat: 47.14, lng: 9.52, tags: { name: "Lone Cafe", amenity: "cafe" }, timestamp: 1_700_000_000 }]),
    );
    const scan = await scanOsmExtract(file, { gazetteer });
    expect(scan.records).toHaveLength(1);
    const before = await registryState();
    const held = liechtenstein.records.length;
    const refusal = `This import would remove ${held} of the ${held} records source "${SOURCE}" has in service inside the file's area`;
    for (const dryRun of [true, false]) {
      await expect(importRegistry(database.db, scan, { source: SOURCE, dryRun })).rejects.toThrow(refusal);
    }
    const error = await importRegistry(database.db, scan, { source: SOURCE }).catch((failure: Error) => failure);
    expect((error as Error).message).toMatch(/more than 20%.*--allow-removals/);
    expect(await registryState()).toEqual(before);

    const allowed = await importRegistry(database.db, scan, { source: SOURCE, dryRun: true, allowRemovals: true });
    expect(allowed).toMatchObject({ dryRun: true, added: 1, removed: held });
    expect(await registryState()).toEqual(before);
  });

  it("goes through when it removes at most 20% of the source's records in its area, and not above", async () => {
    // At most the share (floor), so the first scan sits at or just under the guard whatever the extract's count.
    const withoutShare = (share: number): RegistryScan => ({
      ...liechtenstein,
      records: liechtenstein.records.slice(Math.floor(liechtenstein.records.length * share)),
    });
    const fifth = withoutShare(0.2);
    const removable = liechtenstein.records.length - fifth.records.length;
    expect(removable / liechtenstein.records.length).toBeLessThanOrEqual(0.2);
    await expect(importRegistry(database.db, fifth, { source: SOURCE, dryRun: true })).resolves.toMatchObject({ removed: removable });
    await expect(importRegistry(database.db, withoutShare(0.21), { source: SOURCE, dryRun: true })).rejects.toThrow(/--allow-removals/);
  });
});

describe("an import's records", () => {
  const place = { lat: 47.1405, lng: 9.5215 };
  const record = (recordId: string, observedAt: Date): RegistryRecord => ({
    recordId,
    observedAt,
    confidence: 0.7,
    city: liechtenstein.records.find((held) => held.city.name === "Vaduz")!.city,
    facts: { name: `Guarded Shop ${recordId}`, category: "bakery", coordinates: place },
  });
  const scanOf = (records: RegistryRecord[]): RegistryScan => ({
    area: null,
    records,
    elements: records.length,
    skipped: {},
    unmappedTags: {},
    unparsedOpeningHours: {},
  });

  it("are dated no later than the import, whatever the source says", async () => {
    const at = new Date("2030-06-01T12:00:00Z");
    const summary = await importRegistry(database.db, scanOf([record("node/900001", new Date("3000-01-01T00:00:00Z"))]), { source: "guards", at });
    expect(summary.added).toBe(1);
    const dates = rowsOf<{ observed_at: string }>(
      await database.db.execute(sql`
        select observed_at::text from claims where source = 'guards'
        union all select observed_at::text from registry_records where source = 'guards'`),
    );
    expect(dates.length).toBeGreaterThan(3);
    for (const { observed_at } of dates) expect(new Date(observed_at)).toEqual(at);
  });

  it("name a record that comes twice, without the SQL or its values, writing nothing", async () => {
    const before = await registryState();
    const twice = scanOf([
      record("node/900002", new Date("2020-01-01")),
      record("node/900003", new Date("2020-01-01")),
      record("node/900002", new Date("2021-01-01")),
    ]);
    const error = await importRegistry(database.db, twice, { source: "guards" }).catch((failure: Error) => failure);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('Record node/900002 appears twice in the records of source "guards": one record is one business');
    expect(await registryState()).toEqual(before);
  });

  it("give each of many businesses of one name in one city its own slug, two batches in flight", async () => {
    // Batches side by side wanting one slug race for it; the import lets the second wait instead.
    const coops = Array.from({ length: 12 }, (_, index) => ({
      ...record(`node/91${String(index).padStart(4, "0")}`, new Date("2020-01-01")),
      facts: { name: "Coop", category: "grocery-store", coordinates: { lat: place.lat + index * 1e-4, lng: place.lng } },
    }));
    const summary = await importRegistry(database.db, scanOf(coops), { source: "guards-coop", batchSize: 2, concurrency: 2 });
    expect(summary.added).toBe(12);
    const slugs = rowsOf<{ slug: string }>(
      await database.db.execute(sql`select b.slug from registry_records r join businesses b on b.id = r.business_id where r.source = 'guards-coop'`),
    ).map((row) => row.slug);
    expect(new Set(slugs).size).toBe(12);
    expect(slugs.every((slug) => slug.startsWith("coop-vaduz"))).toBe(true);
  });
});
