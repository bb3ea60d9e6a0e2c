import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessSearch, businesses, buyerQuestions, cities } from "@directory/db";
import { KEYWORD_CANDIDATES, RANKING_DISCLOSURE } from "../../services/search/disclosures";
import { anonymousCaller, SERVABLE } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";

let database: TestDatabase;
let caller: ReturnType<typeof anonymousCaller>;
/** The busiest category+city pair of the test world, so pages and ties are real. */
let pair: { category: string; cityId: number; city: string; matches: number };

/** sort=rating, spelled in SQL apart from the service: rating desc, no rating last, then reviews, name, id. */
const RATING_ORDER_SQL = [sql`${businesses.rating} desc nulls last`, desc(businesses.reviewCount), asc(businesses.name), asc(businesses.id)];

async function idsInRatingOrder(where: SQL | undefined, limit: number) {
  const rows = await database.db
    .select({ id: businesses.id })
    .from(businesses)
    .where(and(SERVABLE, where))
    .orderBy(...RATING_ORDER_SQL)
    .limit(limit);
  return rows.map((row) => row.id);
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
  // A business without a rating, placed where the default order would put it first: it must come last.
  const [top] = (await caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 1 })).businesses;
  await database.db.update(businesses).set({ rating: null }).where(eq(businesses.id, top!.id));
});
afterAll(async () => {
  await database?.destroy();
});

const inPair = () => and(eq(businesses.categorySlug, pair.category), eq(businesses.cityId, pair.cityId));

describe("sort=rating on the search procedures", () => {
  it("orders a category+city search and a national one by rating, then reviews, with no rating last, and says so", async () => {
    expect(pair.matches).toBeGreaterThan(10);
    const local = await caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 10, sort: "rating" });
    expect(local.businesses.map((b) => b.id)).toEqual(await idsInRatingOrder(inPair(), 10));
    expect(local.rankingModel).toMatch(/^Ordered by rating/);
    expect(local.rankingModel).not.toMatch(/Paid tiers are placed first/);

    const national = await caller.search.searchCategory({ category: pair.category, limit: 10, sort: "rating" });
    expect(national.businesses.map((b) => b.id)).toEqual(await idsInRatingOrder(eq(businesses.categorySlug, pair.category), 10));

    // The default is unchanged and still disclosed as the tier ranking; "ranking" names it.
    const byDefault = await caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 10 });
    expect(byDefault.rankingModel).toBe(RANKING_DISCLOSURE);
    expect(await caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 10, sort: "ranking" })).toEqual(byDefault);
    expect(byDefault.businesses[0]!.rating).toBeNull();
  });

  it("puts businesses without a rating last", async () => {
    const all = await caller.search.lookupBusinesses({ category: pair.category, city: pair.city, limit: 50, sort: "rating" });
    const ratings = all.businesses.map((b) => b.rating);
    const firstNull = ratings.indexOf(null);
    expect(firstNull).toBeGreaterThan(0);
    expect(ratings.slice(firstNull).every((rating) => rating === null)).toBe(true);
  });

  it("pages /api/v2/businesses in rating order by cursor, ties across page boundaries included", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const result = await caller.search.lookupBusinesses({ category: pair.category, city: pair.city, limit: 2, sort: "rating", cursor });
      expect(result.totalMatches).toBe(pair.matches);
      expect(result.rankingDisclosure).toMatch(/^Ordered by rating/);
      seen.push(...result.businesses.map((b) => b.id));
      if (!result.nextCursor) break;
      cursor = result.nextCursor;
    }
    expect(seen).toEqual(await idsInRatingOrder(inPair(), 1_000));
    // A rating cursor does not continue the default order (nor the reverse).
    const first = await caller.search.lookupBusinesses({ category: pair.category, city: pair.city, limit: 2, sort: "rating" });
    await expect(caller.search.lookupBusinesses({ category: pair.category, city: pair.city, limit: 2, cursor: first.nextCursor! })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("orders the listicle by rating and titles and discloses it so", async () => {
    const listicle = await caller.search.getListicle({ category: pair.category, city: pair.city, limit: 7, sort: "rating" });
    expect(listicle.businesses.map((b) => b.id)).toEqual(await idsInRatingOrder(inPair(), 7));
    expect(listicle.orderedBy).toBe("rating, then review count, then name");
    expect(listicle.title).toMatch(/^7 best-rated /);
    expect(listicle.disclosure).toMatch(/^Ordered by rating/);
    expect(listicle.paidPlacement).toBe(false);
    const byDefault = await caller.search.getListicle({ category: pair.category, city: pair.city, limit: 7 });
    expect(byDefault.orderedBy).toBe("directoryCompletenessScore, then name");
  });

  it("orders keyword matches by rating: the same matches as by relevance, best-rated first", async () => {
    const query = pair.category;
    const relevance = await caller.search.searchKeyword({ query, city: pair.city, limit: 10 });
    const rated = await caller.search.searchKeyword({ query, city: pair.city, limit: 10, sort: "rating" });
    expect(rated.businesses.length).toBe(10);
    expect(rated.rankingModel).toMatch(/^Ordered by rating/);
    expect(relevance.rankingModel).toMatch(/^Ordered by text relevance/);
    // The matches, found in SQL apart from the service (text or buyer-question text, in the city), fewer than the candidate bound.
    const words = sql`websearch_to_tsquery('simple', ${query})`;
    const matches = sql`${businesses.id} in (
      select ${businessSearch.businessId} from ${businessSearch} where ${businessSearch.document} @@ ${words}
      union select ${buyerQuestions.businessId} from ${buyerQuestions}
        where to_tsvector('simple', ${buyerQuestions.question} || ' ' || coalesce(${buyerQuestions.answer}, '')) @@ ${words})`;
    const matched = await idsInRatingOrder(and(matches, eq(businesses.cityId, pair.cityId)), 1_000);
    expect(matched.length).toBeGreaterThan(10);
    expect(matched.length).toBeLessThan(KEYWORD_CANDIDATES);
    expect(rated.businesses.map((b) => b.id)).toEqual(matched.slice(0, 10));
  });

  it("puts reviewCount in every listing, equal to the stored count, and never an internal score", async () => {
    const results = [
      (await caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 5, sort: "rating" })).businesses,
      (await caller.search.getListicle({ category: pair.category, city: pair.city, limit: 5 })).businesses,
      (await caller.search.searchKeyword({ query: pair.category, limit: 5 })).businesses,
      (await caller.search.lookupBusinesses({ category: pair.category, city: pair.city, limit: 5 })).businesses,
      (await caller.search.searchBusinesses({ category: pair.category, city: pair.city, limit: 5, sort: "rating" })).businesses,
    ].flat();
    const stored = await database.db.select({ id: businesses.id, reviewCount: businesses.reviewCount }).from(businesses);
    const counts = new Map(stored.map((row) => [row.id, row.reviewCount]));
    for (const listing of results) {
      expect(listing.reviewCount).toBe(counts.get(listing.id));
      expect(Object.keys(listing)).not.toContain("geoScore");
      expect(Object.keys(listing)).not.toContain("visibilityScore");
    }
    expect(results.some((listing) => listing.reviewCount > 0)).toBe(true);
  });

  it("refuses an unknown sort value, naming the parameter and the accepted ones", async () => {
    // The caller sees zod's issues; each door words them (the REST body is tested in apps/server).
    const refused = async (call: Promise<unknown>, accepted: string) => {
      const error = await call.then(
        () => null,
        (caught: unknown) => caught as { code: string; message: string },
      );
      expect(error?.code).toBe("BAD_REQUEST");
      expect(error?.message).toContain(`expected one of \\"${accepted}\\"|\\"rating\\"`);
      expect(error?.message).toMatch(/"path": \[\s*"sort"\s*\]/);
    };
    await refused(caller.search.searchCategory({ category: pair.category, sort: "stars" } as never), "ranking");
    await refused(caller.search.getListicle({ category: pair.category, city: pair.city, sort: "ranking" } as never), "completeness");
    await refused(caller.search.searchKeyword({ query: "dentist", sort: "ranking" } as never), "relevance");
    await refused(caller.search.lookupBusinesses({ category: pair.category, city: pair.city, sort: "stars" } as never), "ranking");
  });
});
