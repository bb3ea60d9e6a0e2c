import { and, eq, ne, sql } from "drizzle-orm";
import { businesses, cities, rowsOf, type Category, type City, type Db } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { greatCircleKm } from "../where-when/near-geometry";
import type { NearPoint, WhereWhen } from "../where-when/where-when-params";
import { referenceData, type ReferenceData } from "./reference-data";
import type { KeywordResult } from "./keyword-search";
import { LIST_VALUES, suggestCategories } from "./suggestions";

/*
 * The next step a search names when it found nothing (issue 42 item 5): the nearest cities that
 * have the category, else what the city does list; and a point whose coordinates look swapped.
 * They run only on an empty answer, so the hot path pays nothing for them.
 */

/** How many cities or categories a hint names. */
const HINT_VALUES = 3;

/** A swapped point is "in" a city this close to its centre; the point as given is in none this close. */
const SWAPPED_CITY_KM = 30;

/** The nearest other cities with a servable listing of the category, nearest first, with their distance. */
async function nearestCitiesWith(db: Db, category: Category, city: City): Promise<string[]> {
  // Planar distance is enough to order the few nearest; the named distance is the great circle.
  const order = sql`power(${cities.lat} - ${city.lat}, 2) + power((${cities.lng} - ${city.lng}) * cos(radians(${city.lat})), 2)`;
  const listed = sql`exists (select 1 from ${businesses} where ${and(eq(businesses.cityId, cities.id), eq(businesses.categorySlug, category.slug), servableCondition())})`;
  const rows = await db
    .select({ name: cities.name, country: cities.countryCode, lat: cities.lat, lng: cities.lng })
    .from(cities)
    .where(and(ne(cities.id, city.id), listed))
    .orderBy(order)
    .limit(HINT_VALUES);
  return rows.map((row) => `${row.name}, ${row.country} (${Math.round(greatCircleKm(city, row))} km)`);
}

/** The categories with the most servable listings in the city. */
async function categoriesListedIn(db: Db, city: City): Promise<string[]> {
  const result = await db.execute(sql`select ${businesses.categorySlug} as slug from ${businesses}
    where ${and(eq(businesses.cityId, city.id), servableCondition())}
    group by ${businesses.categorySlug} order by count(*) desc, ${businesses.categorySlug} limit ${HINT_VALUES}`);
  return rowsOf<{ slug: string }>(result).map((row) => row.slug);
}

/**
 * What an empty search of a category names next: in a city, the nearest cities that have it, or
 * else the categories the city does list; anywhere else, where every city of the category is listed.
 */
export async function emptyCategoryHint(db: Db, category: Category, city: City | null, country: string | null): Promise<string> {
  if (!city)
    return `No ${category.name} listed${country ? ` in ${country}` : ""}. GET /api/v2/cities?category=${category.slug} (MCP tool get_available_cities) lists the cities that have one.`;
  const nearest = await nearestCitiesWith(db, category, city);
  if (nearest.length > 0) return `No ${category.name} listed in ${city.name}. Nearest cities with one: ${nearest.join("; ")}.`;
  const listed = await categoriesListedIn(db, city);
  const there = listed.length > 0 ? ` ${city.name} lists: ${listed.join(", ")}.` : "";
  return `No ${category.name} listed in ${city.name} or any other city.${there} ${LIST_VALUES.category}.`;
}

/** Every city once (citiesByName holds each under its name and aliases). */
function everyCity(data: ReferenceData): Set<City> {
  const all = new Set<City>();
  for (const list of data.citiesByName.values()) for (const city of list) all.add(city);
  return all;
}

function cityWithin(data: ReferenceData, point: NearPoint, km: number): City | null {
  let best: { city: City; km: number } | null = null;
  for (const city of everyCity(data)) {
    const distance = greatCircleKm(point, city);
    if (distance <= km && (!best || distance < best.km)) best = { city, km: distance };
  }
  return best?.city ?? null;
}

/**
 * Coordinates that look swapped: the point as given is near no city, and read the other way round
 * (latitude as longitude) it is in one, as "72.8777,19.0760" for Mumbai (19.0760,72.8777). Said
 * when a search around a point found nothing.
 */
export async function swappedPointHint(db: Db, near: NearPoint): Promise<string | undefined> {
  if (Math.abs(near.lng) > 90 || near.lat === near.lng) return undefined;
  const data = await referenceData(db);
  if (cityWithin(data, near, SWAPPED_CITY_KM)) return undefined;
  const swapped = cityWithin(data, { lat: near.lng, lng: near.lat }, SWAPPED_CITY_KM);
  if (!swapped) return undefined;
  return `Nothing near ${near.lat},${near.lng}, which is near no listed city; read the other way round, ${near.lng},${near.lat} is in ${swapped.name}, ${swapped.countryCode}. near is "<lat>,<lng>": latitude first; the coordinates look swapped.`;
}

/**
 * The next step an empty search names: around a point, coordinates that look swapped; else a
 * category's nearest cities (or the city's own categories). An open filter's empty page says nothing
 * more: the listings are there, closed at that time.
 */
export async function emptySearchHint(
  db: Db,
  params: { category: Category | null; city: City | null; country: string | null; whereWhen: WhereWhen },
): Promise<string | undefined> {
  const { category, city, whereWhen } = params;
  if (whereWhen.near) return swappedPointHint(db, whereWhen.near.point);
  if (!category || whereWhen.at) return undefined;
  return emptyCategoryHint(db, category, city, city ? null : params.country);
}

/**
 * What a keyword search did when its words as given matched nothing, in the sentence the agent
 * reads first: corrected, fewer words, the category alone, similar names, or nothing (then the
 * category's nearest cities, or the closest categories by spelling). A plain match says nothing.
 */
export async function keywordHint(db: Db, result: KeywordResult, query: string): Promise<string | undefined> {
  const dropped = result.wordsDropped.length > 0 ? ` (left out: ${result.wordsDropped.join(", ")})` : "";
  switch (result.matchedBy) {
    case "all_words":
      return undefined;
    case "corrected_words":
      return `No listing matches the words as given; these match them corrected (${result.corrections.map((fix) => `${fix.from} -> ${fix.to}`).join(", ")}).`;
    case "some_words":
      return `No listing matches all the words; these match "${result.wordsUsed.join(" ")}" only${dropped}.`;
    case "category":
      return `No listing matches the words; these are the category ${result.category?.name ?? ""} ("${result.category?.slug ?? ""}") alone${dropped}.`;
    case "fuzzy_name":
      return "No listing matches the words; these have a similar name, check it is the one meant.";
    case "nothing": {
      const where = result.city ? ` in ${result.city.name}` : result.country ? ` in ${result.country}` : "";
      const missed = `Nothing matches "${query}"${where}: no listing holds the words, some of them or a name like them.`;
      if (result.category) return `${missed} ${await emptyCategoryHint(db, result.category, result.city, result.city ? null : result.country)}`;
      const data = await referenceData(db);
      const closest = [...new Set(result.wordsUsed.flatMap((word) => suggestCategories(data, word)))].slice(0, HINT_VALUES);
      const categories = closest.length > 0 ? ` Categories spelt like its words: ${closest.join(", ")}.` : "";
      return `${missed}${categories} Try other words, or search a category: ${LIST_VALUES.category}.`;
    }
  }
}
