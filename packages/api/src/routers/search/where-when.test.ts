import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, type OpeningHoursSpec } from "@directory/db";
import { writeClaims } from "../../services/claims/claim-writes";
import { openingState } from "../../services/where-when/opening-hours-time";
import { atLocal, haversineKm } from "../../services/where-when/near-fixtures";
import { createApiKey } from "../../services/access/api-keys";
import { anonymousCaller, busiestCategoryCity, keyedCaller, SERVABLE } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { ownerClaim } from "../../services/claims/claim-fixtures";

/*
 * openNow/openAt, near/radiusKm and sort=distance through the search procedures (what every door
 * calls), on the demo world, against oracles computed here: each business's state from its stored
 * hours and its city's zone (the JS twin of the SQL filter), and distances by a haversine of its own.
 */

let database: TestDatabase;
let caller: ReturnType<typeof anonymousCaller>;
/** The busiest category+city pair, so an open filter leaves some out and pages are real. */
let pair: { category: string; cityId: number; city: string; timeZone: string; lat: number; lng: number };

beforeAll(async () => {
  database = await createTestDatabase();
  caller = anonymousCaller(database.db);
  pair = await busiestCategoryCity(database.db);
}, 120_000);
afterAll(async () => {
  await database?.destroy();
});

const owner = ownerClaim;

/** The pair's servable businesses with their hours, as stored. */
async function pairRows() {
  return database.db
    .select({ id: businesses.id, hours: businesses.openingHours })
    .from(businesses)
    .where(and(SERVABLE, eq(businesses.categorySlug, pair.category), eq(businesses.cityId, pair.cityId)));
}

/** Every page of a search, following nextCursor. */
async function walk<T extends { businesses: { id: string }[]; nextCursor: string | null }>(
  page: (cursor?: string) => Promise<T>,
): Promise<{ ids: string[]; pages: T[] }> {
  const pages: T[] = [];
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    pages.push(next);
    cursor = next.nextCursor ?? undefined;
  } while (cursor && pages.length < 100);
  return { ids: pages.flatMap((p) => p.businesses.map((b) => b.id)), pages };
}

describe("openAt and openNow", () => {
  // A Tuesday morning and a Sunday evening, as local time in the pair's city.
  it.each(["2026-05-12T09:30:00", "2026-05-17T11:00:00"])(
    "keeps exactly the businesses open at %s local time, over every page, and counts the unknown hours left out",
    async (local) => {
      const openAt = atLocal(local, pair.timeZone);
      const at = new Date(openAt);
      const rows = await pairRows();
      const open = rows.filter((row) => openingState(row.hours, pair.timeZone, at).openNow === true).map((row) => row.id);
      const unknown = rows.filter((row) => row.hours.length === 0).length;
      // The demo world's hours leave most of a pair closed on Sunday: the filter must say so too.
      expect(open.length).toBeLessThan(rows.length - unknown);
      if (new Date(openAt).getUTCDay() !== 0) expect(open.length).toBeGreaterThan(0);

      const { ids, pages } = await walk((cursor) => caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 4, openAt, cursor }));
      expect([...ids].sort()).toEqual([...open].sort());
      for (const page of pages) {
        expect(page.totalMatches).toBe(open.length);
        expect(page.excludedUnknownHours).toBe(unknown);
        for (const listing of page.businesses) {
          expect(listing.openNow).toBe(true);
          expect(listing.openingHours).toEqual(expect.any(String));
          if (listing.nextChange) {
            expect(listing.nextChange.change).toBe("closes");
            expect(Date.parse(listing.nextChange.utc)).toBeGreaterThan(at.getTime());
            expect(Date.parse(listing.nextChange.local)).toBe(Date.parse(listing.nextChange.utc));
          }
        }
      }
      // The same order as the plain search, with the closed ones left out.
      const plain = await walk((cursor) => caller.search.lookupBusinesses({ category: pair.category, city: pair.city, limit: 50, cursor }));
      expect(ids).toEqual(plain.ids.filter((id) => open.includes(id)));
      const lookup = await caller.search.lookupBusinesses({ category: pair.category, city: pair.city, limit: 50, openAt });
      expect(lookup.businesses.map((b) => b.id)).toEqual(ids.slice(0, 50));
    },
  );

  it("a bar open Tu-Sa 18:00-02:00 is open early Wednesday and early Sunday, not early Tuesday, and says when it closes", async () => {
    const [barRow] = await pairRows();
    const [bar] = await database.db.select().from(businesses).where(eq(businesses.id, barRow!.id));
    const hours: OpeningHoursSpec[] = [{ days: ["Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"], opens: "18:00", closes: "02:00" }];
    await database.db.transaction((tx) => writeClaims(tx, [{ business: bar!, claims: [owner("openingHours", hours)] }]));
    const at = (local: string) => atLocal(local, pair.timeZone);
    const search = (local: string) => caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 10, openAt: at(local) });
    const found = async (local: string) => {
      const { ids } = await walk((cursor) => caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 10, openAt: at(local), cursor }));
      return ids.includes(bar!.id);
    };
    expect(await found("2026-05-13T01:00:00")).toBe(true); // Wednesday 01:00: Tuesday's night
    expect(await found("2026-05-17T01:30:00")).toBe(true); // Sunday 01:30: Saturday's night
    expect(await found("2026-05-12T01:00:00")).toBe(false); // Tuesday 01:00: Monday is closed
    expect(await found("2026-05-13T02:00:00")).toBe(false); // the closing minute itself
    const first = (await search("2026-05-13T01:00:00")).businesses;
    const listing = (first.find((b) => b.id === bar!.id) ??
      (
        await walk((cursor) => caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 10, openAt: at("2026-05-13T01:00:00"), cursor }))
      ).pages
        .flatMap((p) => p.businesses)
        .find((b) => b.id === bar!.id))!;
    expect(listing.openingHours).toBe("Tu-Sa 18:00-02:00");
    expect(listing.nextChange).toEqual({ change: "closes", local: at("2026-05-13T02:00:00"), utc: new Date(at("2026-05-13T02:00:00")).toISOString() });
  });

  it("a temporarily closed business stays listed, marked, and open filters leave it out until it reopens", async () => {
    const openAt = atLocal("2026-05-12T10:30:00", pair.timeZone);
    const before = await walk((cursor) => caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 10, openAt, cursor }));
    const closedId = before.ids[0]!;
    const [closed] = await database.db.select().from(businesses).where(eq(businesses.id, closedId));
    const status = (value: unknown) => database.db.transaction((tx) => writeClaims(tx, [{ business: closed!, claims: [owner("operatingStatus", value)] }]));
    await status({ status: "temporarily_closed", reopensOn: "2026-06-01" });
    try {
      const during = await walk((cursor) => caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 10, openAt, cursor }));
      expect(during.ids).toEqual(before.ids.filter((id) => id !== closedId));
      expect(during.pages[0]!.totalMatches).toBe(before.pages[0]!.totalMatches - 1);
      expect(during.pages[0]!.excludedUnknownHours).toBe(before.pages[0]!.excludedUnknownHours);
      const plain = await walk((cursor) => caller.search.lookupBusinesses({ category: pair.category, city: pair.city, limit: 50, cursor }));
      const listing = plain.pages.flatMap((page) => page.businesses).find((b) => b.id === closedId);
      expect(listing?.operatingStatus).toEqual({ status: "temporarily_closed", reopensOn: "2026-06-01" });
      const keyword = await caller.search.searchKeyword({ query: closed!.name, city: pair.city, limit: 10, openAt });
      expect(keyword.businesses.map((b) => b.id)).not.toContain(closedId);
    } finally {
      await status({ status: "open" });
    }
    const after = await walk((cursor) => caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 10, openAt, cursor }));
    expect(after.ids).toEqual(before.ids);
    const [row] = await database.db.select({ closure: businesses.temporaryClosure }).from(businesses).where(eq(businesses.id, closedId));
    expect(row!.closure).toBeNull();
  });

  it("openNow uses the server clock; without a time named, listings carry their hours but no openNow", async () => {
    const now = await caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 10, openNow: true });
    const rows = await pairRows();
    const openNow = rows.filter((row) => openingState(row.hours, pair.timeZone, new Date()).openNow === true).length;
    // A minute can pass between the two reads: allow the state of one business to change.
    expect(Math.abs(now.totalMatches - openNow)).toBeLessThanOrEqual(1);
    const plain = await caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 10 });
    expect(plain.excludedUnknownHours).toBeUndefined();
    for (const listing of plain.businesses) {
      expect(listing).not.toHaveProperty("openNow");
      expect(listing).not.toHaveProperty("distanceKm");
    }
  });

  it("keyword search and the listicle take the same filter: every listing open, a subset of the plain answer", async () => {
    const openAt = atLocal("2026-05-12T10:00:00", pair.timeZone);
    const keyword = await caller.search.searchKeyword({ query: pair.category, city: pair.city, limit: 10, openAt });
    expect(keyword.businesses.length).toBeGreaterThan(0);
    expect(keyword.businesses.every((b) => b.openNow === true)).toBe(true);
    expect(keyword.excludedUnknownHours).toEqual(expect.any(Number));
    const listicle = await caller.search.getListicle({ category: pair.category, city: pair.city, limit: 10, openAt });
    const rows = await pairRows();
    const open = new Set(rows.filter((row) => openingState(row.hours, pair.timeZone, new Date(openAt)).openNow).map((row) => row.id));
    expect(listicle.totalMatches).toBe(open.size);
    expect(listicle.businesses.every((b) => open.has(b.id))).toBe(true);
  });
});

describe("near a point", () => {
  /** Servable businesses with coordinates and their haversine distance from the point. */
  async function withDistances(point: { lat: number; lng: number }) {
    const rows = await database.db
      .select({ id: businesses.id, lat: businesses.lat, lng: businesses.lng, category: businesses.categorySlug })
      .from(businesses)
      .where(and(SERVABLE, isNotNull(businesses.lat)));
    return rows.map((row) => ({ id: row.id, category: row.category, km: haversineKm(point, { lat: row.lat!, lng: row.lng! }) }));
  }

  it("holds exactly the businesses a haversine puts in the circle, nearest first with sort=distance, with their distances", async () => {
    const point = { lat: pair.lat, lng: pair.lng };
    const expected = (await withDistances(point)).filter((row) => row.km <= 2);
    expect(expected.length).toBeGreaterThan(3);
    const { ids, pages } = await walk((cursor) => caller.search.lookupBusinesses({ near: point, radiusKm: 2, sort: "distance", limit: 7, cursor }));
    expect(ids.sort()).toEqual(expected.map((row) => row.id).sort());
    const listings = pages.flatMap((p) => p.businesses);
    const km = new Map(expected.map((row) => [row.id, row.km]));
    for (const listing of listings) expect(listing.distanceKm).toBeCloseTo(km.get(listing.id)!, 2);
    const distances = listings.map((listing) => listing.distanceKm!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(pages[0]!.category).toBeNull();
    expect(pages[0]!.city).toBeNull();
    expect(pages[0]!.rankingDisclosure).toMatch(/nearest first/);
  });

  it("a category near a point, in the ranking order or nearest first, with an open filter", async () => {
    const point = { lat: pair.lat, lng: pair.lng };
    const inCategory = (await withDistances(point)).filter((row) => row.km <= 5 && row.category === pair.category);
    const ranked = await walk((cursor) => caller.search.searchCategory({ category: pair.category, near: point, limit: 10, cursor }));
    expect(ranked.ids.sort()).toEqual(inCategory.map((row) => row.id).sort());
    const nearest = await caller.search.searchCategory({ category: pair.category, near: point, sort: "distance", limit: 3 });
    const byKm = [...inCategory].sort((a, b) => a.km - b.km);
    expect(nearest.businesses[0]!.id).toBe(byKm[0]!.id);
    const openAt = atLocal("2026-05-12T10:00:00", pair.timeZone);
    const open = await caller.search.searchCategory({ category: pair.category, near: point, openAt, limit: 10 });
    expect(open.businesses.every((b) => b.openNow === true && b.distanceKm !== undefined)).toBe(true);
    expect(open.totalMatches + (open.excludedUnknownHours ?? 0)).toBeLessThanOrEqual(inCategory.length);
  });

  it("the listicle and keyword search within a circle, nearest first", async () => {
    const point = { lat: pair.lat, lng: pair.lng };
    const listicle = await caller.search.getListicle({ category: pair.category, city: pair.city, near: point, radiusKm: 3, sort: "distance", limit: 10 });
    const distances = listicle.businesses.map((b) => b.distanceKm!);
    expect(distances.every((km) => km <= 3)).toBe(true);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(listicle.orderedBy).toBe("distance, then directoryCompletenessScore, then name");
    const keyword = await caller.search.searchKeyword({ query: pair.category, near: point, radiusKm: 3, sort: "distance", limit: 10 });
    expect(keyword.businesses.every((b) => b.distanceKm! <= 3)).toBe(true);
  });
});

describe("refusals, naming the parameter", () => {
  it.each([
    [{ category: "dentist", city: "Mumbai", sort: "distance" }, "sort"],
    [{ category: "dentist", city: "Mumbai", radiusKm: 2 }, "radiusKm"],
    [{ near: { lat: 1, lng: 2 }, radiusKm: 51 }, "radiusKm"],
    [{ near: { lat: 1, lng: 2 }, radiusKm: -1 }, "radiusKm"],
    [{ near: "91,0" }, "near"],
    [{ near: "19.07;72.87" }, "near"],
    [{ category: "dentist", city: "Mumbai", openAt: "2026-05-12T09:30:00" }, "openAt"],
    [{ category: "dentist", city: "Mumbai", openNow: "yes" }, "openNow"],
    [{ city: "Mumbai" }, "category"],
    [{ category: "dentist" }, "city"],
  ])("lookupBusinesses(%j): 400 naming %s", async (input, parameter) => {
    const error = await caller.search.lookupBusinesses(input as never).then(
      () => null,
      (caught: unknown) => caught as { code: string; message: string },
    );
    expect(error?.code).toBe("BAD_REQUEST");
    expect(error?.message).toContain(parameter);
  });
});

describe("instants outside the years 0001 to 9999 (openAt, asOf)", () => {
  const refusal = (call: Promise<unknown>) =>
    call.then(
      () => null,
      (caught: unknown) => caught as { code: string; message: string },
    );

  it("are a 400 naming the parameter on keyword search, the listicle and lookup, never a 500", async () => {
    for (const openAt of ["0000-01-01T00:00:00Z", "0001-01-01T00:00:00+01:00", "+010000-01-01T00:00:00Z", "9999-12-31T23:30:00-01:00"]) {
      for (const call of [
        caller.search.searchKeyword({ query: "dentist", openAt }),
        caller.search.getListicle({ category: "dentist", city: "Mumbai", openAt }),
        caller.search.lookupBusinesses({ category: "dentist", city: "Mumbai", openAt }),
      ]) {
        const error = await refusal(call);
        expect(error?.code, openAt).toBe("BAD_REQUEST");
        expect(error?.message, openAt).toContain("openAt");
      }
    }
    // The first and last years themselves are served.
    const first = await caller.search.searchKeyword({ query: "dentist", openAt: "0001-01-01T00:00:00Z" });
    const last = await caller.search.getListicle({ category: "dentist", city: "Mumbai", openAt: "9999-12-31T23:59:59Z" });
    expect(first.businesses.every((listing) => listing.openNow === true)).toBe(true);
    expect(last.businesses.every((listing) => listing.openNow === true)).toBe(true);
  });

  it("asOf year 0 is a 400 naming asOf, for a keyed caller too", async () => {
    const [business] = await database.db.select({ slug: businesses.slug }).from(businesses).where(SERVABLE).limit(1);
    const keyed = keyedCaller(database.db, (await createApiKey(database.db, { kind: "developer" })).key);
    const error = await refusal(keyed.entities.getEntityProfile({ slug: business!.slug, asOf: "0000-06-01T00:00:00Z" }));
    expect(error?.code).toBe("BAD_REQUEST");
    expect(error?.message).toContain("asOf");
  });
});
