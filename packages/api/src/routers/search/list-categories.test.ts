import { count, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { businesses, categories } from "@directory/db";
import { CATEGORY_COUNTS_HARD_MAX_AGE_MS, CATEGORY_COUNTS_MAX_AGE_MS, invalidateCategoryCounts } from "../../services/search/category-catalog";
import { anonymousCaller, SERVABLE } from "../../test-callers";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";

let database: TestDatabase;
const caller = () => anonymousCaller(database.db);

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await database?.destroy();
});

/** The oracle: servable businesses per category, counted in SQL written apart from the service. */
async function countsInSql(): Promise<Record<string, number>> {
  const rows = await database.db.select({ slug: businesses.categorySlug, n: count() }).from(businesses).where(SERVABLE).groupBy(businesses.categorySlug);
  return Object.fromEntries(rows.map((row) => [row.slug, Number(row.n)]));
}

async function oneServable(): Promise<{ id: string; categorySlug: string }> {
  const [row] = await database.db.select({ id: businesses.id, categorySlug: businesses.categorySlug }).from(businesses).where(SERVABLE).limit(1);
  return row!;
}

describe("search.listCategories (GET /api/v2/categories)", () => {
  it("lists every category with its slug, name, synonyms and the count of its servable listings, in slug order", async () => {
    invalidateCategoryCounts(database.db);
    const result = await caller().search.listCategories({});
    const all = await database.db.select().from(categories).orderBy(categories.slug);
    expect(all.length).toBeGreaterThan(50);
    expect(result.total).toBe(all.length);
    expect(result.categories.map((c) => c.slug)).toEqual(all.map((c) => c.slug));
    const expected = await countsInSql();
    for (const category of result.categories) {
      const row = all.find((c) => c.slug === category.slug)!;
      expect(category).toEqual({ slug: row.slug, name: row.name, synonyms: row.synonyms, listings: expected[row.slug] ?? 0 });
    }
    // Inactive and expired businesses exist in the demo world and are not counted.
    const [everyRow] = await database.db.select({ n: count() }).from(businesses);
    const listed = result.categories.reduce((sum, c) => sum + c.listings, 0);
    expect(listed).toBe(Object.values(expected).reduce((sum, n) => sum + n, 0));
    expect(listed).toBeLessThan(Number(everyRow!.n));
    expect(result.categories.some((c) => c.listings === 0)).toBe(true);
    expect(Date.parse(result.listingsCountedAt)).toBeLessThanOrEqual(Date.now());
  });

  it("holds the counts for a minute, serves them while it recounts in the background up to five minutes, then waits for a recount", async () => {
    invalidateCategoryCounts(database.db);
    const first = await caller().search.listCategories({});
    const target = await oneServable();
    const before = first.categories.find((c) => c.slug === target.categorySlug)!.listings;
    await database.db.update(businesses).set({ status: "inactive", inactiveReason: "decommissioned" }).where(eq(businesses.id, target.id));
    try {
      // Within the bound: the held counts, dated as they were taken.
      const held = await caller().search.listCategories({});
      expect(held.listingsCountedAt).toBe(first.listingsCountedAt);
      expect(held.categories.find((c) => c.slug === target.categorySlug)!.listings).toBe(before);

      // Past it: the held counts still answer at once, and a recount starts; the next answer has it.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(first.listingsCountedAt) + CATEGORY_COUNTS_MAX_AGE_MS + 1 });
      const stale = await caller().search.listCategories({});
      expect(stale.listingsCountedAt).toBe(first.listingsCountedAt);
      await vi.waitFor(async () => {
        const recounted = await caller().search.listCategories({});
        expect(recounted.listingsCountedAt).not.toBe(first.listingsCountedAt);
        expect(recounted.categories.find((c) => c.slug === target.categorySlug)!.listings).toBe(before - 1);
      });

      // Past the hard bound: the request itself waits for a recount.
      await database.db.update(businesses).set({ status: "active", inactiveReason: null }).where(eq(businesses.id, target.id));
      const later = Date.now() + CATEGORY_COUNTS_HARD_MAX_AGE_MS + 1;
      vi.setSystemTime(later);
      const fresh = await caller().search.listCategories({});
      expect(Date.parse(fresh.listingsCountedAt)).toBeGreaterThanOrEqual(later);
      expect(fresh.categories.find((c) => c.slug === target.categorySlug)!.listings).toBe(before);
      expect(Object.fromEntries(fresh.categories.filter((c) => c.listings > 0).map((c) => [c.slug, c.listings]))).toEqual(await countsInSql());
    } finally {
      await database.db.update(businesses).set({ status: "active", inactiveReason: null }).where(eq(businesses.id, target.id));
    }
  });
});
