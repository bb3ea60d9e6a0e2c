import { and, eq, sql, type SQL } from "drizzle-orm";
import { businesses, PLAN_TIERS, preparedQuery, type Db, type PlanTier } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { statementsPerDatabase } from "../shared/statements-per-database";
import { greatCircleKm, nearGeometry, type NearGeometry, type NearTerms } from "./near-geometry";
import { openAnyCityCondition, unknownHoursCondition } from "./open-filter";
import { NEAR_COUNT_AHEAD, NEAR_COUNT_CAP, NEAR_LIMIT_MAX, type NearPoint } from "./where-when-params";

/*
 * Businesses near a point: within a radius, nearest first or in a search's own order, with their
 * count (the distance terms are near-geometry.ts's). Each query here is built once per database and
 * shape (which filters it names, its order) with placeholders for its values, and runs prepared:
 * building these distance expressions per call was a real share of a radius search's CPU, and
 * PostgreSQL reuses a generic plan instead of planning the distance expressions on every call.
 * Nearest first reads a page and the count's cap at most, the exact distance computed in node
 * (greatCircleKm).
 */

/** The terms of this file's statements, bound at each call (NearValues names them). */
const STATEMENT_TERMS: NearTerms = {
  lat: sql`${sql.placeholder("lat")}::float8`,
  lng: sql`${sql.placeholder("lng")}::float8`,
  radiusKm: sql`${sql.placeholder("radiusKm")}::float8`,
};

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
  /** Only this country's businesses (upper-case ISO code, as listings carry it); omitted: every country. */
  country?: string;
  /** Only businesses open at this instant, each in its city's zone (unknown hours left out, and counted). */
  openAt?: Date;
}

/** The ranking keys ride along for the tie order only; visibilityScore is internal and never leaves this file. */
type RankedNearby = NearbyBusiness & { planTier: PlanTier; visibilityScore: number };

/**
 * What orders a nearby business, all carried in businesses_earth_idx (migration 0027): the nearest
 * walk reads the index alone. Named as RankedNearby names them: the walk reads raw rows (no drizzle
 * row mapping, which was a fifth of a radius search's CPU in node at 101 rows).
 */
const NEARBY_COLUMNS = sql.join(
  [
    sql`${businesses.planTier} as "planTier"`,
    sql`${businesses.visibilityScore} as "visibilityScore"`,
    sql`${businesses.id} as "id"`,
    sql`${businesses.name} as "name"`,
    sql`${businesses.categorySlug} as "categorySlug"`,
    sql`${businesses.cityId} as "cityId"`,
    sql`${businesses.lat} as "lat"`,
    sql`${businesses.lng} as "lng"`,
  ],
  sql`, `,
);

/** Which filters a statement names (its values are bound at each call: NearValues). */
export interface NearShape {
  category: boolean;
  city: boolean;
  country: boolean;
  open: boolean;
}

function shapeOf(filters: NearFilters): NearShape {
  const given = (value: unknown) => value !== undefined;
  return { category: given(filters.category), city: given(filters.cityId), country: given(filters.country), open: given(filters.openAt) };
}

/** The values a near statement takes at each call, by placeholder name. */
type NearValues = Record<string, string | number>;

function valuesOf(point: NearPoint, radiusKm: number, filters: NearFilters): NearValues {
  return {
    lat: point.lat,
    lng: point.lng,
    radiusKm,
    ...(filters.category === undefined ? {} : { category: filters.category }),
    ...(filters.cityId === undefined ? {} : { cityId: filters.cityId }),
    ...(filters.country === undefined ? {} : { country: filters.country }),
    ...(filters.openAt === undefined ? {} : { at: filters.openAt.toISOString() }),
  };
}

/** The search's own filters, where (`place`: the circle, or the box around it), without the open filter (the unknown-hours count needs it bare). */
function searchIn(shape: NearShape, place: SQL): SQL {
  return and(
    servableCondition(),
    shape.category ? eq(businesses.categorySlug, sql.placeholder("category")) : undefined,
    shape.city ? eq(businesses.cityId, sql.placeholder("cityId")) : undefined,
    shape.country ? eq(businesses.country, sql.placeholder("country")) : undefined,
    place,
  )!;
}

/** With an open filter, only businesses open at the instant, each in its city's zone. */
function openWhenAsked(shape: NearShape, condition: SQL): SQL {
  return shape.open ? and(condition, openAnyCityCondition(sql.placeholder("at")))! : condition;
}

type NearbyRow = Omit<RankedNearby, "lat" | "lng" | "distanceKm"> & { lat: unknown; lng: unknown };

/**
 * A row of the nearest walk, its distance computed here (the walk reads no distance: see
 * nearestWalk). The driver's fresh row is completed in place: a copy of each of the walk's 101
 * rows was 4% of a radius search's CPU.
 */
function nearbyFrom(point: NearPoint) {
  return (row: NearbyRow): RankedNearby => {
    const nearby = row as RankedNearby;
    nearby.lat = Number(row.lat);
    nearby.lng = Number(row.lng);
    nearby.distanceKm = greatCircleKm(point, nearby);
    return nearby;
  };
}

/** A row of an ordered page, with the distance PostgreSQL computed. */
function orderedFrom(row: NearbyRow & { distanceKm: unknown }): RankedNearby {
  return { ...row, lat: Number(row.lat), lng: Number(row.lng), distanceKm: Number(row.distanceKm) };
}

function withoutRankingKeys({ planTier: _tier, visibilityScore: _score, ...business }: RankedNearby): NearbyBusiness {
  return business;
}

/**
 * The box around the circle, nearest first, `rows` of them (placeholders: lat, lng, radiusKm,
 * rows, and the shape's own). Without an open filter it reads businesses_earth_idx alone (0027).
 */
export function nearestWalkQuery(geometry: NearGeometry, shape: NearShape): SQL {
  const where = openWhenAsked(shape, searchIn(shape, geometry.box(STATEMENT_TERMS)));
  return sql`select ${NEARBY_COLUMNS} from ${businesses} where ${where} order by ${geometry.nearestFirst(STATEMENT_TERMS)} limit ${sql.placeholder("rows")}`;
}

/** A statement of this file on one database: raw rows, prepared on each connection as it first runs there. */
function statementOn<T>(db: Db, query: SQL): { execute(values: NearValues): Promise<T[]> } {
  const run = preparedQuery<T>(query);
  return { execute: (values) => run(db, values) };
}

/** The statements of one database and shape; `ordered` per order (search/ranking.ts's constant orders). */
function buildStatements(db: Db, geometry: NearGeometry, shape: NearShape) {
  const circle = searchIn(shape, geometry.within(STATEMENT_TERMS));
  const matches = openWhenAsked(shape, circle);
  // How many, counting no further than the cap (the caller passes cap + 1 as `upTo`).
  const cappedCount = (condition: SQL) =>
    statementOn<{ n: number }>(
      db,
      sql`select count(*)::int as "n" from (select 1 from ${businesses} where ${condition} limit ${sql.placeholder("upTo")}) as capped`,
    );
  const ordered = (order: readonly SQL[]) =>
    statementOn<NearbyRow & { distanceKm: unknown }>(
      db,
      sql`select ${NEARBY_COLUMNS}, ${geometry.distanceKm(STATEMENT_TERMS)} as "distanceKm" from ${businesses} where ${matches}
        order by ${sql.join([...order], sql`, `)} limit ${sql.placeholder("rows")} offset ${sql.placeholder("offset")}`,
    );
  return {
    // The box around the circle, nearest first: the exact distance is nearestWalk's (in node, once
    // per row, where PostgreSQL's generic plan computed both points' positions again for every row:
    // 2.4 ms for 30 rows, 1.0 ms without).
    nearest: statementOn<NearbyRow>(db, nearestWalkQuery(geometry, shape)),
    count: cappedCount(matches),
    unknownHoursCount: shape.open ? cappedCount(and(circle, unknownHoursCondition())!) : null,
    orderedFor: ordered,
    ordered: new WeakMap<readonly SQL[], ReturnType<typeof ordered>>(),
  };
}

type NearStatements = ReturnType<typeof buildStatements>;

const nearStatementsOf = statementsPerDatabase<NearStatements>();

async function statementsFor(db: Db, filters: NearFilters): Promise<NearStatements> {
  const geometry = await nearGeometry(db);
  const shape = shapeOf(filters);
  const key = `${shape.category ? "c" : ""}${shape.city ? "t" : ""}${shape.country ? "n" : ""}${shape.open ? "o" : ""}`;
  return nearStatementsOf(db, key, () => buildStatements(db, geometry, shape));
}

/** Each order a caller passes (search/ranking.ts's constants) gets its own statement. */
function orderedStatement(statements: NearStatements, order: readonly SQL[]) {
  let statement = statements.ordered.get(order);
  if (!statement) statements.ordered.set(order, (statement = statements.orderedFor(order)));
  return statement;
}

/**
 * `limit` rows from `offset` of the matches in distance order (ties in ranking order), and how
 * many match, counting no further than `cap`: one walk of the index nearest first, over the box
 * around the circle. Nearest first, the businesses within the radius come before every one beyond
 * it, so a walk of cap + 1 rows counts the circle exactly up to the cap, and one that ends early
 * (or reaches beyond the radius) has seen all of it.
 */
async function nearestWalk(
  statements: NearStatements,
  values: NearValues,
  point: NearPoint,
  radiusKm: number,
  page: { limit: number; offset: number; cap: number },
): Promise<{ businesses: NearbyBusiness[]; count: number; capped: boolean }> {
  const pageEnd = page.offset + Math.min(Math.max(1, page.limit), NEAR_LIMIT_MAX);
  const rows = await statements.nearest.execute({ ...values, rows: Math.max(pageEnd + TIE_SLACK, page.cap + 1) });
  const inCircle = rows.map(nearbyFrom(point)).filter((business) => business.distanceKm <= radiusKm);
  return {
    businesses: inCircle.sort(byDistanceThenRanking).slice(page.offset, pageEnd).map(withoutRankingKeys),
    count: Math.min(inCircle.length, page.cap),
    capped: inCircle.length > page.cap,
  };
}

/** `limit` rows from `offset` of the matches in the search's own order (`order`: RANKING_ORDER, RATING_ORDER). */
async function orderedPage(statements: NearStatements, values: NearValues, order: readonly SQL[], limit: number, offset: number): Promise<NearbyBusiness[]> {
  const rows = await orderedStatement(statements, order).execute({ ...values, rows: Math.min(Math.max(1, limit), NEAR_LIMIT_MAX), offset });
  return rows.map(orderedFrom).map(withoutRankingKeys);
}

/**
 * How many match, counting no further than `cap`: a wide circle in a dense city holds thousands
 * (13,742 within 10 km of Shanghai's centre at 1M, each a heap visit and a distance: hundreds of
 * ms), and "500 or more" is all a caller does with such a number.
 */
async function cappedCount(statement: NearStatements["count"], values: NearValues, cap: number): Promise<{ count: number; capped: boolean }> {
  const [row] = await statement.execute({ ...values, upTo: cap + 1 });
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
  params: NearFilters & { point: NearPoint; radiusKm: number; limit: number; offset?: number; countCap?: number; order?: readonly SQL[] },
): Promise<NearResult> {
  const statements = await statementsFor(db, params);
  const values = valuesOf(params.point, params.radiusKm, params);
  const offset = Math.min(Math.max(0, params.offset ?? 0), NEAR_COUNT_CAP);
  const cap = Math.min(Math.max(1, params.countCap ?? offset + NEAR_COUNT_AHEAD), NEAR_COUNT_CAP);
  const order = params.order;
  const [page, unknown] = await Promise.all([
    order
      ? Promise.all([orderedPage(statements, values, order, params.limit, offset), cappedCount(statements.count, values, cap)]).then(([businesses, count]) => ({
          businesses,
          ...count,
        }))
      : nearestWalk(statements, values, params.point, params.radiusKm, { limit: params.limit, offset, cap }),
    statements.unknownHoursCount ? cappedCount(statements.unknownHoursCount, values, cap) : null,
  ]);
  return { businesses: page.businesses, totalMatches: page.count, totalMatchesCapped: page.capped, excludedUnknownHours: unknown?.count ?? null };
}
