import { eq, inArray, Placeholder, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, cities, rowsOf } from "@directory/db";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { writeClaims } from "../claims/claim-writes";
import { RANKING_ORDER } from "../search/ranking";
import { businessesWithinRadius, nearestWalkQuery } from "./near";
import { nearGeometry, roundDistanceKm } from "./near-geometry";
import { haversineKm, servableWithDistances } from "./near-fixtures";
import { NEAR_COUNT_AHEAD, NEAR_COUNT_CAP, NEAR_RADIUS_MAX_KM, type NearPoint } from "./where-when-params";
import { ownerClaim } from "../claims/claim-fixtures";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
}, 120_000);
afterAll(async () => {
  await database?.destroy();
});

const owner = ownerClaim;

async function cityCentre(slug: string): Promise<NearPoint> {
  const [city] = await database.db.select({ lat: cities.lat, lng: cities.lng }).from(cities).where(eq(cities.slug, slug));
  return city!;
}

describe("within a radius (demo world)", () => {
  it.each([1.5, 3, 5])("holds exactly the servable businesses a haversine puts within %s km of Mumbai's centre", async (radiusKm) => {
    const point = await cityCentre("mumbai-in");
    const expected = (await servableWithDistances(database.db, point)).filter((row) => row.km <= radiusKm);
    const found = await businessesWithinRadius(database.db, { point, radiusKm, limit: 50 });
    expect(found.totalMatches).toBe(expected.length);
    expect(found.totalMatches).toBeGreaterThan(0);
    const byId = new Map(expected.map((row) => [row.id, row.km]));
    for (const business of found.businesses) {
      expect(byId.has(business.id)).toBe(true);
      expect(business.distanceKm).toBeCloseTo(byId.get(business.id)!, 6);
      expect(business.distanceKm).toBeCloseTo(haversineKm(point, business), 6);
    }
    // Nearest first, and the first page is the nearest ones.
    const distances = found.businesses.map((business) => business.distanceKm);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(found.businesses.map((business) => business.id)).toEqual(
      [...expected]
        .sort((a, b) => a.km - b.km)
        .slice(0, 50)
        .map((row) => row.id),
    );
  });

  it("pages with offset and filters by category", async () => {
    const point = await cityCentre("mumbai-in");
    const all = await businessesWithinRadius(database.db, { point, radiusKm: 6, limit: 50 });
    const second = await businessesWithinRadius(database.db, { point, radiusKm: 6, limit: 5, offset: 5 });
    expect(second.businesses.map((b) => b.id)).toEqual(all.businesses.slice(5, 10).map((b) => b.id));
    const category = all.businesses[0]!.categorySlug;
    const expected = (await servableWithDistances(database.db, point, category)).filter((row) => row.km <= 6);
    const inCategory = await businessesWithinRadius(database.db, { point, radiusKm: 6, limit: 50, category });
    expect(inCategory.totalMatches).toBe(expected.length);
    expect(inCategory.businesses.every((b) => b.categorySlug === category)).toBe(true);
  });

  it("counts up to a cap, and says when it stopped there", async () => {
    const point = await cityCentre("mumbai-in");
    const all = await businessesWithinRadius(database.db, { point, radiusKm: 6, limit: 1, countCap: NEAR_COUNT_CAP });
    expect(all.totalMatchesCapped).toBe(false);
    expect(all.totalMatches).toBeGreaterThan(3);
    expect(await businessesWithinRadius(database.db, { point, radiusKm: 6, limit: 1, countCap: 3 })).toMatchObject({
      totalMatches: 3,
      totalMatchesCapped: true,
    });
  });

  it("counts, unasked, no further than NEAR_COUNT_AHEAD past the page's start", async () => {
    const point = await cityCentre("mumbai-in");
    const matches = (await servableWithDistances(database.db, point)).filter((row) => row.km <= 20).length;
    // The demo world holds more than one page's count ahead within 20 km of Mumbai, fewer than two.
    expect(matches).toBeGreaterThan(NEAR_COUNT_AHEAD);
    expect(matches).toBeLessThan(NEAR_COUNT_AHEAD * 2);
    const first = await businessesWithinRadius(database.db, { point, radiusKm: 20, limit: 10 });
    expect(first).toMatchObject({ totalMatches: NEAR_COUNT_AHEAD, totalMatchesCapped: true });
    const deeper = await businessesWithinRadius(database.db, { point, radiusKm: 20, limit: 10, offset: NEAR_COUNT_AHEAD });
    expect(deeper).toMatchObject({ totalMatches: matches, totalMatchesCapped: false });
    expect(deeper.businesses).toHaveLength(Math.min(10, matches - NEAR_COUNT_AHEAD));
  });

  it("orders businesses at the same distance by the ranking order", async () => {
    const point = await cityCentre("mumbai-in");
    const page = (await businessesWithinRadius(database.db, { point, radiusKm: 6, limit: 4 })).businesses;
    // The four move onto one spot (through the claim write path): their distances tie exactly.
    const spot = { lat: page[0]!.lat, lng: page[0]!.lng };
    const moved = await database.db
      .select({ id: businesses.id, slug: businesses.slug })
      .from(businesses)
      .where(
        inArray(
          businesses.id,
          page.map((b) => b.id),
        ),
      );
    await database.db.transaction((tx) =>
      writeClaims(
        tx,
        moved.map((business) => ({ business, claims: [owner("coordinates", spot)] })),
      ),
    );
    const keys = await database.db
      .select({ id: businesses.id, planTier: businesses.planTier, visibilityScore: businesses.visibilityScore, name: businesses.name })
      .from(businesses)
      .where(
        inArray(
          businesses.id,
          page.map((b) => b.id),
        ),
      )
      .orderBy(...RANKING_ORDER);
    const found = (await businessesWithinRadius(database.db, { point: spot, radiusKm: 1, limit: 4 })).businesses;
    expect(found.map((b) => b.distanceKm)).toEqual([0, 0, 0, 0]);
    expect(found.map((b) => b.id)).toEqual(keys.map((key) => key.id));
    expect(found[0]).not.toHaveProperty("visibilityScore");
  });

  it("an inactive business is never near anything", async () => {
    const point = await cityCentre("mumbai-in");
    const [nearest] = (await businessesWithinRadius(database.db, { point, radiusKm: 6, limit: 1 })).businesses;
    await database.db.execute(sql`update businesses set status = 'inactive', inactive_reason = 'test' where id = ${nearest!.id}`);
    try {
      const after = await businessesWithinRadius(database.db, { point, radiusKm: 6, limit: 50 });
      expect(after.businesses.map((b) => b.id)).not.toContain(nearest!.id);
    } finally {
      await database.db.execute(sql`update businesses set status = 'active', inactive_reason = null where id = ${nearest!.id}`);
    }
  });
});

describe("nearest first", () => {
  it("returns the N nearest servable businesses in distance order, of a category too", async () => {
    // Between two cities' centres, on no business: the nearest are computed, not guessed.
    const point = { lat: 19.1, lng: 72.9 };
    const expected = (await servableWithDistances(database.db, point)).sort((a, b) => a.km - b.km);
    const { businesses: found } = await businessesWithinRadius(database.db, { point, limit: 20, radiusKm: NEAR_RADIUS_MAX_KM });
    expect(found.map((b) => b.id)).toEqual(expected.slice(0, 20).map((row) => row.id));
    expect(found.map((b) => b.distanceKm)).toEqual([...found.map((b) => b.distanceKm)].sort((a, b) => a - b));
    const category = found[0]!.categorySlug;
    const { businesses: inCategory } = await businessesWithinRadius(database.db, { point, limit: 5, radiusKm: NEAR_RADIUS_MAX_KM, category });
    const expectedInCategory = (await servableWithDistances(database.db, point, category)).sort((a, b) => a.km - b.km).slice(0, 5);
    expect(inCategory.map((b) => b.id)).toEqual(expectedInCategory.map((row) => row.id));
  });

  it("stops at the maximum radius: the open sea has no nearest business", async () => {
    expect((await businessesWithinRadius(database.db, { point: { lat: -40, lng: -140 }, limit: 5, radiusKm: NEAR_RADIUS_MAX_KM })).businesses).toEqual([]);
  });

  // cube + earthdistance and the index are PostgreSQL's; PGlite measures the same distance in plain SQL.
  it.skipIf(!process.env.TEST_DATABASE_URL)("walks the GiST index alone, nearest first, with or without category and city (migration 0027)", async () => {
    const geometry = await nearGeometry(database.db);
    const values: Record<string, string | number> = { lat: 19.1, lng: 72.9, radiusKm: 10, rows: 101, category: "dentist", cityId: 1 };
    for (const shape of [
      { category: false, city: false, country: false, open: false },
      { category: true, city: true, country: false, open: false },
    ]) {
      const query = new PgDialect().sqlToQuery(nearestWalkQuery(geometry, shape));
      // Placeholders take the values above; the query's own constants (the sphere's radius) stay.
      const bound = query.params.map((param) => {
        const value = param instanceof Placeholder ? values[param.name] : param;
        return typeof value === "number" ? String(value) : `'${String(value)}'`;
      });
      const plan = await database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`set local enable_bitmapscan = off`);
        await tx.execute(sql.raw(`prepare near_walk_plan as ${query.sql}`));
        const rows = rowsOf<{ "QUERY PLAN": string }>(await tx.execute(sql.raw(`explain execute near_walk_plan(${bound.join(", ")})`)));
        await tx.execute(sql`deallocate near_walk_plan`);
        return rows.map((row) => row["QUERY PLAN"]).join("\n");
      });
      expect(plan).toContain("Index Only Scan using businesses_earth_idx");
      expect(plan).not.toMatch(/\bSort\b/);
    }
  });

  it("rounds distances to the metre for listings", () => {
    expect(roundDistanceKm(1.23456)).toBe(1.235);
  });
});
