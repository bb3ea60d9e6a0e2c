import { and, asc, desc, eq, gt, lt, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { businesses, type Db, type PlanTier } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { selectBusinessRecords, type BusinessRecord } from "../entities/business-lookup";
import { decodeOpaqueCursor, encodeOpaqueCursor, invalidCursorError, listingFingerprint } from "../shared/opaque-cursor";
import { isUuid } from "../shared/ids";
import type { CategorySort } from "./disclosures";
import { afterRating, RATING_KEY_COLUMNS, RATING_ORDER, type RatingKeys } from "./rating-order";

/** The ranking order of every search, matching businesses_search_idx: tier, internal score, name. */
export const RANKING_ORDER: SQL[] = [asc(businesses.planTier), desc(businesses.visibilityScore), asc(businesses.name), asc(businesses.id)];

/**
 * A keyset cursor over RANKING_ORDER (tier, internal score descending, name, id). It carries the
 * last row's id only, never its keys: the internal score must not leave the service, and an
 * opaque cursor is only base64. The keys are read again by id when the cursor comes back. It also
 * carries the match count when the listing began (kept for a page that comes back empty) and a
 * fingerprint of the category and city, so a cursor cannot continue another listing.
 */
interface RankedCursor {
  id: string;
  total: number;
  filters: string;
}

interface RankingKeys {
  planTier: PlanTier;
  visibilityScore: number;
  name: string;
  id: string;
}

/** cityId null: across every city. */
function fingerprint(categorySlug: string, cityId: number | null, sort: CategorySort): string {
  // The default order's fingerprint is what it was before sort existed: its cursors stay valid.
  return listingFingerprint(sort === "ranking" ? [categorySlug, cityId] : [categorySlug, cityId, sort]);
}

function decodeRankedCursor(raw: string, expectedFilters: string): RankedCursor {
  const [id, total, filters] = decodeOpaqueCursor(raw, 3);
  if (typeof id !== "string" || !isUuid(id) || id !== id.toLowerCase()) throw invalidCursorError();
  if (!Number.isInteger(total) || (total as number) < 0) throw invalidCursorError();
  if (filters !== expectedFilters) throw invalidCursorError();
  return { id, total: total as number, filters };
}

/** The sort keys of the cursor's row as they are now (businesses are never deleted). */
async function keysOf<K>(db: Db, id: string, columns: { [P in keyof K]: PgColumn }): Promise<K> {
  const [row] = await db.select(columns).from(businesses).where(eq(businesses.id, id));
  if (!row) throw invalidCursorError();
  return row as K;
}

/** Each order a city page can be read in: its ORDER BY and the rows after a cursor's row. */
const CITY_PAGE_ORDERS = {
  ranking: {
    orderBy: RANKING_ORDER,
    after: async (db: Db, id: string) =>
      after(
        await keysOf<RankingKeys>(db, id, {
          planTier: businesses.planTier,
          visibilityScore: businesses.visibilityScore,
          name: businesses.name,
          id: businesses.id,
        }),
      ),
  },
  rating: {
    orderBy: RATING_ORDER,
    after: async (db: Db, id: string) => afterRating(await keysOf<RatingKeys>(db, id, RATING_KEY_COLUMNS)),
  },
} satisfies Record<CategorySort, { orderBy: SQL[]; after(db: Db, id: string): Promise<SQL> }>;

/** Rows strictly after the given keys in RANKING_ORDER (tier asc, score desc, name asc, id asc). */
function after(keys: RankingKeys): SQL {
  return or(
    gt(businesses.planTier, keys.planTier),
    and(eq(businesses.planTier, keys.planTier), lt(businesses.visibilityScore, keys.visibilityScore)),
    and(eq(businesses.planTier, keys.planTier), eq(businesses.visibilityScore, keys.visibilityScore), gt(businesses.name, keys.name)),
    and(
      eq(businesses.planTier, keys.planTier),
      eq(businesses.visibilityScore, keys.visibilityScore),
      eq(businesses.name, keys.name),
      gt(businesses.id, keys.id),
    ),
  )!;
}

/**
 * One page of a category in a city (or across every city, cityId null: businesses_category_rank_idx
 * and _category_rating_idx serve it), in ranking order (or `sort`'s), continuing after `cursor` when given: the
 * page, the cursor of the next one (null at the end) and the number of all matches (counted beside
 * the first page; later pages carry that count in the cursor, so one traversal reports one total).
 */
export async function rankedPage(
  db: Db,
  params: { categorySlug: string; cityId: number | null; limit: number; cursor?: string; sort?: CategorySort },
): Promise<{ records: BusinessRecord[]; nextCursor: string | null; total: number }> {
  const sort = params.sort ?? "ranking";
  const order = CITY_PAGE_ORDERS[sort];
  const filters = fingerprint(params.categorySlug, params.cityId, sort);
  const cursor = params.cursor ? decodeRankedCursor(params.cursor, filters) : null;
  const inCity = params.cityId === null ? undefined : eq(businesses.cityId, params.cityId);
  const matches = and(eq(businesses.categorySlug, params.categorySlug), inCity, servableCondition())!;
  const resumeAfter = cursor ? await order.after(db, cursor.id) : null;
  const [rows, total] = await Promise.all([
    selectBusinessRecords(db)
      .where(resumeAfter ? and(matches, resumeAfter) : matches)
      .orderBy(...order.orderBy)
      .limit(params.limit + 1),
    cursor ? cursor.total : countMatches(db, matches),
  ]);
  const records = rows.slice(0, params.limit);
  const last = records.at(-1);
  const nextCursor = rows.length > params.limit && last ? encodeOpaqueCursor([last.id, total, filters]) : null;
  return { records, nextCursor, total };
}

async function countMatches(db: Db, matches: SQL): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(businesses)
    .where(matches);
  return Number(row?.total ?? 0);
}
