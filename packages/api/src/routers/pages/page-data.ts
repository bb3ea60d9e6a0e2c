import { and, eq, gte, lt, ne, sql } from "drizzle-orm";
import { businesses, cities, categories, type City, type Db } from "@directory/db";
import { servableCondition } from "../../services/active-business";
import { isDecommissioned, requireBusinessBySlug, selectBusinessRecords } from "../../services/business-lookup";
import { toListing } from "../../services/listing";
import { publicUrls } from "../../services/public-urls";
import { referenceData } from "../../services/reference-data";
import { resolvedCategory, resolvedCity } from "../../services/resolved";
import { RANKING_ORDER } from "../../services/search";
import { SITEMAP_INDEX_MAX_PAGES } from "./pages.types";

/*
 * Queries for the HTML pages. They belong in services/ (owned elsewhere while this was written);
 * they only import from there.
 */

/** Popular categories (seed popularity) and cities (population), from in-memory reference data. */
export async function directoryOverview(db: Db, limit: number) {
  const data = await referenceData(db);
  const topCategories = [...data.categories].sort((a, b) => b.popularity - a.popularity || a.slug.localeCompare(b.slug)).slice(0, limit);
  const uniqueCities = new Map<number, City>();
  for (const list of data.citiesByName.values()) for (const city of list) uniqueCities.set(city.id, city);
  const topCities = [...uniqueCities.values()].sort((a, b) => b.population - a.population || a.id - b.id).slice(0, limit);
  return { categories: topCategories.map(resolvedCategory), cities: topCities.map(resolvedCity) };
}

/**
 * The first slug of every sitemap page: all businesses (servable or not) numbered in slug order,
 * every pageSize-th kept, so a page [start, next start) holds at most pageSize slugs and, with
 * only servable ones shown, at most pageSize URLs. Reads the slug index only (no sort, no heap
 * filter); bounded by the protocol's 50,000 sitemaps.
 */
export async function sitemapPageStarts(db: Db, pageSize: number): Promise<string[]> {
  const numbered = db
    .select({ slug: businesses.slug, position: sql<number>`row_number() over (order by ${businesses.slug})`.as("position") })
    .from(businesses)
    .as("numbered");
  const rows = await db
    .select({ slug: numbered.slug })
    .from(numbered)
    .where(sql`(${numbered.position} - 1) % ${pageSize} = 0`)
    .orderBy(numbered.slug)
    .limit(SITEMAP_INDEX_MAX_PAGES);
  return rows.map((row) => row.slug);
}

/**
 * How long computed page starts are reused. Numbering every slug takes seconds at a million
 * businesses, and a sitemap may lag: servability is checked when a page is read, and a slug added
 * since lands in the page whose range holds it (a page stays capped at its size meanwhile).
 */
export const SITEMAP_STARTS_TTL_MS = 60 * 60 * 1000;

const cachedStarts = new WeakMap<Db, Map<number, { at: number; starts: Promise<string[]> }>>();

/** sitemapPageStarts, computed at most once per SITEMAP_STARTS_TTL_MS per database and page size. */
export function cachedSitemapPageStarts(db: Db, pageSize: number): Promise<string[]> {
  let bySize = cachedStarts.get(db);
  if (!bySize) {
    bySize = new Map();
    cachedStarts.set(db, bySize);
  }
  const cached = bySize.get(pageSize);
  if (cached && Date.now() - cached.at < SITEMAP_STARTS_TTL_MS) return cached.starts;
  const starts = sitemapPageStarts(db, pageSize);
  const entry = { at: Date.now(), starts };
  bySize.set(pageSize, entry);
  starts.catch(() => {
    if (bySize.get(pageSize) === entry) bySize.delete(pageSize);
  });
  return starts;
}

/** One sitemap page: servable profiles in [from, to) in slug order (keyset, any depth). */
export async function sitemapPage(db: Db, baseUrl: string, range: { from: string; to?: string }, limit: number) {
  const rows = await db
    .select({ slug: businesses.slug, updatedAt: businesses.updatedAt })
    .from(businesses)
    .where(and(gte(businesses.slug, range.from), range.to === undefined ? undefined : lt(businesses.slug, range.to), servableCondition()))
    .orderBy(businesses.slug)
    .limit(limit);
  return rows.map((row) => ({ slug: row.slug, url: publicUrls.profile(baseUrl, row.slug), updatedAt: row.updatedAt.toISOString() }));
}

/** Where a visitor can go instead of a business: its category and city, and others servable there. */
export async function alternativesTo(db: Db, baseUrl: string, slug: string, limit: number) {
  const business = await requireBusinessBySlug(db, slug);
  const [[category], [city], others] = await Promise.all([
    db.select().from(categories).where(eq(categories.slug, business.categorySlug)).limit(1),
    db.select().from(cities).where(eq(cities.id, business.cityId)).limit(1),
    selectBusinessRecords(db)
      .where(and(eq(businesses.categorySlug, business.categorySlug), eq(businesses.cityId, business.cityId), ne(businesses.id, business.id), servableCondition()))
      .orderBy(...RANKING_ORDER)
      .limit(limit),
  ]);
  return {
    category: resolvedCategory(category!),
    city: resolvedCity(city!),
    decommissioned: isDecommissioned(business),
    alternatives: others.map((other) => toListing(other, baseUrl)),
  };
}
