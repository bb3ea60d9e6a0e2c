import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@directory/db";
import { citySlug } from "@directory/db/gazetteer";
import { timeZoneAt } from "@directory/db/time-zones";
import { intList, textList } from "../shared/sql-lists";
import type { GazetteerCity } from "./registry-record";

/**
 * The directory's slug of each gazetteer city a registry names, adding the cities that have no
 * row yet (Vaduz, Schaan, Monaco...) with their country, region, coordinates and time zone (from
 * the coordinates, as the demo's cities) on first use.
 * Slugs follow the demo's form ("vaduz-li"); a second city of that name in the country gets its
 * GeoNames id appended, so a slug never changes meaning.
 */
export async function ensureCities(tx: Db, cities: readonly GazetteerCity[]): Promise<Map<number, string>> {
  const unique = [...new Map(cities.map((city) => [city.id, city])).values()];
  if (unique.length === 0) return new Map();
  const ids = intList(unique.map((city) => city.id));
  const read = async () =>
    new Map(rowsOf<{ id: number; slug: string }>(await tx.execute(sql`select id, slug from cities where id = any(${ids})`)).map((row) => [row.id, row.slug]));
  const known = await read();
  const missing = unique.filter((city) => !known.has(city.id));
  if (missing.length === 0) return known;
  const wanted = missing.map((city) => citySlug(city.name, city.countryCode));
  const taken = new Set(rowsOf<{ slug: string }>(await tx.execute(sql`select slug from cities where slug = any(${textList(wanted)})`)).map((row) => row.slug));
  const rows = missing.map((city, index) => {
    const slug = taken.has(wanted[index]!) ? `${wanted[index]}-${city.id}` : wanted[index]!;
    taken.add(slug);
    return {
      id: city.id,
      slug,
      name: city.name,
      country_code: city.countryCode,
      admin_region: city.adminRegion,
      population: city.population,
      lat: city.lat,
      lng: city.lng,
      time_zone: timeZoneAt(city.lat, city.lng, city.countryCode),
      aliases: [],
    };
  });
  await tx.execute(sql`
    insert into cities (id, slug, name, country_code, admin_region, population, lat, lng, time_zone, aliases)
    select id, slug, name, country_code, admin_region, population, lat, lng, time_zone, aliases
    from jsonb_populate_recordset(null::cities, ${JSON.stringify(rows)}::jsonb)
    on conflict (id) do nothing`);
  // Read back: a concurrent import may have added one of them first.
  return read();
}
