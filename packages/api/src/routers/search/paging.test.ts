import { and, count, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, cities } from "@directory/db";
import { anonymousCaller, SERVABLE } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";

let database: TestDatabase;
let caller: ReturnType<typeof anonymousCaller>;
/** The busiest category+city pair of the test world: several pages of 10. */
let pair: { category: string; city: string; cityId: number; matches: number };

/** Every page of a listing, following nextCursor until it is null; the calls made and what they said. */
async function walk<T extends { businesses?: { slug: string }[]; cities?: { slug: string }[]; totalMatches: number; nextCursor: string | null }>(
  page: (cursor: string | undefined) => Promise<T>,
  maxCalls = 50,
) {
  const slugs: string[] = [];
  const totals = new Set<number>();
  let cursor: string | undefined;
  let calls = 0;
  do {
    const answer = await page(cursor);
    calls++;
    slugs.push(...(answer.businesses ?? answer.cities ?? []).map((item) => item.slug));
    totals.add(answer.totalMatches);
    cursor = answer.nextCursor ?? undefined;
  } while (cursor && calls < maxCalls);
  return { slugs, calls, totals: [...totals] };
}

async function servableCount(where: ReturnType<typeof and>) {
  const [row] = await database.db.select({ matches: count() }).from(businesses).where(and(SERVABLE, where));
  return Number(row!.matches);
}

beforeAll(async () => {
  database = await createTestDatabase();
  caller = anonymousCaller(database.db);
  const [busiest] = await database.db
    .select({ category: businesses.categorySlug, cityId: businesses.cityId, city: cities.name, matches: count() })
    .from(businesses)
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(SERVABLE)
    .groupBy(businesses.categorySlug, businesses.cityId, cities.name)
    .orderBy(desc(count()))
    .limit(1);
  pair = { ...busiest!, matches: Number(busiest!.matches) };
  expect(pair.matches).toBeGreaterThan(10);
});

afterAll(async () => {
  await database?.destroy();
});

describe("paging on every listing procedure", () => {
  it("category search in a city: every match once, in ceil(matches / 10) calls, one total, no trailing empty page", async () => {
    for (const sort of ["ranking", "rating"] as const) {
      const pages = await walk((cursor) => caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 10, sort, cursor }));
      expect(pages.totals).toEqual([pair.matches]);
      expect(pages.calls).toBe(Math.ceil(pair.matches / 10));
      expect(new Set(pages.slugs).size).toBe(pair.matches);
    }
  });

  it("category search across every city and the category leaders page the national ranking", async () => {
    const matches = await servableCount(eq(businesses.categorySlug, pair.category));
    const first = await caller.search.searchCategory({ category: pair.category, limit: 10 });
    expect(first.totalMatches).toBe(matches);
    const second = await caller.search.searchCategory({ category: pair.category, limit: 10, cursor: first.nextCursor! });
    expect(second.businesses.map((b) => b.slug)).not.toContain(first.businesses[0]!.slug);
    const leaders = await walk((cursor) => caller.search.categoryLeaders({ category: pair.category, limit: 10, cursor }), 3);
    expect(leaders.slugs.slice(0, 20)).toEqual([...first.businesses, ...second.businesses].map((b) => b.slug));
  });

  it("the listicle pages in both of its orders", async () => {
    for (const sort of ["completeness", "rating"] as const) {
      const pages = await walk((cursor) => caller.search.getListicle({ category: pair.category, city: pair.city, limit: 10, sort, cursor }));
      expect(pages.totals).toEqual([pair.matches]);
      expect(new Set(pages.slugs).size).toBe(pair.matches);
      expect(pages.calls).toBe(Math.ceil(pair.matches / 10));
    }
  });

  it("keyword search pages through its ranked matches", async () => {
    const query = pair.category.replace(/-/g, " ");
    const first = await caller.search.searchKeyword({ query, city: pair.city, limit: 3 });
    expect(first.totalMatches).toBeGreaterThan(3);
    const pages = await walk((cursor) => caller.search.searchKeyword({ query, city: pair.city, limit: 3, cursor }));
    expect(pages.totals).toEqual([first.totalMatches]);
    expect(pages.slugs.length).toBe(first.totalMatches);
    expect(new Set(pages.slugs).size).toBe(first.totalMatches);
  });

  it("cities page up to 50 at a time, most listings first, and count every city", async () => {
    const [row] = await database.db.select({ cities: count(businesses.cityId) }).from(
      database.db
        .selectDistinct({ cityId: businesses.cityId })
        .from(businesses)
        .where(and(SERVABLE, eq(businesses.categorySlug, pair.category)))
        .as("with_listings"),
    );
    const pages = await walk((cursor) => caller.search.availableCities({ category: pair.category, limit: 7, cursor }));
    expect(pages.totals).toEqual([Number(row!.cities)]);
    expect(new Set(pages.slugs).size).toBe(Number(row!.cities));
    await expect(caller.search.availableCities({ category: pair.category, limit: 51 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("refuses a cursor that is garbage or belongs to another listing, naming the parameter", async () => {
    const category = await caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 10 });
    const keyword = await caller.search.searchKeyword({ query: pair.category.replace(/-/g, " "), limit: 1 });
    // Called one at a time: a refusal made before its turn to be awaited would be an unhandled rejection.
    const refusals = [
      () => caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 10, cursor: "not-a-cursor" }),
      () => caller.search.searchCategory({ category: pair.category, limit: 10, cursor: category.nextCursor! }),
      () => caller.search.getListicle({ category: pair.category, city: pair.city, limit: 10, cursor: keyword.nextCursor! }),
      () => caller.search.searchKeyword({ query: "something else", limit: 1, cursor: keyword.nextCursor! }),
      () => caller.search.availableCities({ category: pair.category, cursor: category.nextCursor! }),
    ];
    for (const refusal of refusals) await expect(refusal()).rejects.toThrow(/cursor/);
  });
});
