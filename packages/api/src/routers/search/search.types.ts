import { z } from "zod";
import { CATEGORY_SORTS, DISTANCE_SORT, KEYWORD_SORTS, LISTICLE_SORTS } from "../../services/search/disclosures";
import { isCountryCode } from "../../services/search/countries";
import { ZListing } from "./listing.types";
import { ZAttributions } from "../entities/entity-profile.types";

/** Shared pieces of the agent-facing discovery procedures (the MCP tools call these). */
export const ZCategoryParam = z.string().trim().min(1).max(100).describe('e.g. "dentist"; plurals and synonyms work');
export const ZCityParam = z.string().trim().min(1).max(100).describe('City or alias, e.g. "Mumbai" or "Bangalore, IN"');
/**
 * `country`: an ISO 3166-1 alpha-2 code, either case in ("li", "LI"), upper case out as listings
 * carry it; every search and the cities list take it from here, so each door refuses the same
 * codes (a 400 naming country).
 */
export const ZCountryParam = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'an ISO 3166-1 alpha-2 country code, e.g. "LI"')
  .toUpperCase()
  .refine(isCountryCode, 'an ISO 3166-1 alpha-2 country code, e.g. "LI"; this one is not assigned')
  .meta({ description: "ISO 3166-1 alpha-2, e.g. LI", example: "LI" })
  .optional();
export const ZToolLimit = z.number().int().min(1).max(10).default(5).describe("Results per page");

/**
 * `sort`: each tool's default is its spec order; "rating" is best-rated first, no rating last, then
 * most reviews; "distance" is nearest first and needs near (a 400 naming sort without it). The
 * OpenAPI example is rating: it holds on every search without another parameter (MCP drops examples).
 */
export const ZCategorySort = z
  .enum([...CATEGORY_SORTS, DISTANCE_SORT])
  .default("ranking")
  .meta({ description: "ranking: paid tiers first; rating: best-rated first; distance: nearest first (needs near)", example: "rating" });
/** The assistant plugin's sort (spec 4.1 takes no point, so no distance). */
export const ZPluginSort = z
  .enum(CATEGORY_SORTS)
  .default("ranking")
  .meta({ description: "ranking: paid tiers first; rating: best-rated first", example: "rating" });
export const ZListicleSort = z
  .enum([...LISTICLE_SORTS, DISTANCE_SORT])
  .default("completeness")
  .meta({ description: "rating: best-rated first; distance: nearest (needs near)", example: "rating" });
export const ZKeywordSort = z
  .enum([...KEYWORD_SORTS, DISTANCE_SORT])
  .default("relevance")
  .meta({ description: "rating: best-rated first; distance: nearest (needs near)", example: "rating" });

/** What the OpenAPI descriptions of the searches that take country say about it, and its part of a 400's description. */
export const COUNTRY_DESCRIPTION =
  "country=<ISO 3166-1 alpha-2> (either case) keeps the listings of that country (each listing's country), and a city named with it is looked up in that country.";
export const COUNTRY_400 = "country not an assigned ISO 3166-1 alpha-2 code";

/** Paging, the same on every listing: pass nextCursor back as cursor until it is null. */
export const ZCursorParam = z.string().trim().min(1).max(1_000).optional().describe("The previous page's nextCursor");
export const ZPaging = {
  totalMatches: z.number().int().describe("All matches over every page"),
  nextCursor: z.string().nullable().describe("cursor for the next page; null on the last"),
};

/**
 * The licence notices owed by the page's listings (attributionsOfBusinesses): OpenStreetMap's ODbL
 * line when any listing on the page was imported from it, once however many were; empty for none.
 */
export const ZPageAttributions = { attributions: ZAttributions };

/** With an open filter (openNow, openAt): how many matches its totalMatches leaves out because their hours are unknown. */
export const ZOpenFilterCount = {
  excludedUnknownHours: z.number().int().min(0).optional().describe("With openNow or openAt: matches left out because their hours are unknown"),
};

/**
 * A miss or a fallback, said where an agent reads it (MCP text renders every field): what the search
 * did instead of matching, and where to look next. Absent when the answer is a plain match.
 */
export const ZSearchHint = {
  hint: z.string().optional().describe("A miss or fallback: what it did, what to try next"),
};

export const ZResolvedCategory = z.object({ slug: z.string(), name: z.string() });
export const ZResolvedCity = z.object({ slug: z.string(), name: z.string(), region: z.string(), country: z.string() });

export const ZRankedListings = z.object({
  category: ZResolvedCategory.nullable().describe("Null when a near search spans every category"),
  city: ZResolvedCity.nullable().describe("Null when the search spans every city"),
  ...ZSearchHint,
  businesses: z.array(ZListing),
  total: z.number().int().describe("Number of results returned"),
  ...ZPaging,
  ...ZOpenFilterCount,
  ...ZPageAttributions,
  rankingModel: z.string().describe("The order these results are in (the spec's ranking, sort=rating or sort=distance), in plain words"),
});

export type TResolvedCategory = z.infer<typeof ZResolvedCategory>;
export type TResolvedCity = z.infer<typeof ZResolvedCity>;
export type TRankedListings = z.infer<typeof ZRankedListings>;
