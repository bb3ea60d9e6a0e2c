import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, cities, type OpeningHoursSpec } from "@directory/db";
import { loadGazetteer } from "@directory/db/gazetteer";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { servableCondition } from "../entities/servable";
import { importRegistry } from "../registry/import-registry";
import { scanOsmExtract } from "../registry/osm/scan-osm";
import { OSM_EXTRACTS } from "../registry/osm/test-extracts";
import { businessesWithinRadius } from "./near";
import { haversineKm, servableWithDistances } from "./near-fixtures";
import { openingState } from "./opening-hours-time";
import { openCondition } from "./open-filter";
import { NEAR_COUNT_CAP } from "./where-when-params";
import { compactOpeningHours } from "./week-hours";

/*
 * The real OpenStreetMap extract of Liechtenstein (July 2015, ODbL) imported through the claim
 * write path: its coordinates for the radius and nearest-first searches, its opening_hours
 * strings (parsed by the OSM reader) for open-at in Europe/Vaduz.
 */

let database: TestDatabase;
/** The imported businesses: ids, hours, and their city's zone. */
let imported: { id: string; name: string; openingHours: OpeningHoursSpec[]; timeZone: string | null }[];

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  const scan = await scanOsmExtract(OSM_EXTRACTS.liechtenstein2015, { gazetteer: loadGazetteer() });
  await importRegistry(database.db, scan, { source: "openstreetmap" });
  imported = await database.db
    .select({ id: businesses.id, name: businesses.name, openingHours: businesses.openingHours, timeZone: cities.timeZone })
    .from(businesses)
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(eq(cities.countryCode, "LI"));
}, 180_000);
afterAll(async () => {
  await database?.destroy();
});

describe("near a point on the real Liechtenstein extract", () => {
  it("the cities the import added carry Liechtenstein's zone", () => {
    expect(imported.length).toBeGreaterThan(100);
    // Europe/Vaduz is a link to Europe/Zurich in the tz database; towns on the border read either.
    const zones = new Set(imported.map((business) => business.timeZone));
    expect([...zones].every((zone) => zone === "Europe/Vaduz" || zone === "Europe/Zurich")).toBe(true);
    expect(zones.has("Europe/Vaduz")).toBe(true);
  });

  it.each([0.5, 2, 5])("a %s km radius around Vaduz's town hall holds exactly what a haversine says", async (radiusKm) => {
    const point = { lat: 47.1393, lng: 9.5215 };
    const expected = (await servableWithDistances(database.db, point)).filter((row) => row.km <= radiusKm).sort((a, b) => a.km - b.km);
    // Counted to the end (countCap): a page's own count stops 100 past its start.
    const found = await businessesWithinRadius(database.db, { point, radiusKm, limit: 50, countCap: NEAR_COUNT_CAP });
    expect(found.totalMatches).toBe(expected.length);
    expect(found.totalMatches).toBeGreaterThan(0);
    expect(found.businesses.map((b) => b.id)).toEqual(expected.slice(0, 50).map((row) => row.id));
    for (const business of found.businesses) expect(business.distanceKm).toBeCloseTo(haversineKm(point, business), 6);
  });

  it("the nearest 10 to Schaan's station, nearest first", async () => {
    const point = { lat: 47.1663, lng: 9.5097 };
    const expected = (await servableWithDistances(database.db, point)).sort((a, b) => a.km - b.km).slice(0, 10);
    const { businesses: found } = await businessesWithinRadius(database.db, { point, limit: 10, radiusKm: 50 });
    expect(found.map((b) => b.id)).toEqual(expected.map((row) => row.id));
    expect(found[0]!.distanceKm).toBeLessThan(found[9]!.distanceKm);
  });
});

describe("open at an instant on the real Liechtenstein hours", () => {
  // Wednesday 13 May 2026 10:00, Sunday 17 May 15:00, and Monday 18 May 00:30 in Vaduz (CEST, +02:00).
  const INSTANTS = ["2026-05-13T08:00:00Z", "2026-05-17T13:00:00Z", "2026-05-17T22:30:00Z"].map((iso) => new Date(iso));

  it("the SQL filter keeps exactly the businesses the JS reading says are open", async () => {
    const withHours = imported.filter((business) => business.openingHours.length > 0);
    expect(withHours.length).toBeGreaterThanOrEqual(10);
    const ids = imported.map((business) => business.id);
    const matches = and(inArray(businesses.id, ids), servableCondition(), isNotNull(businesses.lat))!;
    for (const instant of INSTANTS) {
      const expected = withHours.filter((business) => openingState(business.openingHours, "Europe/Vaduz", instant).openNow).map((business) => business.id);
      const found = await database.db
        .select({ id: businesses.id })
        .from(businesses)
        .where(and(matches, openCondition(instant, { timeZone: "Europe/Vaduz" })));
      expect(found.map((row) => row.id).sort()).toEqual(expected.sort());
    }
  });

  it("a Sunday night past midnight: open until 01:00 Monday, by the day it opened", () => {
    const late = imported.find((business) => compactOpeningHours(business.openingHours)?.includes("Su 09:00-01:00"));
    expect(late, "the extract's 'Su 9:00-1:00' business").toBeDefined();
    expect(openingState(late!.openingHours, "Europe/Vaduz", INSTANTS[2]!)).toMatchObject({
      openNow: true,
      nextChange: { utc: "2026-05-17T23:00:00.000Z", local: "2026-05-18T01:00:00+02:00", change: "closes" },
    });
  });

  it("businesses without hours are neither open nor closed, and the filter leaves them out", async () => {
    const unknown = imported.filter((business) => business.openingHours.length === 0);
    expect(unknown.length).toBeGreaterThan(0);
    expect(openingState(unknown[0]!.openingHours, "Europe/Vaduz", INSTANTS[0]!).hoursKnown).toBe(false);
    const [row] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(businesses)
      .where(
        and(
          inArray(
            businesses.id,
            unknown.map((business) => business.id),
          ),
          isNotNull(businesses.openWeek),
        ),
      );
    expect(row?.n).toBe(0);
  });
});
