import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses } from "@directory/db";
import { loadGazetteer } from "@directory/db/gazetteer";
import { toPublicError } from "../../errors";
import { anonymousCaller, keyedCaller } from "../../test-callers";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { createApiKey } from "../access/api-keys";
import { importRegistry } from "../registry/import-registry";
import { resolveCity } from "./resolve";

/*
 * Issue 42 item 7: one city resolver for search and the admin's new business. A city is read by its
 * name, alias or slug, with or without ", CC", imported cities (added from the gazetteer on first
 * use, without aliases) as much as the demo's; a code the city is not in says where it is.
 */

let database: TestDatabase;
let adminKey: string;
const slugs = { capDAil: "", vaduz: "" };

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  adminKey = (await createApiKey(database.db, { kind: "admin" })).key;
  const gazetteer = loadGazetteer();
  const capDAil = gazetteer.near(43.7206, 7.4047, 2).find(({ city }) => city.name === "Cap-d'Ail")!.city;
  const vaduz = gazetteer.near(47.141, 9.5215, 2).find(({ city }) => city.name === "Vaduz")!.city;
  const record = (recordId: string, city: typeof vaduz, name: string, category: string) => ({
    recordId,
    observedAt: new Date("2026-01-01T00:00:00Z"),
    confidence: 0.8,
    city,
    facts: { name, category, coordinates: { lat: city.lat, lng: city.lng } },
  });
  const records = [record("node/1", capDAil, "Hôtel Marquet", "hotel"), record("node/2", vaduz, "Rathaus Café", "restaurant")];
  await importRegistry(database.db, { area: null, records, elements: 2, skipped: {}, unmappedTags: {}, unparsedOpeningHours: {} }, { source: "test-places" });
  slugs.capDAil = (await resolveCity(database.db, "Cap-d'Ail"))!.slug;
  slugs.vaduz = (await resolveCity(database.db, "Vaduz"))!.slug;
}, 120_000);
afterAll(async () => {
  await database?.destroy();
});

async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return toPublicError(error as TRPCError);
}

describe("a city by name, alias or slug, with or without its country code", () => {
  it("resolves imported and demo cities alike", async () => {
    expect(slugs).toEqual({ capDAil: "cap-d-ail-fr", vaduz: "vaduz-li" });
    const expected: [string, string][] = [
      ["Cap-d'Ail, FR", "cap-d-ail-fr"],
      ["cap d'ail, fr", "cap-d-ail-fr"],
      ["CAP-D'AIL", "cap-d-ail-fr"],
      ["cap-d-ail-fr", "cap-d-ail-fr"],
      ["Vaduz, LI", "vaduz-li"],
      ["vaduz-li", "vaduz-li"],
      ["Mumbai, IN", "mumbai-in"],
      ["Bombay, IN", "mumbai-in"],
      ["mumbai-in", "mumbai-in"],
    ];
    for (const [input, slug] of expected) expect((await resolveCity(database.db, input))?.slug, input).toBe(slug);
  });

  it("search finds an imported city's listings under its country code", async () => {
    const found = await anonymousCaller(database.db).search.lookupBusinesses({ category: "hotel", city: "Cap-d'Ail, FR" });
    expect(found.city).toMatchObject({ name: "Cap-d'Ail", country: "FR" });
    expect(found.businesses.map((listing) => listing.name)).toEqual(["Hôtel Marquet"]);
    const keyword = await anonymousCaller(database.db).search.searchKeyword({ query: "café", city: "Vaduz, LI" });
    expect(keyword.businesses.map((listing) => listing.name)).toContain("Rathaus Café");
  });

  it("a country code the city is not in is a 404 naming the country it is in", async () => {
    const caller = anonymousCaller(database.db);
    for (const call of [
      caller.search.lookupBusinesses({ category: "restaurant", city: "Vaduz, AT" }),
      caller.search.searchKeyword({ query: "restaurant", city: "Vaduz, AT" }),
    ]) {
      const refused = await refusal(call);
      expect(refused.status).toBe(404);
      expect(refused.body.error).toMatch(/No city "Vaduz" in AT: the country code disagrees with the city\. "Vaduz" is "Vaduz, LI"/);
      expect(refused.body.suggestions).toEqual(["Vaduz, LI"]);
    }
  });
});

describe("admin.addBusiness reads its city as search does", () => {
  it("takes a name, an alias, a slug or a name with its country code, imported cities included", async () => {
    const admin = keyedCaller(database.db, adminKey);
    for (const [city, slug] of [
      ["Cap-d'Ail, FR", "cap-d-ail-fr"],
      ["Vaduz", "vaduz-li"],
      ["bombay", "mumbai-in"],
      ["mumbai-in", "mumbai-in"],
    ] as const) {
      const created = await admin.admin.addBusiness({ name: `Clinic of ${city}`, category: "dentist", city });
      expect(created.claims.find((claim) => claim.property === "city")?.value, city).toBe(slug);
    }
  });

  it("refuses a city that does not resolve with a 400 that says why, creating nothing", async () => {
    const before = await database.db.$count(businesses);
    const admin = keyedCaller(database.db, adminKey);
    const wrongCountry = await refusal(admin.admin.addBusiness({ name: "Border Dental", category: "dentist", city: "Vaduz, AT" }));
    expect(wrongCountry.status).toBe(400);
    expect(wrongCountry.body.error).toMatch(/^Invalid parameter city: No city "Vaduz" in AT: the country code disagrees/);
    const unknown = await refusal(admin.admin.addBusiness({ name: "Border Dental", category: "dentist", city: "Vaduzz" }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/Unknown city "Vaduzz"\. Closest: "Vaduz"/);
    expect(await database.db.$count(businesses)).toBe(before);
  });
});
