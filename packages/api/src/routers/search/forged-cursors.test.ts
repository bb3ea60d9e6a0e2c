import { and, eq, ne, not } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses } from "@directory/db";
import { AVAILABLE_CITIES_MAX } from "../../services/search/available-cities";
import { LISTICLE_CANDIDATES } from "../../services/search/category-search";
import { KEYWORD_RANKED_MAX } from "../../services/search/keyword-ranking";
import { NEAR_COUNT_CAP } from "../../services/where-when/where-when-params";
import { anonymousCaller, busiestCategoryCity, SERVABLE } from "../../test-callers";
import { atLocal, createTestDatabase, type TestDatabase } from "../../testing";

/*
 * Cursors a caller edited (issue 38 item 5). A cursor is opaque but only base64 JSON, so anyone
 * can rewrite one: an offset past its listing's depth (or past what PostgreSQL takes as a bigint)
 * is a 400 naming the cursor, never a 500; a ranked cursor naming a business outside its listing
 * is a 400, so no page is ordered after another listing's tier and internal score; a count written
 * into a cursor never comes back as the listing's count.
 */

let database: TestDatabase;
let caller: ReturnType<typeof anonymousCaller>;
/** The busiest category+city pair: pages of every listing there. */
let pair: { category: string; city: string; cityId: number; timeZone: string; lat: number; lng: number };

/** A cursor as a caller would rewrite it: decoded, edited, encoded again. */
function forged(cursor: string, edit: (parts: unknown[]) => unknown[]): string {
  const parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
  return Buffer.from(JSON.stringify(edit(parts))).toString("base64url");
}
/** An offset cursor ([offset, total, fingerprint]) moved to another offset. */
const atOffset = (cursor: string, offset: number) => forged(cursor, ([, total, fingerprint]) => [offset, total, fingerprint]);

const refusedAsCursor = { code: "BAD_REQUEST", message: expect.stringMatching(/cursor/) };

beforeAll(async () => {
  database = await createTestDatabase();
  caller = anonymousCaller(database.db);
  pair = await busiestCategoryCity(database.db);
}, 120_000);

afterAll(async () => {
  await database?.destroy();
});

const query = () => pair.category.replace(/-/g, " ");

describe("offset cursors are bounded by their listing's depth", () => {
  it("an offset of 2^63 or more (or past 2^53) on keyword search and the cities is a 400, not a 500", async () => {
    const keyword = await caller.search.searchKeyword({ query: query(), limit: 1 });
    const cityList = await caller.search.availableCities({ category: pair.category, limit: 1 });
    expect(keyword.nextCursor).not.toBeNull();
    expect(cityList.nextCursor).not.toBeNull();
    for (const offset of [2 ** 63, 2 ** 64, 2 ** 53 + 2]) {
      await expect(caller.search.searchKeyword({ query: query(), limit: 1, cursor: atOffset(keyword.nextCursor!, offset) })).rejects.toMatchObject(
        refusedAsCursor,
      );
      await expect(caller.search.availableCities({ category: pair.category, limit: 1, cursor: atOffset(cityList.nextCursor!, offset) })).rejects.toMatchObject(
        refusedAsCursor,
      );
    }
  });

  it("an offset past each list's cap is a 400; one at the cap is an empty last page", async () => {
    const point = { lat: pair.lat, lng: pair.lng };
    const openAt = atLocal("2026-05-12T10:00:00", pair.timeZone);
    const listings = [
      { cap: KEYWORD_RANKED_MAX, page: (cursor?: string) => caller.search.searchKeyword({ query: query(), limit: 1, cursor }) },
      { cap: KEYWORD_RANKED_MAX, page: (cursor?: string) => caller.search.searchKeyword({ query: query(), openAt, limit: 1, cursor }) },
      { cap: AVAILABLE_CITIES_MAX, page: (cursor?: string) => caller.search.availableCities({ category: pair.category, limit: 1, cursor }) },
      { cap: NEAR_COUNT_CAP, page: (cursor?: string) => caller.search.searchCategory({ category: pair.category, near: point, limit: 1, cursor }) },
      { cap: LISTICLE_CANDIDATES, page: (cursor?: string) => caller.search.getListicle({ category: pair.category, city: pair.city, limit: 1, cursor }) },
    ];
    for (const listing of listings) {
      const first = await listing.page();
      expect(first.nextCursor).not.toBeNull();
      await expect(listing.page(atOffset(first.nextCursor!, listing.cap + 1))).rejects.toMatchObject(refusedAsCursor);
      const atCap = await listing.page(atOffset(first.nextCursor!, listing.cap));
      expect(atCap.nextCursor).toBeNull();
      expect(atCap.total).toBe(0);
      expect(atCap.totalMatches).toBe(first.totalMatches);
    }
  });
});

describe("ranked keyset cursors continue only their own listing", () => {
  it("a cursor naming a business of another category, another city or no longer listed is a 400", async () => {
    const { db } = database;
    const inCity = await caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 1 });
    const national = await caller.search.categoryLeaders({ category: pair.category, limit: 1 });
    const [otherCategory] = await db
      .select({ id: businesses.id })
      .from(businesses)
      .where(and(SERVABLE, ne(businesses.categorySlug, pair.category)))
      .limit(1);
    const [otherCity] = await db
      .select({ id: businesses.id })
      .from(businesses)
      .where(and(SERVABLE, eq(businesses.categorySlug, pair.category), ne(businesses.cityId, pair.cityId)))
      .limit(1);
    const [unlisted] = await db.select({ id: businesses.id, category: businesses.categorySlug }).from(businesses).where(not(SERVABLE)).limit(1);
    expect(otherCategory && otherCity && unlisted).toBeTruthy();
    const naming = (cursor: string, id: string) => forged(cursor, ([, ...rest]) => [id, ...rest]);
    for (const id of [otherCategory!.id, otherCity!.id]) {
      await expect(
        caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 1, cursor: naming(inCity.nextCursor!, id) }),
      ).rejects.toMatchObject(refusedAsCursor);
    }
    await expect(
      caller.search.categoryLeaders({ category: pair.category, limit: 1, cursor: naming(national.nextCursor!, otherCategory!.id) }),
    ).rejects.toMatchObject(refusedAsCursor);
    const unlistedCategory = await caller.search.categoryLeaders({ category: unlisted!.category, limit: 1 });
    expect(unlistedCategory.nextCursor).not.toBeNull();
    await expect(
      caller.search.categoryLeaders({ category: unlisted!.category, limit: 1, cursor: naming(unlistedCategory.nextCursor!, unlisted!.id) }),
    ).rejects.toMatchObject(refusedAsCursor);
  });

  it("a count written into a cursor is not echoed: every page counts its listing's matches", async () => {
    const first = await caller.search.searchCategory({ category: pair.category, city: pair.city, limit: 1 });
    const page = await caller.search.searchCategory({
      category: pair.category,
      city: pair.city,
      limit: 1,
      cursor: forged(first.nextCursor!, ([id, , fingerprint]) => [id, 999_999, fingerprint]),
    });
    expect(page.totalMatches).toBe(first.totalMatches);
    // After the listing's last row no row is left to carry the count.
    const all = await caller.search.lookupBusinesses({ category: pair.category, city: pair.city, limit: 50 });
    expect(all.nextCursor).toBeNull();
    const afterLast = await caller.search.searchCategory({
      category: pair.category,
      city: pair.city,
      limit: 1,
      cursor: forged(first.nextCursor!, ([, , fingerprint]) => [all.businesses.at(-1)!.id, 999_999, fingerprint]),
    });
    expect(afterLast.businesses).toEqual([]);
    expect(afterLast.totalMatches).toBe(first.totalMatches);
    const openAt = atLocal("2026-05-12T10:00:00", pair.timeZone);
    const open = await caller.search.searchCategory({ category: pair.category, city: pair.city, openAt, limit: 1 });
    expect(open.nextCursor).not.toBeNull();
    const openPage = await caller.search.searchCategory({
      category: pair.category,
      city: pair.city,
      openAt,
      limit: 1,
      cursor: forged(open.nextCursor!, ([id, , fingerprint]) => [id, 999_999, fingerprint, 999_999]),
    });
    expect(openPage.totalMatches).toBe(open.totalMatches);
    expect(openPage.excludedUnknownHours).toBe(open.excludedUnknownHours);
  });
});
