import type { Category, City, Db } from "@directory/db";
import { DomainError } from "../../errors";
import { findCategory, findCity, referenceData } from "./reference-data";

/** Accepts plurals, synonyms, slugs and any case; resolved from the in-memory reference data. */
export async function resolveCategory(db: Db, input: string): Promise<Category | null> {
  return findCategory(await referenceData(db), input);
}

/** A name or alias, with or without accents, optionally ", CC"; resolved from the in-memory reference data. */
export async function resolveCity(db: Db, input: string): Promise<City | null> {
  return findCity(await referenceData(db), input);
}

/** The public face of a resolved category and city, as discovery results echo them. */
export function resolvedCategory(category: Category) {
  return { slug: category.slug, name: category.name };
}

export function resolvedCity(city: City) {
  return { slug: city.slug, name: city.name, region: city.adminRegion, country: city.countryCode };
}

/** 404 naming what did not resolve, so an agent can correct the one wrong argument. */
export function requireResolved<T>(value: T | null, kind: "category" | "city", input: string | undefined): T {
  if (value === null) throw new DomainError("NOT_FOUND", `Unknown ${kind} "${input ?? ""}"`);
  return value;
}
