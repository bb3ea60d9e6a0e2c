import { and, eq, sql, type SQL } from "drizzle-orm";
import { businesses, PLAN_TIERS, rowsOf, type Db, type PlanTier } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { openCondition, unknownHoursCondition } from "./open-filter";
import { NEAR_COUNT_AHEAD, NEAR_COUNT_CAP, NEAR_LIMIT_MAX, type NearPoint } from "./where-when-params";

/*
 * Each query here runs prepared (.prepare): postgres-js keeps one statement per query text on a
 * connection, and PostgreSQL reuses its plan instead of planning the distance expressions on every
 * call (a 1 km count around Shanghai at 1M: 7.8 ms of planning each time, 0.02 ms with the reused
 * generic plan, which also ran faster). The names are labels; the text is the key.
 *
 * Near a point, with PostgreSQL's cube + earthdistance (stock PostgreSQL ships both; no PostGIS)
 * and the GiST index businesses_earth_idx on ll_to_earth(lat, lng) of active businesses (migration
 * 0019). A radius is an index-served box test (earth_box @>) refined by the exact great-circle
 * distance; nearest-first walks the same index in distance order (<->, KNN), reading about `limit`
 * entries. Distances are great-circle kilometres on a sphere of 6,371 km, as the gazetteer's
 * distanceKm (earthdistance's own sphere is 6,378.168 km: its distance is rescaled).
 *
 * The embedded database (PGlite) runs without cube + earthdistance (PGLITE_EXTENSIONS in
 * @directory/db says why): there the same great-circle distance is the haversine formula in plain
 * SQL, the radius a latitude band refined by it, and nearest-first a sort. No index serves that,
 * which an embedded, single-process database of demo or one-extract size does not need.
 */

export const EARTH_RADIUS_KM = 6371;
/** Kilometres in one degree of latitude on that sphere. */
const KM_PER_DEGREE = (Math.PI * EARTH_RADIUS_KM) / 180;

/** How a database measures distance from a point: the earthdistance index's terms, or plain SQL. */
interface NearGeometry {
  /** Great-circle kilometres from the point to the business (NULL without coordinates). */
  distanceKm(point: NearPoint): SQL<number>;
  /** Businesses within `radiusKm` of the point. */
  within(point: NearPoint, radiusKm: number): SQL;
  /** Nearest first. */
  nearestFirst(point: NearPoint): SQL;
}

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

const EARTH_GEOMETRY: NearGeometry = {
  distanceKm: (point) => sql<number>`(earth_distance(${earthPoint(point)}, ${BUSINESS_EARTH}) / earth() * ${EARTH_RADIUS_KM}::float8)`,
  // The index's box test, then the exact distance.
  within: (point, radiusKm) => sql`(earth_box(${earthPoint(point)}, ${earthUnits(radiusKm)}) @> ${BUSINESS_EARTH}
    and earth_distance(${earthPoint(point)}, ${BUSINESS_EARTH}) <= ${earthUnits(radiusKm)})`,
  // The chord distance the index orders by orders as the great-circle one does.
  nearestFirst: (point) => sql`${BUSINESS_EARTH} <-> ${earthPoint(point)}`,
};

/** The haversine formula in SQL, on the same sphere. */
function haversineKmSql(point: NearPoint): SQL<number> {
  const lat = sql`radians(${businesses.lat})`;
  const lat0 = sql`radians(${point.lat}::float8)`;
  const h = sql`power(sin((${lat} - ${lat0}) / 2), 2) + cos(${lat0}) * cos(${lat}) * power(sin(radians(${businesses.lng} - ${point.lng}::float8) / 2), 2)`;
  return sql<number>`(2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1::float8, sqrt(${h}))))`;
}

const PLAIN_GEOMETRY: NearGeometry = {
  distanceKm: haversineKmSql,
  within: (point, radiusKm) => {
    const band = radiusKm / KM_PER_DEGREE;
    return sql`(${businesses.lat} between ${point.lat - band}::float8 and ${point.lat + band}::float8 and ${haversineKmSql(point)} <= ${radiusKm}::float8)`;
  },
  nearestFirst: (point) => sql`${haversineKmSql(point)}`,
};

/** Whether each database has earthdistance, asked once (migration 0019 installs it where it can). */
const geometries = new WeakMap<Db, Promise<NearGeometry>>();

export function nearGeometry(db: Db): Promise<NearGeometry> {
  let geometry = geometries.get(db);
  if (!geometry) {
    geometry = db
      .execute(sql`select exists (select 1 from pg_extension where extname = 'earthdistance') as "has"`)
      .then((result) => (rowsOf<{ has: boolean }>(result)[0]?.has ? EARTH_GEOMETRY : PLAIN_GEOMETRY));
    geometries.set(db, geometry);
    geometry.catch(() => geometries.delete(db));
  }
  return geometry;
}

/** Great-circle kilometres from the point to the business (NULL without coordinates), in this database's terms. */
export async function distanceKmSql(db: Db, point: NearPoint): Promise<SQL<number>> {
  return (await nearGeometry(db)).distanceKm(point);
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
  /** Only this city's businesses; omitted: every city. */
  cityId?: number;
  /** Only businesses open at this instant, each in its city's zone (unknown hours left out, and counted). */
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

/** The search's own condition within the circle, without the open filter (the unknown-hours count needs it bare). */
function inCircle(filters: NearFilters, within: SQL): SQL {
  return and(
    servableCondition(),
    filters.category ? eq(businesses.categorySlug, filters.category) : undefined,
    filters.cityId === undefined ? undefined : eq(businesses.cityId, filters.cityId),
    within,
  )!;
}

function withOpen(matches: SQL, filters: NearFilters): SQL {
  return filters.openAt ? and(matches, openCondition(filters.openAt))! : matches;
}

type NearbyRow = Omit<RankedNearby, "lat" | "lng" | "distanceKm"> & { lat: unknown; lng: unknown; distanceKm: unknown };

function toNearby(row: NearbyRow): RankedNearby {
  return { ...row, lat: Number(row.lat), lng: Number(row.lng), distanceKm: Number(row.distanceKm) };
}

function withoutRankingKeys({ planTier: _tier, visibilityScore: _score, ...business }: RankedNearby): NearbyBusiness {
  return business;
}

/** `limit` rows from `offset` of the matches in distance order, ties in ranking order. */
async function nearestPage(db: Db, point: NearPoint, matches: SQL, limit: number, offset: number): Promise<NearbyBusiness[]> {
  const geometry = await nearGeometry(db);
  const pageEnd = offset + Math.min(Math.max(1, limit), NEAR_LIMIT_MAX);
  const rows = await db
    .select({ ...NEARBY_COLUMNS, distanceKm: geometry.distanceKm(point) })
    .from(businesses)
    .where(matches)
    .orderBy(geometry.nearestFirst(point))
    .limit(pageEnd + TIE_SLACK)
    .prepare("near_nearest_page")
    .execute();
  return rows.map(toNearby).sort(byDistanceThenRanking).slice(offset, pageEnd).map(withoutRankingKeys);
}

/** `limit` rows from `offset` of the matches in the search's own order (`order`: RANKING_ORDER, RATING_ORDER). */
async function orderedPage(db: Db, point: NearPoint, matches: SQL, order: SQL[], limit: number, offset: number): Promise<NearbyBusiness[]> {
  const geometry = await nearGeometry(db);
  const rows = await db
    .select({ ...NEARBY_COLUMNS, distanceKm: geometry.distanceKm(point) })
    .from(businesses)
    .where(matches)
    .orderBy(...order)
    .limit(Math.min(Math.max(1, limit), NEAR_LIMIT_MAX))
    .offset(offset)
    .prepare("near_ordered_page")
    .execute();
  return rows.map(toNearby).map(withoutRankingKeys);
}

/**
 * How many match, counting no further than `cap`: a wide circle in a dense city holds thousands
 * (13,742 within 10 km of Shanghai's centre at 1M, each a heap visit and a distance: hundreds of
 * ms), and "500 or more" is all a caller does with such a number.
 */
async function cappedCount(db: Db, matches: SQL, cap: number): Promise<{ count: number; capped: boolean }> {
  const inner = db
    .select({ one: sql`1` })
    .from(businesses)
    .where(matches)
    .limit(cap + 1)
    .as("capped");
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(inner)
    .prepare("near_capped_count")
    .execute();
  const n = Number(row?.n ?? 0);
  return { count: Math.min(n, cap), capped: n > cap };
}

export interface NearResult {
  businesses: NearbyBusiness[];
  /** Matches, exact up to the count cap, else the cap (totalMatchesCapped). */
  totalMatches: number;
  totalMatchesCapped: boolean;
  /** With openAt: matches in the circle left out because their hours are unknown (capped alike); else null. */
  excludedUnknownHours: number | null;
}

/**
 * Servable businesses within `radiusKm` of the point, nearest first (exact ties: the ranking
 * order) or in `order` (the search's own), at most `limit` (1..NEAR_LIMIT_MAX) after `offset`
 * (0..NEAR_COUNT_CAP), and how many match: exact up to `countCap` (default NEAR_COUNT_AHEAD past
 * the offset; at most NEAR_COUNT_CAP), else the cap with totalMatchesCapped true.
 */
export async function businessesWithinRadius(
  db: Db,
  params: NearFilters & { point: NearPoint; radiusKm: number; limit: number; offset?: number; countCap?: number; order?: SQL[] },
): Promise<NearResult> {
  const circle = inCircle(params, (await nearGeometry(db)).within(params.point, params.radiusKm));
  const matches = withOpen(circle, params);
  const offset = Math.min(Math.max(0, params.offset ?? 0), NEAR_COUNT_CAP);
  const cap = Math.min(Math.max(1, params.countCap ?? offset + NEAR_COUNT_AHEAD), NEAR_COUNT_CAP);
  const [page, count, unknown] = await Promise.all([
    params.order ? orderedPage(db, params.point, matches, params.order, params.limit, offset) : nearestPage(db, params.point, matches, params.limit, offset),
    cappedCount(db, matches, cap),
    params.openAt ? cappedCount(db, and(circle, unknownHoursCondition())!, cap) : null,
  ]);
  return { businesses: page, totalMatches: count.count, totalMatchesCapped: count.capped, excludedUnknownHours: unknown?.count ?? null };
}

/**
 * The `limit` servable businesses nearest the point (optionally of one category, open at an
 * instant), nearest first (exact ties: the ranking order), none farther than `maxRadiusKm`: the
 * bound keeps a rare category's index walk from covering the whole world.
 */
export async function nearestBusinesses(db: Db, params: NearFilters & { point: NearPoint; limit: number; maxRadiusKm: number }): Promise<NearbyBusiness[]> {
  const matches = withOpen(inCircle(params, (await nearGeometry(db)).within(params.point, params.maxRadiusKm)), params);
  return nearestPage(db, params.point, matches, params.limit, 0);
}

/** A distance as listings show it: kilometres to the metre (3 decimals). */
export function roundDistanceKm(km: number): number {
  return Math.round(km * 1_000) / 1_000;
}
