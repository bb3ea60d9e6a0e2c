import leven from "leven";
import type { City } from "@directory/db";
import { readQuery } from "./query-reading";
import { citiesNamed, cityInputParts, normalizeTerm, singularForms, type ReferenceData } from "./reference-data";

/**
 * The closest valid values for a category or city that did not resolve, so a miss points the way
 * instead of ending the task. In memory over the reference data: a miss costs no query.
 */

/** How many closest values a miss names. */
const MAX_SUGGESTIONS = 3;

/** Where every valid value is listed, per kind: the REST route and the MCP resource or tool. */
export const LIST_VALUES = {
  category: "GET /api/v2/categories (MCP resource directory://categories) lists every category",
  city: "GET /api/v2/cities?category=... (MCP tool get_available_cities) lists the cities that have listings of a category",
} as const;

/** A distance within which a value is worth naming: about a third of the word, at least two edits. */
function closeEnough(input: string, distance: number): boolean {
  return distance <= Math.max(2, Math.ceil(input.length / 3));
}

/** The best distance from any of the input's forms to any of a value's names. */
function distanceTo(forms: string[], names: string[]): number {
  let best = Infinity;
  for (const form of forms) for (const name of names) best = Math.min(best, leven(form, name));
  return best;
}

/** Category slugs closest to the input by name, singular, slug or synonym; nearest first, ties by popularity. */
export function suggestCategories(data: ReferenceData, input: string): string[] {
  const forms = singularForms(normalizeTerm(input));
  if (forms[0] === "") return [];
  return data.categories
    .map((category) => {
      const names = [category.name, category.singular, category.slug, ...category.synonyms].map(normalizeTerm);
      return { slug: category.slug, distance: distanceTo(forms, names), popularity: category.popularity };
    })
    .filter((candidate) => closeEnough(forms[0]!, candidate.distance))
    .sort((a, b) => a.distance - b.distance || b.popularity - a.popularity)
    .slice(0, MAX_SUGGESTIONS)
    .map((candidate) => candidate.slug);
}

/**
 * City names closest to the input by name or alias, nearest first, then most populous. A name that
 * more than one city carries is named with its country ("Hyderabad, PK"), which the resolver accepts.
 */
export function suggestCities(data: ReferenceData, input: string): string[] {
  const name = normalizeTerm(input.split(",")[0] ?? "");
  if (name === "") return [];
  const best = new Map<City, number>();
  for (const [key, cities] of data.citiesByName) {
    const distance = leven(name, normalizeTerm(key));
    if (!closeEnough(name, distance)) continue;
    for (const city of cities) best.set(city, Math.min(best.get(city) ?? Infinity, distance));
  }
  return [...best]
    .sort(([a, da], [b, db]) => da - db || b.population - a.population || a.id - b.id)
    .slice(0, MAX_SUGGESTIONS)
    .map(([city]) => ((data.citiesByName.get(city.name.toLowerCase())?.length ?? 1) > 1 ? `${city.name}, ${city.countryCode}` : city.name));
}

export interface Miss {
  kind: "category" | "city";
  input: string;
  suggestions: string[];
  /** One sentence: what did not resolve, the closest values, where every value is listed. */
  message: string;
}

/** Describes an unknown category or city with its closest valid values. */
export function describeMiss(data: ReferenceData, kind: Miss["kind"], input: string): Miss {
  if (kind === "city") {
    const wrongCountry = describeCountryMismatch(data, input);
    if (wrongCountry) return wrongCountry;
  }
  if (kind === "category") {
    const inWords = describeCategoryInWords(data, input);
    if (inWords) return inWords;
  }
  const suggestions = kind === "category" ? suggestCategories(data, input) : suggestCities(data, input);
  const closest = suggestions.length > 0 ? ` Closest: ${suggestions.map((value) => `"${value}"`).join(", ")}.` : "";
  return { kind, input, suggestions, message: `Unknown ${kind} "${input}".${closest} ${LIST_VALUES[kind]}.` };
}

/**
 * A category given with more words ("vegan bakery", "dentist berlin"): the miss names the known
 * category inside them and a city among them, as the call to make instead. Null when they hold neither.
 */
function describeCategoryInWords(data: ReferenceData, input: string): Miss | null {
  const reading = readQuery(data, input, { cityGiven: false });
  if (!reading.category && !reading.city) return null;
  const rest = reading.words.filter((word) => !reading.categoryWords.includes(word));
  const known = reading.category ? ` Did you mean category "${reading.category.slug}"? It is the known category in these words.` : "";
  const city = reading.city ? ` "${reading.cityWords.join(" ")}" is a city: pass city "${reading.city.name}" apart from the category.` : "";
  const others = reading.category && rest.length > 0 ? ` search_by_keyword (GET /api/v2/keyword-search) also reads the other words (${rest.join(" ")}).` : "";
  const suggestions = [...new Set([...(reading.category ? [reading.category.slug] : []), ...suggestCategories(data, rest.join(" "))])].slice(
    0,
    MAX_SUGGESTIONS,
  );
  return { kind: "category", input, suggestions, message: `Unknown category "${input}".${known}${city}${others} ${LIST_VALUES.category}.` };
}

/** A city named with a country code it is not in ("Vaduz, AT"): the miss names the countries it is in, not a spelling. */
function describeCountryMismatch(data: ReferenceData, input: string): Miss | null {
  const { countryCode } = cityInputParts(input);
  const elsewhere = countryCode ? citiesNamed(data, input) : [];
  // A city of that name is in that country: the miss is another filter's (a search's country), not the code's.
  if (elsewhere.length === 0 || elsewhere.some((city) => city.countryCode === countryCode)) return null;
  const suggestions = [...new Set(elsewhere.map((city) => `${city.name}, ${city.countryCode}`))].slice(0, MAX_SUGGESTIONS);
  const name = input.split(",")[0]!.trim();
  return {
    kind: "city",
    input,
    suggestions,
    message: `No city "${name}" in ${countryCode}: the country code disagrees with the city. "${name}" is ${suggestions.map((value) => `"${value}"`).join(", ")}; give its own country code, or none.`,
  };
}
