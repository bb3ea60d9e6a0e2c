import { inArray, sql } from "drizzle-orm";
import { businesses, type Db } from "@directory/db";
import { recordsInOrder, type BusinessRecord } from "../entities/business-lookup";
import { decodeOffsetCursor, listingFingerprint, nextOffsetCursor, type OffsetListing } from "../shared/opaque-cursor";
import { businessesWithinRadius } from "../where-when/near";
import { nearGeometry, nearTerms } from "../where-when/near-geometry";
import { openAnyCityCondition, unknownHoursCondition } from "../where-when/open-filter";
import { NEAR_COUNT_CAP, NEAR_LIMIT_MAX, type WhereWhen } from "../where-when/where-when-params";
import type { CategorySort } from "./disclosures";
import { searchOrder } from "./ranking";

/*
 * The where-when filters (open now or at an instant, near a point) applied to the searches that
 * take them. Each search's plain path is untouched: these run only when a request names a time or
 * a point. Two ways, by what the search's order is:
 * - category searches (a category in a city, or near a point) filter in SQL, in the order an index
 *   or the circle serves (nearPage here; the open filter of a category+city page is rankedPage's);
 * - searches ranked outside SQL over a bounded candidate set (keyword relevance, the completeness
 *   listicle) filter their ranked candidates (filterCandidates), keeping their order.
 */

/** One page of a filtered search, as the envelope reports it. */
export interface FilteredPage<T> {
  records: T[];
  /** Matches over every page (a near search counts at most NEAR_COUNT_AHEAD past the page's start). */
  total: number;
  nextCursor: string | null;
  /** With an open filter: matches left out because their hours are unknown; else undefined. */
  excludedUnknownHours?: number;
  /** km from the search's point per business id; null without near. */
  distances: Map<string, number> | null;
}

/**
 * A category search within the circle of `near` (category or city optional): nearest first with
 * sort=distance (ties in ranking order), else the search's own order; offset paging, as a circle
 * is bounded (NEAR_COUNT_CAP).
 */
export async function nearPage(
  db: Db,
  params: {
    categorySlug: string | null;
    cityId: number | null;
    /** Only this country's listings (upper-case ISO code); null: every country. */
    country?: string | null | undefined;
    sort: CategorySort | "distance";
    limit: number;
    cursor?: string | undefined;
    whereWhen: WhereWhen;
  },
): Promise<FilteredPage<BusinessRecord>> {
  const { near, at, openKey } = params.whereWhen;
  if (!near) throw new Error("nearPage needs near");
  const country = params.country ?? null;
  // Without a country the fingerprint is what it was before country existed: its cursors stay valid.
  const scope = [params.categorySlug, params.cityId, near.point, near.radiusKm, params.sort, openKey];
  const listing = {
    fingerprint: listingFingerprint(["near", ...scope, ...(country === null ? [] : ["country", country])]),
    maxOffset: NEAR_COUNT_CAP,
  };
  const offset = params.cursor ? decodeOffsetCursor(params.cursor, listing) : 0;
  const found = await businessesWithinRadius(db, {
    point: near.point,
    radiusKm: near.radiusKm,
    ...(params.categorySlug ? { category: params.categorySlug } : {}),
    ...(params.cityId === null ? {} : { cityId: params.cityId }),
    ...(country === null ? {} : { country }),
    ...(at ? { openAt: at } : {}),
    limit: Math.min(params.limit, NEAR_LIMIT_MAX),
    offset,
    ...(params.sort === "distance" ? {} : { order: searchOrder(params.sort) }),
  });
  const records = await recordsInOrder(
    db,
    found.businesses.map((business) => business.id),
  );
  return {
    records,
    total: found.totalMatches,
    nextCursor: nextOffsetCursor({ offset, returned: records.length, total: found.totalMatches }, listing),
    ...(found.excludedUnknownHours === null ? {} : { excludedUnknownHours: found.excludedUnknownHours }),
    distances: new Map(found.businesses.map((business) => [business.id, business.distanceKm])),
  };
}

/** What filterCandidates keeps of a ranked candidate list. */
export interface FilteredCandidates<T> {
  kept: T[];
  /** All matches, when `kept` is only their first part (a plain keyword search reads only up to its page); else kept.length. */
  totalMatches?: number;
  excludedUnknownHours?: number;
  distances: Map<string, number> | null;
}

/**
 * Ranked candidates (keyword relevance, the completeness listicle) with the where-when filters
 * applied, in one query over their ids: those open at the instant (each in its city's zone; unknown
 * hours left out and counted) and within the circle, in their order, or nearest first with
 * sort=distance (equal distances keep their order).
 */
export async function filterCandidates<T extends { id: string }>(
  db: Db,
  candidates: readonly T[],
  whereWhen: WhereWhen,
  byDistance: boolean,
): Promise<FilteredCandidates<T>> {
  const { at, near } = whereWhen;
  if (candidates.length === 0) return { kept: [], ...(at ? { excludedUnknownHours: 0 } : {}), distances: near ? new Map() : null };
  const geometry = near ? await nearGeometry(db) : null;
  const terms = near ? nearTerms(near.point, near.radiusKm) : null;
  const yes = sql<boolean>`true`;
  const rows = await db
    .select({
      id: businesses.id,
      open: at ? sql<boolean>`coalesce(${openAnyCityCondition(at)}, false)` : yes,
      unknownHours: sql<boolean>`${unknownHoursCondition()}`,
      within: geometry && terms ? sql<boolean>`coalesce(${geometry.within(terms)}, false)` : yes,
      distanceKm: geometry && terms ? geometry.distanceKm(terms) : sql<number>`0`,
    })
    .from(businesses)
    .where(
      inArray(
        businesses.id,
        candidates.map((candidate) => candidate.id),
      ),
    );
  const facts = new Map(rows.map((row) => [row.id, row]));
  const inCircle = candidates.filter((candidate) => facts.get(candidate.id)?.within === true);
  const kept = inCircle.filter((candidate) => facts.get(candidate.id)?.open === true);
  const distances = near ? new Map(kept.map((candidate) => [candidate.id, Number(facts.get(candidate.id)!.distanceKm)])) : null;
  if (byDistance && distances) {
    const rank = new Map(kept.map((candidate, index) => [candidate.id, index]));
    kept.sort((a, b) => distances.get(a.id)! - distances.get(b.id)! || rank.get(a.id)! - rank.get(b.id)!);
  }
  const excludedUnknownHours = at ? inCircle.filter((candidate) => facts.get(candidate.id)?.unknownHours === true).length : undefined;
  return { kept, ...(excludedUnknownHours === undefined ? {} : { excludedUnknownHours }), distances };
}

/** A page of filtered candidates at the cursor's offset (at most the listing's candidate cap). */
export function candidatesPage<T>(
  filtered: FilteredCandidates<T>,
  params: { limit: number; cursor?: string | undefined; listing: OffsetListing },
): FilteredPage<T> {
  const offset = params.cursor ? decodeOffsetCursor(params.cursor, params.listing) : 0;
  const records = filtered.kept.slice(offset, offset + params.limit);
  const total = filtered.totalMatches ?? filtered.kept.length;
  return {
    records,
    total,
    nextCursor: nextOffsetCursor({ offset, returned: records.length, total }, params.listing),
    ...(filtered.excludedUnknownHours === undefined ? {} : { excludedUnknownHours: filtered.excludedUnknownHours }),
    distances: filtered.distances,
  };
}
