import { z } from "zod";
import { ZListing } from "../search/listing.types";
import { ZResolvedCategory, ZResolvedCity } from "../search/search.types";

/** URLs per sitemap page: well under the protocol's 50,000 URLs and 50 MB. */
export const SITEMAP_PAGE_SIZE = 10_000;

export const ZOverviewInput = z
  .object({ limit: z.number().int().min(1).max(50).default(12).describe("How many categories and cities: 1 to 50, default 12") })
  .default({ limit: 12 });

export const ZOverviewOutput = z.object({
  categories: z.array(ZResolvedCategory).describe("Most popular categories first"),
  cities: z.array(ZResolvedCity).describe("Most populous cities first"),
});

export const ZSitemapIndexOutput = z.object({
  pageSize: z.number().int(),
  pages: z.array(
    z.object({
      from: z.string().describe("The first slug of the page's range, in slug order"),
      to: z.string().nullable().describe("The first slug of the next page's range; null on the last page"),
    }),
  ),
});

export const ZSitemapPageInput = z.object({
  from: z.string().trim().min(1).max(200).describe("The start of the page's range, as the index gives it"),
  to: z.string().trim().min(1).max(200).optional().describe("The end of the range (excluded), as the index gives it; omitted on the last page"),
  limit: z.number().int().min(1).max(SITEMAP_PAGE_SIZE).default(SITEMAP_PAGE_SIZE),
});

export const ZSitemapPageOutput = z.object({
  profiles: z.array(z.object({ slug: z.string(), url: z.string(), updatedAt: z.string() })),
});

export const ZAlternativesInput = z.object({
  slug: z.string().trim().min(1).max(200).describe("A business slug, current or former, servable or decommissioned"),
  limit: z.number().int().min(1).max(10).default(5),
});

export const ZAlternativesOutput = z.object({
  category: ZResolvedCategory,
  city: ZResolvedCity,
  decommissioned: z.boolean().describe("True when the business itself can no longer be served (410)"),
  alternatives: z.array(ZListing).describe("Other servable businesses of the same category in the same city, in ranking order"),
});
