import type { Category, City, Db } from "@directory/db";
import { DomainError } from "../../errors";
import { findCategory, findCity, referenceData } from "./reference-data";
import { describeMiss } from "./suggestions";

/** Accepts plurals, synonyms, slugs and any case; resolved from the in-memory reference data. */
export async function resolveCategory(db: Db, input: string): Promise<Category | null> {
  return findCategory(await referenceData(db), input);
}

/**
 * A name, alias or slug, with or without accents, optionally ", CC"; resolved from the in-memory
 * reference data. With a search's country filter, only a city of that country ("Paris" with country=US).
 */
export async function resolveCity(db: Db, input: string, country?: string | null): Promise<City | null> {
  return findCity(await referenceData(db), input, country);
}

/** The public face of a resolved category and city, as discovery results echo them. */
export function resolvedCategory(category: Category) {
  return { slug: category.slug, name: category.name };
}

export function resolvedCity(city: City) {
  return { slug: city.slug, name: city.name, region: city.adminRegion, country: city.countryCode };
}

/**
 * 404 naming what did not resolve, its closest valid values (details.suggestions) and where every
 * value is listed, so an agent can correct the one wrong argument instead of giving up.
 */
export async function requireResolved<T>(db: Db, value: T | null, kind: "category" | "city", input: string | undefined): Promise<T> {
  if (value !== null) return value;
  const miss = describeMiss(await referenceData(db), kind, input ?? "");
  throw new DomainError("NOT_FOUND", miss.message, { suggestions: miss.suggestions });
}

/**
 * The city a write names (the admin's new business), read as search reads it. One it cannot read is
 * the caller's invalid input (400), explained as a search's miss: the closest cities, or the
 * country the city is in when the code disagrees.
 */
export async function requireCityToWrite(db: Db, input: string, parameter = "city"): Promise<City> {
  const city = await resolveCity(db, input);
  if (city) return city;
  const miss = describeMiss(await referenceData(db), "city", input);
  throw new DomainError("INVALID_INPUT", `Invalid parameter ${parameter}: ${miss.message}`, { suggestions: miss.suggestions });
}
