import { and, eq, gte, lt, ne } from "drizzle-orm";
import { businesses, cities, categories, perDatabase, type City, type Db } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { isDecommissioned, requireBusinessBySlug, selectBusinessRecords } from "../entities/business-lookup";
import { toListing } from "../search/listing";
import { publicUrls } from "../shared/public-urls";
import { referenceData } from "../search/reference-data";
import { resolvedCategory, resolvedCity } from "../search/resolve";
import { RANKING_ORDER } from "../search/ranking";

/** The sitemaps protocol allows 50,000 sitemaps in an index. */
export const SITEMAP_INDEX_MAX_PAGES = 50_000;
/** URLs per sitemap page: well under the protocol's 50,000 URLs and 50 MB. */
export const SITEMAP_PAGE_SIZE = 10_000;

/* What the HTML pages read beyond the public procedures: overview, sitemaps, alternatives. */

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
 * The first slug of every sitemap page: from the first slug, each next start is the slug pageSize
 * places further in slug order (servable or not), so a page [start, next start) holds at most
 * pageSize slugs and, with only servable ones shown, at most pageSize URLs. Each jump is one
 * short scan of the slug index (~3 ms), so no statement comes near the request timeout: numbering
 * every slug in one statement took 5-10 s at a million businesses.
 */
export async function sitemapPageStarts(db: Db, pageSize: number): Promise<string[]> {
  const slugAt = async (from: string, skip: number) => {
    const [row] = await db.select({ slug: businesses.slug }).from(businesses).where(gte(businesses.slug, from)).orderBy(businesses.slug).offset(skip).limit(1);
    return row?.slug;
  };
  const starts: string[] = [];
  for (let start = await slugAt("", 0); start !== undefined && starts.length < SITEMAP_INDEX_MAX_PAGES; start = await slugAt(start, pageSize)) {
    starts.push(start);
  }
  return starts;
}

/**
 * How long computed page starts are reused (a hundred index scans at a million businesses). A
 * sitemap may lag: servability is checked when a page is read, and a slug added
 * since lands in the page whose range holds it (a page stays capped at its size meanwhile).
 */
export const SITEMAP_STARTS_TTL_MS = 60 * 60 * 1000;

const cachedStarts = perDatabase(() => new Map<number, { at: number; starts: Promise<string[]> }>());

/** sitemapPageStarts, computed at most once per SITEMAP_STARTS_TTL_MS per database and page size. */
function cachedSitemapPageStarts(db: Db, pageSize: number): Promise<string[]> {
  const bySize = cachedStarts.get(db);
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

/** The sitemap index: where each page of SITEMAP_PAGE_SIZE slugs starts and ends. */
export async function sitemapIndex(db: Db) {
  const starts = await cachedSitemapPageStarts(db, SITEMAP_PAGE_SIZE);
  return { pageSize: SITEMAP_PAGE_SIZE, pages: starts.map((from, i) => ({ from, to: starts[i + 1] ?? null })) };
}

export interface SitemapPageParams {
  /** The slug range [from, to), as the index gives it; no `to` on the last page. */
  from: string;
  to?: string;
  limit: number;
  baseUrl: string;
}

/** One sitemap page: servable profiles in [from, to) in slug order (keyset, any depth). */
export async function sitemapPage(db: Db, params: SitemapPageParams) {
  const rows = await db
    .select({ slug: businesses.slug, updatedAt: businesses.updatedAt })
    .from(businesses)
    .where(and(gte(businesses.slug, params.from), params.to === undefined ? undefined : lt(businesses.slug, params.to), servableCondition()))
    .orderBy(businesses.slug)
    .limit(params.limit);
  return { profiles: rows.map((row) => ({ slug: row.slug, url: publicUrls.profile(params.baseUrl, row.slug), updatedAt: row.updatedAt.toISOString() })) };
}

export interface AlternativesParams {
  /** Current or former slug, servable or decommissioned. */
  slug: string;
  limit: number;
  baseUrl: string;
}

/** Where a visitor can go instead of a business: its category and city, and others servable there. */
export async function alternativesTo(db: Db, params: AlternativesParams) {
  const { slug, limit, baseUrl } = params;
  const business = await requireBusinessBySlug(db, slug);
  const [[category], [city], others] = await Promise.all([
    db.select().from(categories).where(eq(categories.slug, business.categorySlug)).limit(1),
    db.select().from(cities).where(eq(cities.id, business.cityId)).limit(1),
    selectBusinessRecords(db)
      .where(
        and(eq(businesses.categorySlug, business.categorySlug), eq(businesses.cityId, business.cityId), ne(businesses.id, business.id), servableCondition()),
      )
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
