import { createHash } from "node:crypto";
import { and, eq, gt, lt, or, sql, type SQL } from "drizzle-orm";
import { businesses, PLAN_TIERS, type Db, type PlanTier } from "@directory/db";
import { servableCondition } from "./active-business";
import { selectBusinessRecords, type BusinessRecord } from "./business-lookup";
import { decodeOpaqueCursor, encodeOpaqueCursor, invalidCursorError } from "./feed-cursor";
import { isUuid } from "./ids";
import { RANKING_ORDER } from "./search";

/**
 * A keyset cursor over RANKING_ORDER (tier, internal score descending, name, id): the last row's
 * keys, the match count when the listing began (kept for a page that comes back empty), and a
 * fingerprint of the category and city so a cursor cannot continue another listing.
 */
interface RankedCursor {
  planTier: PlanTier;
  visibilityScore: number;
  name: string;
  id: string;
  total: number;
  filters: string;
}

function fingerprint(categorySlug: string, cityId: number): string {
  return createHash("sha256").update(JSON.stringify([categorySlug, cityId])).digest("base64url").slice(0, 16);
}

function decodeRankedCursor(raw: string, expectedFilters: string): RankedCursor {
  const [planTier, visibilityScore, name, id, total, filters] = decodeOpaqueCursor(raw, 6);
  if (typeof planTier !== "string" || !(PLAN_TIERS as readonly string[]).includes(planTier)) throw invalidCursorError();
  if (!Number.isSafeInteger(visibilityScore) || typeof name !== "string" || name.length > 1_000) throw invalidCursorError();
  if (typeof id !== "string" || !isUuid(id) || id !== id.toLowerCase()) throw invalidCursorError();
  if (!Number.isInteger(total) || (total as number) < 0) throw invalidCursorError();
  if (filters !== expectedFilters) throw invalidCursorError();
  return { planTier: planTier as PlanTier, visibilityScore: visibilityScore as number, name, id, total: total as number, filters };
}

/** Rows strictly after the cursor in RANKING_ORDER (tier asc, score desc, name asc, id asc). */
function afterCursor(cursor: RankedCursor): SQL {
  return or(
    gt(businesses.planTier, cursor.planTier),
    and(eq(businesses.planTier, cursor.planTier), lt(businesses.visibilityScore, cursor.visibilityScore)),
    and(eq(businesses.planTier, cursor.planTier), eq(businesses.visibilityScore, cursor.visibilityScore), gt(businesses.name, cursor.name)),
    and(eq(businesses.planTier, cursor.planTier), eq(businesses.visibilityScore, cursor.visibilityScore), eq(businesses.name, cursor.name), gt(businesses.id, cursor.id)),
  )!;
}

/**
 * One page of a category in a city, in ranking order, continuing after `cursor` when given: the
 * page, the cursor of the next one (null at the end) and the number of all matches (counted beside
 * the first page; later pages carry that count in the cursor, so one traversal reports one total).
 */
export async function rankedCityPage(
  db: Db,
  params: { categorySlug: string; cityId: number; limit: number; cursor?: string },
): Promise<{ records: BusinessRecord[]; nextCursor: string | null; total: number }> {
  const filters = fingerprint(params.categorySlug, params.cityId);
  const cursor = params.cursor ? decodeRankedCursor(params.cursor, filters) : null;
  const matches = and(eq(businesses.categorySlug, params.categorySlug), eq(businesses.cityId, params.cityId), servableCondition())!;
  const [rows, total] = await Promise.all([
    selectBusinessRecords(db)
      .where(cursor ? and(matches, afterCursor(cursor)) : matches)
      .orderBy(...RANKING_ORDER)
      .limit(params.limit + 1),
    cursor ? cursor.total : countMatches(db, matches),
  ]);
  const records = rows.slice(0, params.limit);
  const last = records.at(-1);
  const nextCursor =
    rows.length > params.limit && last
      ? encodeOpaqueCursor([last.planTier, last.visibilityScore, last.name, last.id, total, filters])
      : null;
  return { records, nextCursor, total };
}

async function countMatches(db: Db, matches: SQL): Promise<number> {
  const [row] = await db.select({ total: sql<number>`count(*)::int` }).from(businesses).where(matches);
  return Number(row?.total ?? 0);
}
