import type { Category, City } from "@directory/db";
import { DomainError } from "../../errors";

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
