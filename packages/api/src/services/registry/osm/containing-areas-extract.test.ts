import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@directory/db";
import { loadGazetteer, type Gazetteer } from "@directory/db/gazetteer";
import { createTestDatabase, type TestDatabase } from "../../../testing";
import { importFeed, type ImportSummary } from "../import-registry";
import { osmRegistryFeed } from "./osm-feed";
import { OSM_EXTRACTS } from "./test-extracts";

/*
 * Liechtenstein, July 2015, as an agent reads it: shops whose address OpenStreetMap keeps on their
 * building, and a restaurant drawn as a node in front of its building and as the building.
 */

const SOURCE = "openstreetmap";
let database: TestDatabase;
let gazetteer: Gazetteer;
let first: ImportSummary;

beforeAll(async () => {
  database = await createTestDatabase({ seed: false });
  gazetteer = loadGazetteer();
  first = await importFeed(database.db, osmRegistryFeed(OSM_EXTRACTS.liechtenstein2015, { gazetteer }), { source: SOURCE });
}, 120_000);
afterAll(async () => {
  await database?.destroy();
});

async function currentClaims(recordId: string): Promise<Record<string, [unknown, string | null]>> {
  const rows = rowsOf<{ property: string; value: unknown; record_id: string | null }>(
    await database.db.execute(sql`
      select c.property, c.value, c.record_id from claims c join registry_records r on r.business_id = c.business_id
      where r.source = ${SOURCE} and r.record_id = ${recordId} and c.superseded_at is null and c.value <> 'null'::jsonb`),
  );
  return Object.fromEntries(rows.map((row) => [row.property, [row.value, row.record_id]]));
}

describe("importing Liechtenstein (2015-07)", () => {
  it("gives a shop node without addr:* tags the address of its building, naming the building's way", async () => {
    // node/995356599 (amenity=pharmacy, no addr:*) stands in way/85744127 (building=yes, Postplatz 2, 9494 Schaan).
    const pharmacy = await currentClaims("node/995356599");
    expect(pharmacy.name).toEqual(["Apotheke am Postplatz", "node/995356599"]);
    expect(pharmacy.address).toEqual(["Postplatz 2", "way/85744127"]);
    expect(pharmacy.postalCode).toEqual(["9494", "way/85744127"]);
  });

  it("leaves fewer listings without an address: those in an addressed building have its address", async () => {
    const [counts] = rowsOf<{ listings: number; without: number; from_building: number }>(
      await database.db.execute(sql`
        with listing as (select b.id, r.record_id from businesses b join registry_records r on r.business_id = b.id and r.same_as is null where b.status = 'active')
        select count(*)::int as listings,
          count(*) filter (where not exists (select 1 from claims c where c.business_id = listing.id and c.property = 'address' and c.superseded_at is null and c.value <> 'null'::jsonb))::int as without,
          count(*) filter (where exists (select 1 from claims c where c.business_id = listing.id and c.property = 'address' and c.superseded_at is null
            and c.record_id <> listing.record_id and not exists (select 1 from registry_records s where s.record_id = c.record_id and s.same_as = listing.record_id)))::int as from_building
        from listing`),
    );
    expect(counts).toEqual({ listings: 161, without: 79, from_building: 29 });
    expect(first.added).toBe(161);
  });

  it("makes one listing of the restaurant drawn as a node and as its building, with both record ids", async () => {
    // node/3439370593 "SCHLÖSSLE MAHAL" stands 17 m in front of way/329852422 "Schlössle Mahal" (both amenity=restaurant).
    const rows = rowsOf<{ record_id: string; business_id: string; same_as: string | null }>(
      await database.db.execute(
        sql`select record_id, business_id, same_as from registry_records where record_id in ('node/3439370593', 'way/329852422') order by record_id`,
      ),
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]!.business_id).toBe(rows[1]!.business_id);
    expect(rows.map((row) => [row.record_id, row.same_as])).toEqual([
      ["node/3439370593", null],
      ["way/329852422", "node/3439370593"],
    ]);
    const listings = rowsOf<{ name: string }>(await database.db.execute(sql`select name from businesses where name ilike 'schl%ssle mahal'`));
    expect(listings).toEqual([{ name: "SCHLÖSSLE MAHAL" }]);
    // The node's own address, and the postcode and hours only the way has.
    const restaurant = await currentClaims("node/3439370593");
    expect(restaurant.address).toEqual(["Fürst-Franz-Josef-Strasse 68", "node/3439370593"]);
    expect(restaurant.postalCode).toEqual(["9490", "way/329852422"]);
    expect(restaurant.openingHoursText?.[1]).toBe("way/329852422");
  });

  it("writes nothing when the same extract is imported again", async () => {
    const claims = async () => rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from claims`))[0]!.n;
    const before = await claims();
    const again = await importFeed(database.db, osmRegistryFeed(OSM_EXTRACTS.liechtenstein2015, { gazetteer }), { source: SOURCE });
    expect(again).toMatchObject({ added: 0, changed: 0, removed: 0, reactivated: 0, unchanged: 161 });
    expect(await claims()).toBe(before);
  });
});
