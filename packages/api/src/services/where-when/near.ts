import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { businesses, type Db } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { openCondition } from "./open-filter";
import { NEAR_LIMIT_MAX, type NearPoint } from "./where-when-params";

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

/** The spec's ranking order (services/search/ranking.ts RANKING_ORDER): what breaks distance ties. */
const RANKING_TIEBREAK: SQL[] = [asc(businesses.planTier), desc(businesses.visibilityScore), asc(businesses.name), asc(businesses.id)];

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

const NEARBY_COLUMNS = {
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

/**
 * Servable businesses within `radiusKm` of the point, nearest first (ties: the ranking order),
 * at most `limit` (1..NEAR_LIMIT_MAX) after `offset`, and how many match in all.
 */
export async function businessesWithinRadius(
  db: Db,
  params: NearFilters & { point: NearPoint; radiusKm: number; limit: number; offset?: number },
): Promise<{ businesses: NearbyBusiness[]; totalMatches: number }> {
  const matches = nearMatches(params, withinRadiusCondition(params.point, params.radiusKm));
  const distance = distanceKmSql(params.point);
  const [rows, [count]] = await Promise.all([
    db
      .select({ ...NEARBY_COLUMNS, distanceKm: distance })
      .from(businesses)
      .where(matches)
      .orderBy(distance, ...RANKING_TIEBREAK)
      .limit(Math.min(Math.max(1, params.limit), NEAR_LIMIT_MAX))
      .offset(params.offset ?? 0),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(businesses)
      .where(matches),
  ]);
  return { businesses: rows.map(asNearby), totalMatches: Number(count?.n ?? 0) };
}

/**
 * The `limit` servable businesses nearest the point (optionally of one category, open at an
 * instant), nearest first, none farther than `maxRadiusKm`: the bound keeps a rare category's
 * index walk from covering the whole world.
 */
export async function nearestBusinesses(db: Db, params: NearFilters & { point: NearPoint; limit: number; maxRadiusKm: number }): Promise<NearbyBusiness[]> {
  const rows = await db
    .select({ ...NEARBY_COLUMNS, distanceKm: distanceKmSql(params.point) })
    .from(businesses)
    .where(nearMatches(params, withinRadiusCondition(params.point, params.maxRadiusKm)))
    .orderBy(nearestFirstOrder(params.point), ...RANKING_TIEBREAK)
    .limit(Math.min(Math.max(1, params.limit), NEAR_LIMIT_MAX));
  return rows.map(asNearby);
}

function asNearby(row: Omit<NearbyBusiness, "distanceKm"> & { distanceKm: number }): NearbyBusiness {
  return { ...row, lat: Number(row.lat), lng: Number(row.lng), distanceKm: Number(row.distanceKm) };
}

/** A distance as listings show it: kilometres to the metre (3 decimals). */
export function roundDistanceKm(km: number): number {
  return Math.round(km * 1_000) / 1_000;
}
