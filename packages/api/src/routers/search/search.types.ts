import { z } from "zod";
import { CATEGORY_SORTS, KEYWORD_SORTS, LISTICLE_SORTS } from "../../services/search/disclosures";
import { ZListing } from "./listing.types";

/** Shared pieces of the agent-facing discovery procedures (the MCP tools call these). */
export const ZCategoryParam = z.string().trim().min(1).max(100).describe('e.g. "dentist"; plurals and synonyms work');
export const ZCityParam = z.string().trim().min(1).max(100).describe('City or alias, e.g. "Mumbai" or "Bangalore, IN"');
export const ZToolLimit = z.number().int().min(1).max(10).default(5).describe("Results per page");

/** `sort`: each tool's default is its spec order; "rating" is best-rated first, no rating last, then most reviews. */
export const ZCategorySort = z.enum(CATEGORY_SORTS).default("ranking").describe("ranking: paid tiers first; rating: best-rated first");
export const ZListicleSort = z.enum(LISTICLE_SORTS).default("completeness").describe("rating: best-rated first");
export const ZKeywordSort = z.enum(KEYWORD_SORTS).default("relevance").describe("rating: best-rated first");

/** Paging, the same on every listing: pass nextCursor back as cursor until it is null. */
export const ZCursorParam = z.string().trim().min(1).max(1_000).optional().describe("The previous page's nextCursor");
export const ZPaging = {
  totalMatches: z.number().int().describe("All matches over every page"),
  nextCursor: z.string().nullable().describe("cursor for the next page; null on the last"),
};

export const ZResolvedCategory = z.object({ slug: z.string(), name: z.string() });
export const ZResolvedCity = z.object({ slug: z.string(), name: z.string(), region: z.string(), country: z.string() });

export const ZRankedListings = z.object({
  category: ZResolvedCategory,
  city: ZResolvedCity.nullable().describe("Null when the search spans every city"),
  businesses: z.array(ZListing),
  total: z.number().int().describe("Number of results returned"),
  ...ZPaging,
  rankingModel: z.string().describe("The order these results are in (the spec's ranking, or sort=rating), in plain words"),
});

export type TResolvedCategory = z.infer<typeof ZResolvedCategory>;
export type TResolvedCity = z.infer<typeof ZResolvedCity>;
export type TRankedListings = z.infer<typeof ZRankedListings>;
