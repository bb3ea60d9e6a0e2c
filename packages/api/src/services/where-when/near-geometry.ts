import { sql, type SQL } from "drizzle-orm";
import { businesses, perDatabase, rowsOf, type Db } from "@directory/db";
import type { NearPoint } from "./where-when-params";

/*
 * How distance from a point is measured, on either database. With PostgreSQL's cube +
 * earthdistance (stock PostgreSQL ships both; no PostGIS) and the GiST index businesses_earth_idx
 * on ll_to_earth(lat, lng) of active businesses (migration 0019), a radius is an index-served box
 * test (earth_box @>) refined by the exact great-circle distance, and nearest-first walks the same
 * index in distance order (<->, KNN) within the box. Distances are great-circle kilometres on a
 * sphere of 6,371 km, as the gazetteer's distanceKm (earthdistance's own sphere is 6,378.168 km:
 * its distance is rescaled).
 *
 * The embedded database (PGlite) runs without cube + earthdistance (PGLITE_EXTENSIONS in
 * @directory/db says why): there the same great-circle distance is the haversine formula in plain
 * SQL, the radius a latitude band refined by it, and nearest-first a sort. No index serves that,
 * which an embedded, single-process database of demo or one-extract size does not need.
 */

export const EARTH_RADIUS_KM = 6371;
/** Kilometres in one degree of latitude on that sphere. */
const KM_PER_DEGREE = (Math.PI * EARTH_RADIUS_KM) / 180;

/** A point and radius as SQL terms: a statement's placeholders (STATEMENT_TERMS), or values (nearTerms). */
export interface NearTerms {
  lat: SQL;
  lng: SQL;
  radiusKm: SQL;
}

/** A point and radius as bound values, for a query built per call (search/where-when-search.ts). */
export function nearTerms(point: NearPoint, radiusKm: number): NearTerms {
  return { lat: sql`${point.lat}::float8`, lng: sql`${point.lng}::float8`, radiusKm: sql`${radiusKm}::float8` };
}

/** How a database measures distance from a point: the earthdistance index's terms, or plain SQL. */
export interface NearGeometry {
  /** Great-circle kilometres from the point to the business (NULL without coordinates). */
  distanceKm(near: NearTerms): SQL<number>;
  /** Businesses in a box around the circle, as an index serves it: every business within the radius, and some beyond. */
  box(near: NearTerms): SQL;
  /** Businesses within the radius of the point. */
  within(near: NearTerms): SQL;
  /** Nearest first. */
  nearestFirst(near: NearTerms): SQL;
}

/** A point as earthdistance's earth type. */
function earthPoint(near: NearTerms): SQL {
  return sql`ll_to_earth(${near.lat}, ${near.lng})`;
}

/** The business's position as businesses_earth_idx indexes it: the query must use this very expression. */
export const BUSINESS_EARTH: SQL = sql`ll_to_earth(${businesses.lat}, ${businesses.lng})`;

/** The radius as earthdistance's units (metres on its own sphere). */
function radiusEarthUnits(near: NearTerms): SQL {
  return sql`(${near.radiusKm} / ${EARTH_RADIUS_KM}::float8 * earth())`;
}

const EARTH_GEOMETRY: NearGeometry = {
  distanceKm: (near) => sql<number>`(earth_distance(${earthPoint(near)}, ${BUSINESS_EARTH}) / earth() * ${EARTH_RADIUS_KM}::float8)`,
  box: (near) => sql`earth_box(${earthPoint(near)}, ${radiusEarthUnits(near)}) @> ${BUSINESS_EARTH}`,
  // The index's box test, then the exact distance.
  within: (near) => sql`(${EARTH_GEOMETRY.box(near)} and earth_distance(${earthPoint(near)}, ${BUSINESS_EARTH}) <= ${radiusEarthUnits(near)})`,
  // The chord distance the index orders by orders as the great-circle one does.
  nearestFirst: (near) => sql`${BUSINESS_EARTH} <-> ${earthPoint(near)}`,
};

/** The haversine formula in SQL, on the same sphere. */
function haversineKmSql(near: NearTerms): SQL<number> {
  const lat = sql`radians(${businesses.lat})`;
  const lat0 = sql`radians(${near.lat})`;
  const h = sql`power(sin((${lat} - ${lat0}) / 2), 2) + cos(${lat0}) * cos(${lat}) * power(sin(radians(${businesses.lng} - ${near.lng}) / 2), 2)`;
  return sql<number>`(2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1::float8, sqrt(${h}))))`;
}

const PLAIN_GEOMETRY: NearGeometry = {
  distanceKm: haversineKmSql,
  box: (near) => {
    const band = sql`${near.radiusKm} / ${KM_PER_DEGREE}::float8`;
    return sql`${businesses.lat} between ${near.lat} - ${band} and ${near.lat} + ${band}`;
  },
  within: (near) => sql`(${PLAIN_GEOMETRY.box(near)} and ${haversineKmSql(near)} <= ${near.radiusKm})`,
  nearestFirst: haversineKmSql,
};

/** Whether each database has earthdistance, asked once (migration 0019 installs it where it can). */
const geometries = perDatabase((db): Promise<NearGeometry> => {
  const geometry = db
    .execute(sql`select exists (select 1 from pg_extension where extname = 'earthdistance') as "has"`)
    .then((result) => (rowsOf<{ has: boolean }>(result)[0]?.has ? EARTH_GEOMETRY : PLAIN_GEOMETRY));
  // A failed question is asked again by the next search.
  geometry.catch(() => geometries.forget(db));
  return geometry;
});

export function nearGeometry(db: Db): Promise<NearGeometry> {
  return geometries.get(db);
}

/** Great-circle kilometres between two points on the same sphere (the haversine formula). */
export function greatCircleKm(a: NearPoint, b: NearPoint): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A distance as listings show it: kilometres to the metre (3 decimals). */
export function roundDistanceKm(km: number): number {
  return Math.round(km * 1_000) / 1_000;
}
