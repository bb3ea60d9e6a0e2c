import { and, eq, sql, type SQL } from "drizzle-orm";
import { businesses, PLAN_TIERS, type Db, type PlanTier } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { openCondition } from "./open-filter";
import { NEAR_COUNT_CAP, NEAR_LIMIT_MAX, type NearPoint } from "./where-when-params";

/*
 * Near a point, with PostgreSQL's cube + earthdistance (PGlite and stock PostgreSQL ship both; no
 * PostGIS) and the GiST index businesses_earth_idx on ll_to_earth(lat, lng) of active businesses
 * (migration 0019). A radius is an index-served box test (earth_box @>) refined by the exact
 * great-circle distance; nearest-first walks the same index in distance order (<->, KNN), reading
 * about `limit` entries. Distances are great-circle kilometres on a sphere of 6,371 km, as the
 * gazetteer's distanceKm (earthdistance's own sphere is 6,378.168 km: its distance is rescaled).
 */

export const EARTH_RADIUS_KM = 6371;

/** A point as earthdistance's earth type. */
function earthPoint(point: NearPoint): SQL {
  return sql`ll_to_earth(${point.lat}::float8, ${point.lng}::float8)`;
}

/** The business's position as businesses_earth_idx indexes it: the query must use this very expression. */
export const BUSINESS_EARTH: SQL = sql`ll_to_earth(${businesses.lat}, ${businesses.lng})`;

/** Kilometres as earthdistance's units (metres on its own sphere). */
function earthUnits(km: number): SQL {
  return sql`(${km}::float8 / ${EARTH_RADIUS_KM}::float8 * earth())`;
}

/** Great-circle kilometres from the point to the business (NULL without coordinates). */
export function distanceKmSql(point: NearPoint): SQL<number> {
  return sql<number>`(earth_distance(${earthPoint(point)}, ${BUSINESS_EARTH}) / earth() * ${EARTH_RADIUS_KM}::float8)`;
}

/** Businesses within `radiusKm` of the point: the index's box test, then the exact distance. */
export function withinRadiusCondition(point: NearPoint, radiusKm: number): SQL {
  return sql`(earth_box(${earthPoint(point)}, ${earthUnits(radiusKm)}) @> ${BUSINESS_EARTH}
    and earth_distance(${earthPoint(point)}, ${BUSINESS_EARTH}) <= ${earthUnits(radiusKm)})`;
}

/** Nearest first, in the index's order (KNN): the chord distance orders as the great-circle one does. */
export function nearestFirstOrder(point: NearPoint): SQL {
  return sql`${BUSINESS_EARTH} <-> ${earthPoint(point)}`;
}

/**
 * Rows read past a page in distance order, so that businesses at exactly the same distance (one
 * building's shops share coordinates) are ordered by the spec's ranking even across the page's
 * edge. The index walk stays in pure distance order (a second ORDER BY key would make PostgreSQL
 * read and sort every business in the circle: 13,742 rows for 10 km around Shanghai at 1M).
 */
const TIE_SLACK = 20;
const TIER_RANK = new Map<string, number>(PLAN_TIERS.map((tier, rank) => [tier, rank]));

/** Distance, then the spec's ranking order (services/search/ranking.ts RANKING_ORDER: tier, internal score, name, id). */
function byDistanceThenRanking(a: RankedNearby, b: RankedNearby): number {
  return (
    a.distanceKm - b.distanceKm ||
    TIER_RANK.get(a.planTier)! - TIER_RANK.get(b.planTier)! ||
    b.visibilityScore - a.visibilityScore ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** A business near the point: enough to fetch its listing, and its distance. */
export interface NearbyBusiness {
  id: string;
  slug: string;
  name: string;
  categorySlug: string;
  cityId: number;
  lat: number;
  lng: number;
  /** Great-circle kilometres from the point, unrounded (roundDistanceKm for output). */
  distanceKm: number;
}

export interface NearFilters {
  /** A category slug (already resolved); omitted: every category. */
  category?: string;
  /** Only businesses open at this instant, each in its city's zone (unknown hours left out). */
  openAt?: Date;
}

/** The ranking keys ride along for the tie order only; visibilityScore is internal and never leaves this file. */
type RankedNearby = NearbyBusiness & { planTier: PlanTier; visibilityScore: number };

const NEARBY_COLUMNS = {
  planTier: businesses.planTier,
  visibilityScore: businesses.visibilityScore,
  id: businesses.id,
  slug: businesses.slug,
  name: businesses.name,
  categorySlug: businesses.categorySlug,
  cityId: businesses.cityId,
  lat: sql<number>`${businesses.lat}`,
  lng: sql<number>`${businesses.lng}`,
};

function nearMatches(filters: NearFilters, extra: SQL): SQL {
  return and(
    servableCondition(),
    filters.category ? eq(businesses.categorySlug, filters.category) : undefined,
    filters.openAt ? openCondition(filters.openAt) : undefined,
    extra,
  )!;
}

/** `limit` rows from `offset` of the matches in distance order, ties in ranking order. */
async function nearestPage(db: Db, point: NearPoint, matches: SQL, limit: number, offset: number): Promise<NearbyBusiness[]> {
  const pageEnd = offset + Math.min(Math.max(1, limit), NEAR_LIMIT_MAX);
  const rows = await db
    .select({ ...NEARBY_COLUMNS, distanceKm: distanceKmSql(point) })
    .from(businesses)
    .where(matches)
    .orderBy(nearestFirstOrder(point))
    .limit(pageEnd + TIE_SLACK);
  return rows
    .map((row) => ({ ...row, lat: Number(row.lat), lng: Number(row.lng), distanceKm: Number(row.distanceKm) }))
    .sort(byDistanceThenRanking)
    .slice(offset, pageEnd)
    .map(({ planTier: _tier, visibilityScore: _score, ...business }) => business);
}

/**
 * How many match, counting no further than NEAR_COUNT_CAP: a wide circle in a dense city holds
 * thousands (13,742 within 10 km of Shanghai's centre at 1M, each a heap visit and a distance:
 * hundreds of ms), and "500 or more" is all a caller does with such a number.
 */
async function cappedCount(db: Db, matches: SQL, cap: number): Promise<{ totalMatches: number; totalMatchesCapped: boolean }> {
  const inner = db
    .select({ one: sql`1` })
    .from(businesses)
    .where(matches)
    .limit(cap + 1)
    .as("capped");
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(inner);
  const n = Number(row?.n ?? 0);
  return { totalMatches: Math.min(n, cap), totalMatchesCapped: n > cap };
}

/**
 * Servable businesses within `radiusKm` of the point, nearest first (exact ties: the ranking
 * order), at most `limit` (1..NEAR_LIMIT_MAX) after `offset` (0..NEAR_COUNT_CAP), and how many
 * match: exact up to `countCap` (default and at most NEAR_COUNT_CAP), else the cap with
 * totalMatchesCapped true.
 */
export async function businessesWithinRadius(
  db: Db,
  params: NearFilters & { point: NearPoint; radiusKm: number; limit: number; offset?: number; countCap?: number },
): Promise<{ businesses: NearbyBusiness[]; totalMatches: number; totalMatchesCapped: boolean }> {
  const matches = nearMatches(params, withinRadiusCondition(params.point, params.radiusKm));
  const offset = Math.min(Math.max(0, params.offset ?? 0), NEAR_COUNT_CAP);
  const cap = Math.min(Math.max(1, params.countCap ?? NEAR_COUNT_CAP), NEAR_COUNT_CAP);
  const [page, count] = await Promise.all([nearestPage(db, params.point, matches, params.limit, offset), cappedCount(db, matches, cap)]);
  return { businesses: page, ...count };
}

/**
 * The `limit` servable businesses nearest the point (optionally of one category, open at an
 * instant), nearest first (exact ties: the ranking order), none farther than `maxRadiusKm`: the
 * bound keeps a rare category's index walk from covering the whole world.
 */
export function nearestBusinesses(db: Db, params: NearFilters & { point: NearPoint; limit: number; maxRadiusKm: number }): Promise<NearbyBusiness[]> {
  return nearestPage(db, params.point, nearMatches(params, withinRadiusCondition(params.point, params.maxRadiusKm)), params.limit, 0);
}

/** A distance as listings show it: kilometres to the metre (3 decimals). */
export function roundDistanceKm(km: number): number {
  return Math.round(km * 1_000) / 1_000;
}
