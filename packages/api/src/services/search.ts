import { and, arrayOverlaps, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import { businesses, categories, cities, type Category, type City, type Db } from "@directory/db";
import { normalizeTerm, singularForms } from "./text-match";

/** The ranking order of every search, matching businesses_search_idx: tier, internal score, name. */
export const RANKING_ORDER = [asc(businesses.planTier), desc(businesses.visibilityScore), asc(businesses.name), asc(businesses.id)];

/** Disclosed with every search result: the order is paid tier first, and says so. */
export const RANKING_DISCLOSURE =
  "Ordered by plan tier (premium, pro, basic, free), then by an internal visibility score within a tier, then by name. " +
  "Paid tiers are placed first; the directoryCompletenessScore shown is not what orders results.";

/** Accepts plurals, synonyms, slugs and any case: "Dentists", "dental clinic", "car-repair". */
export async function resolveCategory(db: Db, input: string): Promise<Category | null> {
  const forms = singularForms(normalizeTerm(input));
  if (forms[0] === "") return null;
  const nameMatch = or(
    inArray(sql`replace(${categories.slug}, '-', ' ')`, forms),
    inArray(sql`lower(${categories.name})`, forms),
  );
  const [row] = await db
    .select()
    .from(categories)
    .where(or(nameMatch, arrayOverlaps(categories.synonyms, forms)))
    // A direct name match beats a synonym of another category.
    .orderBy(sql`case when ${nameMatch} then 0 else 1 end`, asc(categories.slug))
    .limit(1);
  return row ?? null;
}

/**
 * Accepts a name or alias in any case and with or without accents ("bangalore", "Sao Paulo"),
 * optionally followed by ", CC" (ISO country code). Ambiguous names pick the most populous city.
 */
export async function resolveCity(db: Db, input: string): Promise<City | null> {
  const [namePart = "", countryPart] = input.split(",");
  const name = normalizeTerm(namePart);
  if (name === "") return null;
  const countryCode = countryPart?.trim().toUpperCase();
  const [row] = await db
    .select()
    .from(cities)
    .where(
      and(
        or(eq(sql`lower(${cities.name})`, name), sql`${name} = any(${cities.aliases})`),
        countryCode && /^[A-Z]{2}$/.test(countryCode) ? eq(cities.countryCode, countryCode) : undefined,
      ),
    )
    .orderBy(desc(cities.population))
    .limit(1);
  return row ?? null;
}
