import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, cities } from "@directory/db";
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

  it("businessHours: the week, today and open or closed in the city's zone, at the instant named", async () => {
    const [target] = await database.db
      .select({ id: businesses.id, slug: businesses.slug, timeZone: cities.timeZone })
      .from(businesses)
      .innerJoin(cities, eq(cities.id, businesses.cityId))
      .where(and(SERVABLE, eq(cities.timeZone, "Asia/Kolkata")))
      .orderBy(asc(businesses.slug))
      .limit(1);
    const bar = [{ days: ["Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"], opens: "18:00", closes: "02:00" }];
    await database.db.update(businesses).set({ openingHours: bar }).where(eq(businesses.id, target!.id));
    // Thursday 01:30 in India (+05:30, no DST): still Wednesday's night, open until 02:00.
    const hours = await caller.pages.businessHours({ slug: target!.slug, at: "2026-05-13T20:00:00Z" });
    expect(hours).toEqual({
      timeZone: "Asia/Kolkata",
      hoursKnown: true,
      today: "Thursday",
      week: [
        { day: "Monday", hours: "Closed" },
        { day: "Tuesday", hours: "18:00-02:00" },
        { day: "Wednesday", hours: "18:00-02:00" },
        { day: "Thursday", hours: "18:00-02:00" },
        { day: "Friday", hours: "18:00-02:00" },
        { day: "Saturday", hours: "18:00-02:00" },
        { day: "Sunday", hours: "Closed" },
      ],
      openNow: true,
      nextChange: { change: "closes", utc: "2026-05-13T20:30:00.000Z", local: "2026-05-14T02:00:00+05:30" },
      summary: "Today (Thursday) 18:00-02:00, open now until 02:00",
    });
    // Monday 12:00 there: closed, opening Tuesday 18:00.
    const monday = await caller.pages.businessHours({ slug: target!.slug, at: "2026-05-11T06:30:00+00:00" });
    expect(monday).toMatchObject({ today: "Monday", openNow: false, nextChange: { change: "opens", local: "2026-05-12T18:00:00+05:30" } });

    await database.db.update(businesses).set({ openingHours: [] }).where(eq(businesses.id, target!.id));
    expect(await caller.pages.businessHours({ slug: target!.slug })).toMatchObject({
      hoursKnown: false,
      week: [],
      openNow: null,
      nextChange: null,
      summary: null,
    });
    await expect(caller.pages.businessHours({ slug: target!.slug, at: "Monday noon" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.pages.businessHours({ slug: "no-such-business" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
