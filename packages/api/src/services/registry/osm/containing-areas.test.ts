import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@directory/db";
import { loadGazetteer, type Gazetteer } from "@directory/db/gazetteer";
import { createTestDatabase, type TestDatabase } from "../../../testing";
import { importFeed } from "../import-registry";
import { sameBusinessKey } from "./containing-areas";
import { osmRegistryFeed } from "./osm-feed";
import { fileBlock, headerBlock, nodesBlock, waysBlock, zlibBlob, type TestNode, type TestWay } from "./pbf-test-files";

/*
 * Addresses from the building around a shop, and one business drawn twice (a node inside its own
 * building way) imported as one listing, on a small extract written here: in Vaduz, a bakery node
 * inside an addressed building, a cafe outside any, and a hotel drawn as a node and as its building.
 */

const SOURCE = "openstreetmap";
const EDITED = 1_400_000_000;
const BBOX = { minLat: 47.13, minLng: 9.51, maxLat: 47.15, maxLng: 9.53 };

/** A closed square way around (lat, lng), its corner nodes numbered from firstNode. */
function square(id: number, firstNode: number, lat: number, lng: number, tags: Record<string, string>): { nodes: TestNode[]; way: TestWay } {
  const d = 0.0002;
  const corners = [
    [lat - d, lng - d],
    [lat - d, lng + d],
    [lat + d, lng + d],
    [lat + d, lng - d],
  ] as const;
  const nodes = corners.map(([cornerLat, cornerLng], i) => ({ id: firstNode + i, lat: cornerLat, lng: cornerLng, timestamp: EDITED }));
  return { nodes, way: { id, refs: [...nodes.map((node) => node.id), firstNode], tags, timestamp: EDITED } };
}

/** The hotel's node where it is (null: deleted) and under which id, and whether its building way is there. */
interface Hotel {
  nodeAt: { lat: number; lng: number } | null;
  nodeId?: number;
  way?: boolean;
}

function extract({ nodeAt, nodeId = 20, way = true }: Hotel): Buffer {
  const bakeryBuilding = square(100, 1, 47.14, 9.52, {
    building: "yes",
    "addr:street": "Städtle",
    "addr:housenumber": "43",
    "addr:postcode": "9490",
    "addr:city": "Vaduz",
  });
  const hotel = square(200, 5, 47.142, 9.522, {
    building: "yes",
    name: "Hotel Löwen",
    tourism: "hotel",
    phone: "+423 238 11 44",
    "addr:street": "Herrengasse",
    "addr:housenumber": "35",
  });
  const businesses: TestNode[] = [
    { id: 10, lat: 47.14001, lng: 9.52001, tags: { name: "Bäckerei Wanger", shop: "bakery" }, timestamp: EDITED },
    { id: 11, lat: 47.141, lng: 9.521, tags: { name: "Café Draussen", amenity: "cafe" }, timestamp: EDITED },
    ...(nodeAt ? [{ id: nodeId, ...nodeAt, tags: { name: "HOTEL LOWEN", tourism: "hotel", website: "https://loewen.example.li/" }, timestamp: EDITED }] : []),
  ];
  const nodes = [...bakeryBuilding.nodes, ...hotel.nodes, ...businesses].sort((a, b) => a.id - b.id);
  return Buffer.concat([
    fileBlock("OSMHeader", zlibBlob(headerBlock({ bbox: BBOX }))),
    fileBlock("OSMData", zlibBlob(nodesBlock(nodes))),
    fileBlock("OSMData", zlibBlob(waysBlock([bakeryBuilding.way, ...(way ? [hotel.way] : [])]))),
  ]);
}

const HOTEL_INSIDE = { lat: 47.14201, lng: 9.52201 };
/** About 130 m north of its building: drawn apart. */
const HOTEL_APART = { lat: 47.1433, lng: 9.522 };

let database: TestDatabase;
let gazetteer: Gazetteer;
let dir: string;

beforeAll(async () => {
  database = await createTestDatabase({ seed: false });
  gazetteer = loadGazetteer();
  dir = await mkdtemp(path.join(tmpdir(), "containing-areas-"));
}, 60_000);
afterAll(async () => {
  await database?.destroy();
  await rm(dir, { recursive: true, force: true });
});

async function importExtract(name: string, hotel: Hotel | { lat: number; lng: number }, allowRemovals = false) {
  const file = path.join(dir, `${name}.osm.pbf`);
  await writeFile(file, extract("nodeAt" in hotel ? hotel : { nodeAt: hotel }));
  return importFeed(database.db, osmRegistryFeed(file, { gazetteer }), { source: SOURCE, allowRemovals });
}

/** Current claims of the business a record stands for: property -> [value, record id]. */
async function currentClaims(recordId: string): Promise<Record<string, [unknown, string | null]>> {
  const rows = rowsOf<{ property: string; value: unknown; record_id: string | null }>(
    await database.db.execute(sql`
      select c.property, c.value, c.record_id from claims c join registry_records r on r.business_id = c.business_id
      where r.source = ${SOURCE} and r.record_id = ${recordId} and c.superseded_at is null and c.value <> 'null'::jsonb`),
  );
  return Object.fromEntries(rows.map((row) => [row.property, [row.value, row.record_id]]));
}

async function listings(): Promise<{ name: string; status: string }[]> {
  return rowsOf<{ name: string; status: string }>(await database.db.execute(sql`select name, status from businesses order by name, status`));
}

async function rows(): Promise<{ record_id: string; business_id: string; same_as: string | null; removed: boolean }[]> {
  return rowsOf(
    await database.db.execute(sql`
      select record_id, business_id, same_as, removed_at is not null as removed from registry_records where source = ${SOURCE} order by record_id`),
  );
}

const claimCount = async () => rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from claims`))[0]!.n;

describe("an OSM import of shops inside buildings", () => {
  it("gives a node without addr:* tags its building's address, naming the building, and none to a node outside", async () => {
    const summary = await importExtract("first", HOTEL_INSIDE);
    expect(summary).toMatchObject({ added: 3, removed: 0 });
    const bakery = await currentClaims("node/10");
    expect(bakery.address).toEqual(["Städtle 43", "way/100"]);
    expect(bakery.postalCode).toEqual(["9490", "way/100"]);
    expect(bakery.name).toEqual(["Bäckerei Wanger", "node/10"]);
    const cafe = await currentClaims("node/11");
    expect(cafe.address).toBeUndefined();
    expect(cafe.postalCode).toBeUndefined();
  });

  it("makes one listing of a business drawn as a node and as its building, the way kept as its second id", async () => {
    // The same name whatever its case, accents and spaces.
    expect(sameBusinessKey("HOTEL LOWEN", "hotel")).toBe(sameBusinessKey(" Hotel  Löwen", "hotel"));
    expect(sameBusinessKey("Hotel Löwen", "hotel")).not.toBe(sameBusinessKey("Hotel Löwen", "restaurant"));
    expect(await listings()).toEqual([
      { name: "Bäckerei Wanger", status: "active" },
      { name: "Café Draussen", status: "active" },
      { name: "HOTEL LOWEN", status: "active" },
    ]);
    const held = await rows();
    const node = held.find((row) => row.record_id === "node/20")!;
    expect(held.find((row) => row.record_id === "way/200")).toMatchObject({ business_id: node.business_id, same_as: "node/20", removed: false });
    expect(node.same_as).toBeNull();
    const hotel = await currentClaims("node/20");
    // The node's own facts, and what it lacks from the way, naming the way.
    expect(hotel.website).toEqual(["https://loewen.example.li/", "node/20"]);
    expect(hotel.phone).toEqual(["+4232381144", "way/200"]);
    expect(hotel.address).toEqual(["Herrengasse 35", "way/200"]);
    expect(hotel.coordinates![0]).toEqual(HOTEL_INSIDE);
  });

  it("writes nothing when the same extract comes again", async () => {
    const [claims, before] = [await claimCount(), await rows()];
    const summary = await importExtract("again", HOTEL_INSIDE);
    expect(summary).toMatchObject({ added: 0, changed: 0, unchanged: 3, removed: 0, reactivated: 0 });
    expect(await claimCount()).toBe(claims);
    expect(await rows()).toEqual(before);
  });

  it("splits the two again when a later snapshot draws them apart, and merges them back after", async () => {
    const apart = await importExtract("apart", HOTEL_APART);
    expect(apart).toMatchObject({ added: 1, changed: 1, removed: 0 });
    const held = await rows();
    const node = held.find((row) => row.record_id === "node/20")!;
    const way = held.find((row) => row.record_id === "way/200")!;
    expect(way.business_id).not.toBe(node.business_id);
    expect(way.same_as).toBeNull();
    expect((await currentClaims("node/20")).phone).toBeUndefined();
    expect((await currentClaims("way/200")).phone).toEqual(["+4232381144", "way/200"]);
    expect((await listings()).filter((listing) => listing.status === "active")).toHaveLength(4);

    const together = await importExtract("together", HOTEL_INSIDE);
    expect(together).toMatchObject({ added: 0, removed: 0 });
    const merged = await rows();
    expect(merged.find((row) => row.record_id === "way/200")).toMatchObject({ business_id: node.business_id, same_as: "node/20" });
    expect((await currentClaims("node/20")).phone).toEqual(["+4232381144", "way/200"]);
    // The way's listing of its own is this one twice: it leaves, as a record gone from the source does.
    const [wayListing] = rowsOf<{ status: string; inactive_reason: string }>(
      await database.db.execute(sql`select status, inactive_reason from businesses where id = ${way.business_id}`),
    );
    expect(wayListing).toEqual({ status: "inactive", inactive_reason: "removed_from_source" });
  });

  it("keeps the listing on the node when the way goes, on the way when the node goes, and on a new node drawn inside the way", async () => {
    const listing = (await rows()).find((row) => row.record_id === "node/20")!.business_id;
    const wayGone = await importExtract("way-gone", { nodeAt: HOTEL_INSIDE, way: false });
    expect(wayGone).toMatchObject({ added: 0, removed: 0 });
    expect((await rows()).find((row) => row.record_id === "way/200")).toMatchObject({ business_id: listing, removed: true });
    expect((await currentClaims("node/20")).phone).toBeUndefined();

    // The removal guard counts the node's record as a removal (it does not look at the way that continues it): a third of this small world.
    const nodeGone = await importExtract("node-gone", { nodeAt: null }, true);
    expect(nodeGone).toMatchObject({ added: 0, removed: 0 });
    const held = await rows();
    expect(held.find((row) => row.record_id === "way/200")).toMatchObject({ business_id: listing, same_as: null, removed: false });
    expect(held.find((row) => row.record_id === "node/20")).toMatchObject({ business_id: listing, removed: true });
    expect((await currentClaims("way/200")).name).toEqual(["Hotel Löwen", "way/200"]);

    const newNode = await importExtract("new-node", { nodeAt: HOTEL_INSIDE, nodeId: 21 });
    expect(newNode).toMatchObject({ added: 0, removed: 0 });
    const after = await rows();
    expect(after.find((row) => row.record_id === "node/21")).toMatchObject({ business_id: listing, same_as: null, removed: false });
    expect(after.find((row) => row.record_id === "way/200")).toMatchObject({ business_id: listing, same_as: "node/21" });
    const [business] = rowsOf<{ status: string }>(await database.db.execute(sql`select status from businesses where id = ${listing}`));
    expect(business).toEqual({ status: "active" });
  });
});
