import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, rowsOf } from "@directory/db";
import { loadGazetteer } from "@directory/db/gazetteer";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { anonymousCaller } from "../../test-callers";
import { importRegistry } from "../../services/registry/import-registry";
import { scanOsmExtract } from "../../services/registry/osm/scan-osm";
import { OSM_EXTRACTS } from "../../services/registry/osm/test-extracts";

/*
 * Issue 41's places on the real Liechtenstein extract (July 2015, ODbL) imported through the claim
 * write path beside the small demo world: the country filter on every search and the cities list,
 * keyword search without accents, and a category named with a place read as "that category there".
 * One hotel in Monaco, "Hôtel de Paris", comes from a registry record of its own.
 */

let database: TestDatabase;
let caller: ReturnType<typeof anonymousCaller>;

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  caller = anonymousCaller(database.db);
  const gazetteer = loadGazetteer();
  await importRegistry(database.db, await scanOsmExtract(OSM_EXTRACTS.liechtenstein2015, { gazetteer }), { source: "openstreetmap" });
  const monaco = gazetteer.near(43.7394, 7.4285, 3).find(({ city }) => city.countryCode === "MC")!.city;
  const facts = { name: "Hôtel de Paris", category: "hotel", coordinates: { lat: 43.7394, lng: 7.4275 } };
  const record = { recordId: "node/1", observedAt: new Date("2015-07-01T00:00:00Z"), confidence: 0.8, city: monaco, facts };
  await importRegistry(
    database.db,
    { area: null, records: [record], elements: 1, skipped: {}, unmappedTags: {}, unparsedOpeningHours: {} },
    { source: "test-places" },
  );
}, 180_000);
afterAll(async () => {
  await database?.destroy();
});

const refusal = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (caught: unknown) => caught as { code: string; message: string },
  );

describe("country=<ISO alpha-2> on every search and the cities list", () => {
  it("the listings carry country as before: upper-case ISO codes", async () => {
    const codes = rowsOf<{ country: string }>(await database.db.execute(sql`select distinct country from businesses`)).map((row) => row.country);
    expect(codes).toContain("LI");
    expect(codes.every((code) => /^[A-Z]{2}$/.test(code))).toBe(true);
  });

  it("category search: a whole country's hotels, either case in, none for a country without listings", async () => {
    const [{ hotels }] = rowsOf<{ hotels: number }>(
      await database.db.execute(sql`select count(*)::int as hotels from businesses where country = 'LI' and category_slug = 'hotel' and status = 'active'`),
    ) as [{ hotels: number }];
    const found = await caller.search.searchCategory({ category: "hotel", country: "li", limit: 10 });
    expect(found.totalMatches).toBe(hotels);
    expect(found.businesses.length).toBe(10);
    expect(found.businesses.every((listing) => listing.country === "LI" && listing.category === "Hotel")).toBe(true);
    // The next page stays in the country; a cursor of another country's listing is refused.
    const next = await caller.search.searchCategory({ category: "hotel", country: "LI", limit: 10, cursor: found.nextCursor! });
    expect(next.businesses.every((listing) => listing.country === "LI")).toBe(true);
    expect(found.businesses.length + next.businesses.length).toBe(hotels);
    expect((await refusal(caller.search.searchCategory({ category: "hotel", country: "AD", cursor: found.nextCursor! })))?.code).toBe("BAD_REQUEST");
    const none = await caller.search.searchCategory({ category: "hotel", country: "AD" });
    expect(none).toMatchObject({ businesses: [], totalMatches: 0 });
    // Near a point on the border: only the country asked for.
    const near = await caller.search.searchCategory({ country: "LI", near: { lat: 47.1393, lng: 9.5215 }, radiusKm: 20, limit: 10 });
    expect(near.businesses.length).toBeGreaterThan(0);
    expect(near.businesses.every((listing) => listing.country === "LI")).toBe(true);
    expect((await caller.search.searchCategory({ country: "AD", near: { lat: 47.1393, lng: 9.5215 }, radiusKm: 20 })).totalMatches).toBe(0);
  });

  it("/api/v2/businesses: a country instead of a city; a city is looked up in the country", async () => {
    const whole = await caller.search.lookupBusinesses({ category: "restaurant", country: "LI", limit: 50 });
    expect(whole.businesses.length).toBeGreaterThan(10);
    expect(new Set(whole.businesses.map((listing) => listing.city)).size).toBeGreaterThan(1);
    expect(whole.businesses.every((listing) => listing.country === "LI")).toBe(true);
    expect((await caller.search.lookupBusinesses({ category: "restaurant", country: "AD" })).totalMatches).toBe(0);
    const vaduz = await caller.search.lookupBusinesses({ category: "restaurant", city: "Vaduz", country: "LI" });
    expect(vaduz.city).toMatchObject({ name: "Vaduz", country: "LI" });
    expect((await refusal(caller.search.lookupBusinesses({ category: "restaurant", city: "Vaduz", country: "AT" })))?.code).toBe("NOT_FOUND");
  });

  it("the listicle: its city in the country, or a 404 when the country has no such city", async () => {
    const listicle = await caller.search.getListicle({ category: "restaurant", city: "Vaduz", country: "li" });
    expect(listicle.businesses.length).toBeGreaterThan(0);
    expect(listicle.businesses.every((listing) => listing.country === "LI")).toBe(true);
    expect((await refusal(caller.search.getListicle({ category: "restaurant", city: "Vaduz", country: "AD" })))?.code).toBe("NOT_FOUND");
  });

  it("keyword search: only the country's matches", async () => {
    const inLi = await caller.search.searchKeyword({ query: "hotel", country: "LI", limit: 10 });
    expect(inLi.country).toBe("LI");
    expect(inLi.businesses.length).toBeGreaterThan(0);
    expect(inLi.businesses.every((listing) => listing.country === "LI")).toBe(true);
    const inMonaco = await caller.search.searchKeyword({ query: "hotel", country: "MC", limit: 10 });
    expect(inMonaco.businesses.map((listing) => listing.name)).toEqual(["Hôtel de Paris"]);
    const none = await caller.search.searchKeyword({ query: "hotel", country: "AD", limit: 10 });
    expect(none.businesses).toEqual([]);
  });

  it("the cities list: only the country's cities", async () => {
    const li = await caller.search.availableCities({ category: "restaurant", country: "LI", limit: 50 });
    expect(li.cities.length).toBeGreaterThan(1);
    expect(li.cities.every((city) => city.country === "LI")).toBe(true);
    expect((await caller.search.availableCities({ category: "restaurant", country: "AD" })).totalMatches).toBe(0);
  });

  it.each(["ZZ", "EU", "L1", "LIE", "", "U.S."])("country=%j is a 400 naming country on each search", async (country) => {
    for (const call of [
      caller.search.searchCategory({ category: "hotel", country }),
      caller.search.searchKeyword({ query: "hotel", country }),
      caller.search.getListicle({ category: "hotel", city: "Vaduz", country }),
      caller.search.lookupBusinesses({ category: "hotel", country }),
      caller.search.availableCities({ category: "hotel", country }),
    ]) {
      const error = await refusal(call);
      expect(error?.code, country).toBe("BAD_REQUEST");
      expect(error?.message, country).toContain("country");
    }
  });
});

describe("keyword search without accents", () => {
  it.each([
    ["hotel de paris", "Hôtel de Paris"],
    ["Hôtel de Paris", "Hôtel de Paris"],
    ["HOTEL DE PARIS", "Hôtel de Paris"],
    ["schlossle mahal", "Schlössle Mahal"],
    ["backerei gassner", "Bäckerei Gassner"],
    ["Hötel Stég", "Hotel Steg"],
  ])("%j finds %j by its words", async (query, name) => {
    const result = await caller.search.searchKeyword({ query, limit: 5 });
    expect(result.matchedBy).toBe("all_words");
    // The extract maps "Schlössle Mahal" three times: once as "Restaurant Schlössle Mahal", and as
    // "SCHLÖSSLE MAHAL" in front of its building "Schlössle Mahal", one listing under the node's name.
    expect(result.businesses.map((listing) => listing.name.toLowerCase())).toContain(name.toLowerCase());
    expect(result.businesses.every((listing) => listing.matchedBy === "full_text")).toBe(true);
  });
});

describe("a category named with a place is that category there", () => {
  it('"bakery in Vaduz": bakeries in Vaduz or none, never a business merely named Vaduz', async () => {
    const named = await database.db.select({ name: businesses.name }).from(businesses).where(eq(businesses.name, "Vaduz"));
    expect(named.length).toBeGreaterThan(0);
    for (const query of ["bakery in Vaduz", "bakery vaduz", "bakeries in vaduz"]) {
      const result = await caller.search.searchKeyword({ query, limit: 10 });
      expect(result.city?.name, query).toBe("Vaduz");
      expect(result.category?.slug, query).toBe("bakery");
      expect(result.businesses.every((listing) => listing.category === "Bakery" && listing.city === "Vaduz")).toBe(true);
      if (result.businesses.length === 0) expect(result.matchedBy).toBe("nothing");
    }
    // Where there are bakeries, they answer.
    const schaan = await caller.search.searchKeyword({ query: "bakery in Schaan", limit: 10 });
    expect(schaan.businesses.map((listing) => listing.name)).toContain("Bäckerei Gassner");
  });

  it('"hotel Liechtenstein" reads Liechtenstein as the country: its hotels, not a museum, bank or hospital named after it', async () => {
    const result = await caller.search.searchKeyword({ query: "hotel Liechtenstein", limit: 10 });
    expect(result).toMatchObject({ country: "LI", countryFromWords: "liechtenstein", city: null, category: { slug: "hotel" } });
    expect(result.businesses.length).toBeGreaterThan(0);
    expect(result.businesses.every((listing) => listing.category === "Hotel" && listing.country === "LI")).toBe(true);
    const inCountry = await caller.search.searchKeyword({ query: "hotels in liechtenstein", limit: 10 });
    expect(inCountry.businesses.every((listing) => listing.category === "Hotel" && listing.country === "LI")).toBe(true);
  });

  it("a business named like a place is still found by its name when no category word asks for another", async () => {
    const result = await caller.search.searchKeyword({ query: "Vaduz", limit: 10 });
    expect(result.businesses.map((listing) => listing.name)).toContain("Vaduz");
  });
});
