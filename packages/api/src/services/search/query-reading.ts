import type { Category, City } from "@directory/db";
import { findCountry } from "./countries";
import { findCategory, findCity, normalizeTerm, type ReferenceData } from "./reference-data";
import { correctSpelling } from "./spelling";

/**
 * What a free-text query says beyond its words, read from the in-memory reference data (no query):
 * a city named inside it ("dentist in bombay"), else a country ("hotel liechtenstein"), a category
 * ("tooth doctor"), misspelt category words ("dentst"). Keyword search reads a query this way only
 * when its words as given matched nothing, so a business whose name holds a city ("Hotel Paris")
 * is still found by name first.
 */

/** Words that tie a city to the rest of the query; read with the city, not searched. */
const CITY_CONNECTORS = new Set(["in", "near", "at", "around", "of"]);

/** A city or category name is at most this many words ("new york city", "packers and movers"). */
const MAX_PHRASE_WORDS = 3;

export interface QueryReading {
  /** The words left to search: city words and their connector removed, misspellings corrected. */
  words: string[];
  /** A city named inside the words (only when no city argument was given). */
  city: City | null;
  /** The words that named it, connector included ("in bombay"). */
  cityWords: string[];
  /** A country named inside the words when they name no city (upper-case ISO code; only without a city or country argument), and its words. */
  country: string | null;
  countryWords: string[];
  /** A category named inside the words, and the words that named it (kept in `words`). */
  category: Category | null;
  categoryWords: string[];
  corrections: { from: string; to: string }[];
}

/** The longest phrase of up to MAX_PHRASE_WORDS words that `find` accepts, leftmost first. */
function findPhrase<T>(words: string[], find: (phrase: string) => T | null): { value: T; start: number; length: number } | null {
  for (let length = Math.min(MAX_PHRASE_WORDS, words.length); length >= 1; length--) {
    for (let start = 0; start + length <= words.length; start++) {
      const value = find(words.slice(start, start + length).join(" "));
      if (value !== null) return { value, start, length };
    }
  }
  return null;
}

/**
 * The rule for a place inside the words: when they name a category and a place (a city or a
 * country), the place is where to look, never a name to match. "bakery in vaduz" is bakeries in
 * Vaduz or none, not the post office called Vaduz; keyword search then tries no match on names.
 */
export function namesCategoryInPlace(reading: QueryReading): boolean {
  return reading.category !== null && (reading.city !== null || reading.country !== null);
}

/** The phrase `find` accepts with the connector before it, taken out of the words. */
function takePlace<T>(words: string[], find: (phrase: string) => T | null) {
  // A lone word is what to look for, never a place ("lima" beans), so a place needs company.
  const phrase = words.length > 1 ? findPhrase(words, find) : null;
  if (!phrase) return null;
  const start = phrase.start > 0 && CITY_CONNECTORS.has(words[phrase.start - 1]!) ? phrase.start - 1 : phrase.start;
  const end = phrase.start + phrase.length;
  return { value: phrase.value, placeWords: words.slice(start, end), rest: [...words.slice(0, start), ...words.slice(end)] };
}

export function readQuery(data: ReferenceData, query: string, options: { cityGiven: boolean; country?: string | null }): QueryReading {
  let words = normalizeTerm(query).split(" ").filter(Boolean);
  const cityPhrase = options.cityGiven ? null : takePlace(words, (phrase) => findCity(data, phrase, options.country));
  const countryPhrase = options.cityGiven || options.country || cityPhrase ? null : takePlace(words, findCountry);
  words = cityPhrase?.rest ?? countryPhrase?.rest ?? words;

  const corrections: QueryReading["corrections"] = [];
  const corrected = correctSpelling(data, words.join(" "))?.split(" ");
  if (corrected?.length === words.length) {
    words.forEach((word, index) => {
      if (corrected[index] !== word) corrections.push({ from: word, to: corrected[index]! });
    });
    words = corrected;
  }

  const categoryPhrase = findPhrase(words, (phrase) => findCategory(data, phrase));
  return {
    words,
    city: cityPhrase?.value ?? null,
    cityWords: cityPhrase?.placeWords ?? [],
    country: countryPhrase?.value ?? null,
    countryWords: countryPhrase?.placeWords ?? [],
    category: categoryPhrase?.value ?? null,
    categoryWords: categoryPhrase ? words.slice(categoryPhrase.start, categoryPhrase.start + categoryPhrase.length) : [],
    corrections,
  };
}
