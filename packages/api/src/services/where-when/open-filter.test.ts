import { and, eq, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, cities, rowsOf, type OpeningHoursSpec } from "@directory/db";
import { backfillCityTimeZones, timeZoneAt } from "@directory/db/time-zones";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { writeClaims } from "../claims/claim-writes";
import { servableCondition } from "../entities/servable";
import { parseOpeningHours } from "../registry/osm/opening-hours";
import { wallClockOf } from "./local-time";
import { openingState } from "./opening-hours-time";
import { RANKING_ORDER } from "../search/ranking";
import { openAnyCityCondition, openCondition, openPageAndCounts } from "./open-filter";
import { weeklyIntervals } from "./week-hours";
import { ownerClaim } from "../claims/claim-fixtures";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
}, 120_000);
afterAll(async () => {
  await database?.destroy();
});

/** opening_hours strings of the Liechtenstein 2015 extract (OSM, ODbL), as the OSM reader parses them. */
const REAL_OSM_HOURS = [
  "Tu-Su 11:00-24:00",
  "Tu-Su 10:00-17:00; We 10:00-20:00",
  "Mo-Fr 08:30-20:30; Sa 09:00-19:00; Su 9:00-1:00",
  "Mo-Fr 08:00-12:00, 13:30-18:30; Sa 08:00-16:00",
  "Mo,Th,Fr 08:30-22:00; Sa 17:00-24:00; Su 10:00-22:00",
  "Mo 09:00-17:00; Tu-Fr 09:00-17:00, 18:00-22:00; Sa 18:00-22:00",
  "Fr 14:00-20:00; Sa, Su 14:00-18:00",
  "24/7",
];
const EDGE_HOURS: OpeningHoursSpec[][] = [
  [{ days: ["Sunday"], opens: "22:00", closes: "03:00" }],
  [{ days: ["Friday"], opens: "18:00", closes: "00:00" }],
  [{ days: ["Monday"], opens: "10:00", closes: "10:00" }],
  [{ days: ["Sunday"], opens: "24:00", closes: "02:00" }],
  [
    { days: ["Monday", "Tuesday"], opens: "09:00", closes: "12:00" },
    { days: ["Tuesday"], opens: "11:00", closes: "14:00" },
  ],
];

/** The JS reading of the hours as PostgreSQL prints open_week (int4multirange): "{[540,1080),[1980,2520)}". */
const jsWeek = (hours: readonly OpeningHoursSpec[]) => {
  const intervals = weeklyIntervals(hours);
  return intervals ? `{${intervals.map(([start, end]) => `[${start},${end})`).join(",")}}` : null;
};

const owner = ownerClaim;

async function matchingRows(where: SQL) {
  return rowsOf<{ id: string; opening_hours: OpeningHoursSpec[]; time_zone: string }>(
    await database.db.execute(
      sql`select ${businesses.id} as id, ${businesses.openingHours} as opening_hours, c.time_zone from ${businesses} join ${cities} c on c.id = ${businesses.cityId} where ${where}`,
    ),
  );
}

async function ids(where: SQL): Promise<string[]> {
  return (await database.db.select({ id: businesses.id }).from(businesses).where(where)).map((row) => row.id).sort();
}

describe("cities' time zones", () => {
  it("every city has a zone that Intl and PostgreSQL both know", async () => {
    const zones = rowsOf<{ time_zone: string | null; known: boolean }>(
      await database.db.execute(sql`select distinct time_zone, exists (select 1 from pg_timezone_names n where n.name = time_zone) as known from cities`),
    );
    expect(zones.length).toBeGreaterThan(50);
    for (const zone of zones) {
      expect(zone.time_zone).not.toBeNull();
      expect(zone.known, zone.time_zone!).toBe(true);
      expect(() => wallClockOf(0, zone.time_zone!), zone.time_zone!).not.toThrow();
    }
    const [mumbai] = await database.db.select({ timeZone: cities.timeZone }).from(cities).where(eq(cities.slug, "mumbai-in"));
    expect(mumbai?.timeZone).toBe("Asia/Kolkata");
  });

  it("a city without a zone gets its coordinates' zone from the backfill migrate() runs", async () => {
    const [city] = await database.db.select().from(cities).where(eq(cities.slug, "mumbai-in"));
    await database.db.update(cities).set({ timeZone: null }).where(eq(cities.id, city!.id));
    expect(await backfillCityTimeZones(database.db)).toBe(1);
    const [after] = await database.db.select({ timeZone: cities.timeZone }).from(cities).where(eq(cities.id, city!.id));
    expect(after?.timeZone).toBe(timeZoneAt(city!.lat, city!.lng, city!.countryCode));
    expect(await backfillCityTimeZones(database.db)).toBe(0);
  });
});

describe("open_week: the hours as local minutes of the week, in SQL", () => {
  it("agrees with the JS reading for every demo timetable, real OSM hours and the edge cases", async () => {
    const stored = rowsOf<{ hours: OpeningHoursSpec[]; week: string | null }>(
      await database.db.execute(sql`select distinct on (opening_hours) opening_hours as hours, open_week::text as week from businesses`),
    );
    expect(stored.length).toBeGreaterThan(10);
    for (const row of stored) expect(row.week, JSON.stringify(row.hours)).toBe(jsWeek(row.hours));
    const more = [...REAL_OSM_HOURS.map((text) => parseOpeningHours(text)!), ...EDGE_HOURS, []];
    for (const hours of more) {
      const [row] = rowsOf<{ week: string | null }>(await database.db.execute(sql`select opening_hours_week(${JSON.stringify(hours)}::jsonb)::text as week`));
      expect(row?.week, JSON.stringify(hours)).toBe(jsWeek(hours));
    }
  });

  it("follows a change of hours through the claim write path, in the same statement", async () => {
    const [business] = await database.db.select({ id: businesses.id, slug: businesses.slug }).from(businesses).limit(1);
    const bar = parseOpeningHours("Tu-Sa 18:00-02:00")!;
    await database.db.transaction((tx) => writeClaims(tx, [{ business: business!, claims: [owner("openingHours", bar)] }]));
    const [row] = rowsOf<{ week: string }>(await database.db.execute(sql`select open_week::text as week from businesses where id = ${business!.id}`));
    expect(row?.week).toBe("{[2520,3000),[3960,4440),[5400,5880),[6840,7320),[8280,8760)}");
  });
});

describe("the open filter", () => {
  // Wednesday 09:30 and Sunday 11:00 in Mumbai (IST, +05:30), and a Saturday night in Berlin.
  const INSTANTS = ["2026-05-13T04:00:00Z", "2026-05-17T05:30:00Z", "2026-05-16T23:30:00Z"].map((iso) => new Date(iso));

  it("category+city: the SQL filter keeps exactly the businesses the JS reading says are open", async () => {
    const [pair] = rowsOf<{ category_slug: string; city_id: number; time_zone: string }>(
      await database.db.execute(sql`select b.category_slug, b.city_id, c.time_zone from businesses b join cities c on c.id = b.city_id
        where c.slug = 'mumbai-in' group by 1, 2, 3 order by count(*) desc, 1 limit 1`),
    );
    const matches = and(eq(businesses.categorySlug, pair!.category_slug), eq(businesses.cityId, pair!.city_id), servableCondition())!;
    const rows = await matchingRows(matches);
    expect(rows.length).toBeGreaterThan(3);
    for (const instant of INSTANTS) {
      const expected = rows.filter((row) => openingState(row.opening_hours, pair!.time_zone, instant).openNow).map((row) => row.id);
      expect(await ids(and(matches, openCondition(instant, { timeZone: pair!.time_zone }))!)).toEqual(expected.sort());
      expect(await ids(and(matches, openCondition(instant, null))!)).toEqual(expected.sort());
    }
  });

  it("across every city, each business in its own city's zone", async () => {
    const rows = await matchingRows(servableCondition());
    for (const instant of INSTANTS) {
      const expected = rows.filter((row) => openingState(row.opening_hours, row.time_zone, instant).openNow).map((row) => row.id);
      const found = await ids(and(servableCondition(), openAnyCityCondition(instant))!);
      expect(found).toEqual(expected.sort());
      // Some open, some closed: the instant tests something.
      expect(found.length).toBeGreaterThan(0);
      expect(found.length).toBeLessThan(rows.length);
    }
  });

  it("counts the open matches and those left out for unknown hours", async () => {
    const [city] = await database.db.select().from(cities).where(eq(cities.slug, "mumbai-in"));
    const inCity = and(eq(businesses.cityId, city!.id), servableCondition())!;
    const [unknown] = await database.db.select({ id: businesses.id, slug: businesses.slug }).from(businesses).where(inCity).limit(1);
    await database.db.transaction((tx) => writeClaims(tx, [{ business: unknown!, claims: [owner("openingHours", [])] }]));
    const rows = await matchingRows(inCity);
    const instant = INSTANTS[0]!;
    const page = await openPageAndCounts(database.db, { matches: inCity, at: instant, city, orderBy: RANKING_ORDER, limit: 1 });
    const counts = { open: page.open, excludedUnknownHours: page.excludedUnknownHours };
    expect(counts).toEqual({
      open: rows.filter((row) => openingState(row.opening_hours, city!.timeZone!, instant).openNow).length,
      excludedUnknownHours: rows.filter((row) => row.opening_hours.length === 0).length,
    });
    expect(counts.excludedUnknownHours).toBeGreaterThanOrEqual(1);
    expect(await ids(and(inCity, openCondition(instant, city))!)).not.toContain(unknown!.id);
  });

  it("a page and both counts in one pass: the open matches' first ids in the search's order", async () => {
    const [city] = await database.db.select().from(cities).where(eq(cities.slug, "mumbai-in"));
    const inCity = and(eq(businesses.cityId, city!.id), servableCondition())!;
    const rows = await matchingRows(inCity);
    for (const instant of INSTANTS) {
      const expected = await database.db
        .select({ id: businesses.id })
        .from(businesses)
        .where(and(inCity, openCondition(instant, city)))
        .orderBy(...RANKING_ORDER)
        .limit(4);
      const page = await openPageAndCounts(database.db, { matches: inCity, at: instant, city, orderBy: RANKING_ORDER, limit: 4 });
      expect(page.ids).toEqual(expected.map((row) => row.id));
      expect({ open: page.open, excludedUnknownHours: page.excludedUnknownHours }).toEqual({
        open: rows.filter((row) => openingState(row.opening_hours, city!.timeZone!, instant).openNow).length,
        excludedUnknownHours: rows.filter((row) => row.opening_hours.length === 0).length,
      });
    }
  });
});
