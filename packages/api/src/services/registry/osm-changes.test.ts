import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type Db } from "@directory/db";
import { loadGazetteer } from "@directory/db/gazetteer";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { recordFeedChanges } from "../feed/feed-documents";
import { importFeed } from "./import-registry";
import { applyOsmChanges, OsmChangesRefused, type OsmChangesSummary } from "./osm-changes";
import { osmRegistryFeed } from "./osm/osm-feed";
import { OSM_CHANGE_FILES, OSM_EXTRACTS } from "./osm/test-extracts";
import { keepImportedSnapshot, osmSourceState, type OsmSourceState } from "./osm-snapshots";
import type { RegistrySurvey } from "./registry-record";

/*
 * Change files between the two real Liechtenstein snapshots (osmium derive-changes, split in two
 * by date), applied in order to the 2013 import, leave the database as a re-import of the 2015
 * snapshot leaves it: the same listings, the same claims, the same removals.
 */

const SOURCE = "openstreetmap";
const [PART_1, PART_2] = OSM_CHANGE_FILES.liechtenstein2013to2015 as [string, string];
const gazetteer = loadGazetteer();
let applied: TestDatabase;
let reimported: TestDatabase;
let dataDir: string;
let summary: OsmChangesSummary;
/** The 2013 import's survey and the snapshot kept after it, before any change file. */
let survey2013: RegistrySurvey;
let kept: OsmSourceState;

const feedOf = (file: string) => osmRegistryFeed(file, { source: SOURCE, gazetteer });
const importExtract = (db: Db, file: string) => importFeed(db, feedOf(file), { source: SOURCE });

beforeAll(async () => {
  [applied, reimported] = await Promise.all([createTestDatabase({ seed: false }), createTestDatabase({ seed: false })]);
  dataDir = await mkdtemp(path.join(tmpdir(), "osm-changes-"));
  const feed2013 = feedOf(OSM_EXTRACTS.liechtenstein2013);
  await Promise.all([importFeed(applied.db, feed2013, { source: SOURCE }), importExtract(reimported.db, OSM_EXTRACTS.liechtenstein2013)]);
  survey2013 = await feed2013.survey();
  await importExtract(reimported.db, OSM_EXTRACTS.liechtenstein2015);
  // Partners see owner-verified listings only: the ones the changes remove are made so, and published.
  const goneIn2015 = rowsOf<{ record_id: string }>(
    await reimported.db.execute(sql`select record_id from registry_records where source = ${SOURCE} and removed_at is not null`),
  ).map((row) => row.record_id);
  const published = rowsOf<{ id: string }>(
    await applied.db.execute(sql`
      update businesses set ownership = 'owner_verified'
      where id in (select business_id from registry_records where source = ${SOURCE} and record_id = any(${`{${goneIn2015.join(",")}}`}::text[]))
      returning id`),
  ).map((row) => row.id);
  await recordFeedChanges(applied.db, published, new Date());
  kept = await keepImportedSnapshot(applied.db, SOURCE, OSM_EXTRACTS.liechtenstein2013, dataDir, survey2013);
  summary = await applyOsmChanges(applied.db, { source: SOURCE, files: [PART_1, PART_2], dataDir });
}, 300_000);
afterAll(async () => {
  await applied?.destroy();
  await reimported?.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

/** Each record's listing and its current claims, in words that do not depend on generated ids or write times. */
async function listingsByRecord(db: Db) {
  // Ownership is left out: the listings removed were made owner-verified on one side only.
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select r.record_id, r.removed_at is not null as removed, b.name, b.status, b.inactive_reason, b.country, c.slug as city,
        (select coalesce(json_agg(json_build_array(k.property, k.value, k.source, k.record_id, k.confidence, k.verification, k.observed_at)
                  order by k.property, k.record_id), '[]'::json)
           from claims k where k.business_id = b.id and k.superseded_at is null) as claims
      from registry_records r join businesses b on b.id = r.business_id join cities c on c.id = b.city_id
      where r.source = ${SOURCE} order by r.record_id`),
  );
  return rows.map((row) => JSON.stringify(row));
}

describe("directory-admin import osm-changes: applying OpenStreetMap change files", () => {
  it("starts from the imported extract's snapshot, dated as the import's survey found it (the extract is not read again for it)", () => {
    expect(survey2013.currentAt).toBeInstanceOf(Date);
    expect(survey2013.currentAt!.getUTCFullYear()).toBe(2013);
    expect(kept.newestChangeAt).toEqual(survey2013.currentAt);
  });

  it("leaves the same listings and claims as a re-import of the newer snapshot", async () => {
    const [afterChanges, afterReimport] = await Promise.all([listingsByRecord(applied.db), listingsByRecord(reimported.db)]);
    expect(afterChanges.length).toBeGreaterThan(150);
    expect(afterChanges).toEqual(afterReimport);
    expect(summary.files.map((file) => file.status)).toEqual(["applied", "applied"]);
    expect(summary.created).toBeGreaterThan(0);
    expect(summary.changed).toBeGreaterThan(0);
    expect(summary.removed).toBeGreaterThan(0);
    // Most of the changes are roads, buildings and their nodes.
    expect(summary.ignored).toBeGreaterThan(100_000);
    expect(summary.newestChangeAt! > "2015-07-01").toBe(true);
  });

  it("takes a deleted business out of search and puts it on the change feed as removed_from_source", async () => {
    // Search reads active rows of business_search only.
    const removed = rowsOf<{ business_id: string; in_search: boolean }>(
      await applied.db.execute(sql`
        select r.business_id, exists (select 1 from business_search s where s.business_id = r.business_id and s.status = 'active') as in_search
        from registry_records r where r.source = ${SOURCE} and r.removed_at is not null`),
    );
    expect(removed.length).toBe(summary.removed);
    expect(removed.every((row) => !row.in_search)).toBe(true);
    const feed = rowsOf<{ business_id: string }>(
      await applied.db.execute(sql`select business_id from feed_changes where action = 'remove' and reason = 'removed_from_source'`),
    );
    expect(new Set(feed.map((row) => row.business_id))).toEqual(new Set(removed.map((row) => row.business_id)));
  });

  it("skips a file applied before, writing nothing", async () => {
    const claimsBefore = await claimCount(applied.db);
    const again = await applyOsmChanges(applied.db, { source: SOURCE, files: [PART_2], dataDir });
    expect(again.files[0]!.status).toBe("already applied");
    expect(again.import).toBeNull();
    expect(await claimCount(applied.db)).toBe(claimsBefore);
  });

  it("refuses a file older than the newest change applied, unless forced", async () => {
    // The first file again under other bytes: not known by its fingerprint, and older than the second.
    const older = path.join(dataDir, "older.osc.gz");
    await writeFile(older, gzipSync(gunzipSync(await readFile(PART_1)), { level: 1 }));
    const state = await osmSourceState(applied.db, SOURCE);
    await expect(applyOsmChanges(applied.db, { source: SOURCE, files: [older], dataDir })).rejects.toThrow(/older than the changes already applied.*--force/);
    expect(await osmSourceState(applied.db, SOURCE)).toEqual(state);
    // Each element the first file changes, the second does not: forced, it changes no business.
    const forced = await applyOsmChanges(applied.db, { source: SOURCE, files: [older], dataDir, force: true });
    expect(forced.files[0]!.status).toBe("applied");
    expect([forced.created, forced.changed, forced.removed]).toEqual([0, 0, 0]);
  });

  it("says what is wrong with a source without snapshot, a missing file and one that is not osmChange", async () => {
    await expect(applyOsmChanges(applied.db, { source: "elsewhere", files: [PART_1], dataDir })).rejects.toThrow(OsmChangesRefused);
    await expect(applyOsmChanges(applied.db, { source: SOURCE, files: [path.join(dataDir, "nowhere.osc")], dataDir })).rejects.toThrow(
      /nowhere\.osc: not found/,
    );
    const notChanges = path.join(dataDir, "extract.osc");
    await copyFile(OSM_EXTRACTS.liechtenstein2013, notChanges);
    await expect(applyOsmChanges(applied.db, { source: SOURCE, files: [notChanges], dataDir })).rejects.toThrow(/extract\.osc: line 1/);
    const wrongRoot = path.join(dataDir, "osm.osc");
    await writeFile(wrongRoot, `<?xml version="1.0"?>\n<osm version="0.6"><node id="1" lat="1" lon="1"/></osm>`);
    await expect(applyOsmChanges(applied.db, { source: SOURCE, files: [wrongRoot], dataDir })).rejects.toThrow(/<osm>, not <osmChange>/);
  });
});

async function claimCount(db: Db): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from claims`));
  return row!.n;
}
