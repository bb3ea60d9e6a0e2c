import { asc, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses } from "@directory/db";
import { sitemapPage, sitemapPageStarts } from "../../services/pages/pages";
import { anonymousCaller, SERVABLE } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";

let database: TestDatabase;
let caller: ReturnType<typeof anonymousCaller>;

beforeAll(async () => {
  database = await createTestDatabase();
  caller = anonymousCaller(database.db);
});
afterAll(async () => {
  await database?.destroy();
});

describe("pages procedures", () => {
  it("overview: popular categories and cities, bounded", async () => {
    const overview = await caller.pages.overview({ limit: 5 });
    expect(overview.categories).toHaveLength(5);
    expect(overview.cities).toHaveLength(5);
    expect(overview.cities[0]).toEqual({
      slug: expect.any(String),
      name: expect.any(String),
      region: expect.any(String),
      country: expect.stringMatching(/^[A-Z]{2}$/),
    });
    expect((await caller.pages.overview()).categories.length).toBeLessThanOrEqual(12);
  });

  it("sitemap pages: slug ranges of at most the page size that together hold every SERVABLE slug once, in order", async () => {
    const all = (await database.db.select({ slug: businesses.slug }).from(businesses).orderBy(asc(businesses.slug))).map((r) => r.slug);
    const expected = (await database.db.select({ slug: businesses.slug }).from(businesses).where(SERVABLE).orderBy(asc(businesses.slug))).map((r) => r.slug);
    expect(expected.length).toBeLessThan(all.length);
    const pageSize = 97;
    const starts = await sitemapPageStarts(database.db, pageSize);
    expect(starts).toHaveLength(Math.ceil(all.length / pageSize));
    const walked: string[] = [];
    for (const [i, from] of starts.entries()) {
      const { profiles: page } = await sitemapPage(database.db, { from, to: starts[i + 1], limit: pageSize + 10, baseUrl: "http://directory.test" });
      expect(page.length).toBeLessThanOrEqual(pageSize);
      walked.push(...page.map((p) => p.slug));
    }
    expect(walked).toEqual(expected);
    const index = await caller.pages.sitemapIndex();
    expect(index.pageSize).toBe(10_000);
    expect(index.pages).toEqual([{ from: all[0], to: null }]);
    await expect(caller.pages.sitemapPage({ from: "a", limit: 10_001 })).rejects.toThrow(/limit/);
  });

  it("sitemap pages leave out decommissioned businesses", async () => {
    const [gone] = await database.db.select({ slug: businesses.slug }).from(businesses).where(SERVABLE).orderBy(asc(businesses.slug)).limit(1);
    await database.db
      .update(businesses)
      .set({ status: "inactive" })
      .where(sql`${businesses.slug} = ${gone!.slug}`);
    try {
      const page = await caller.pages.sitemapPage({ from: gone!.slug, limit: 5 });
      expect(page.profiles.map((p) => p.slug)).not.toContain(gone!.slug);
      const alternatives = await caller.pages.alternatives({ slug: gone!.slug });
      expect(alternatives.decommissioned).toBe(true);
      expect(alternatives.alternatives.map((a) => a.slug)).not.toContain(gone!.slug);
    } finally {
      await database.db
        .update(businesses)
        .set({ status: "active" })
        .where(sql`${businesses.slug} = ${gone!.slug}`);
    }
  });

  it("alternatives: an unknown slug is a 404", async () => {
    await expect(caller.pages.alternatives({ slug: "no-such-business" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
