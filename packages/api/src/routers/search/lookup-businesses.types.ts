import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZFieldsParam, ZListing } from "./listing.types";
import { whereWhenInput } from "../../services/where-when/where-when-params";
import { COUNTRY_400, COUNTRY_DESCRIPTION, ZCategorySort, ZCountryParam, ZOpenFilterCount, ZPageAttributions, ZSearchHint } from "./search.types";
import { WHERE_WHEN_400, WHERE_WHEN_DESCRIPTION } from "./where-when.types";

export const LOOKUP_MAX_LIMIT = 50;

export const ZLookupBusinessesInput = z.object({
  category: z.string().trim().min(1).max(100).optional().describe("Category name, plural or synonym; optional with near"),
  city: z.string().trim().min(1).max(100).optional().describe('City name or alias, optionally with ", CC" country code; optional with near'),
  country: ZCountryParam,
  limit: z.number().int().min(1).max(LOOKUP_MAX_LIMIT).default(10).describe(`1 to ${LOOKUP_MAX_LIMIT}, default 10`),
  fields: ZFieldsParam,
  cursor: z.string().trim().min(1).max(1_000).optional().describe("nextCursor of the previous page, unchanged: continues the listing in its order"),
  sort: ZCategorySort,
  ...whereWhenInput,
});

export const ZLookupBusinessesOutput = z.object({
  category: z
    .object({ slug: z.string(), name: z.string() })
    .nullable()
    .describe("The category the query resolved to; null when a near search spans every category"),
  city: z
    .object({ slug: z.string(), name: z.string(), region: z.string(), country: z.string() })
    .nullable()
    .describe("The city the query resolved to (aliases and accents are accepted); null when a near search spans every city"),
  ...ZSearchHint,
  businesses: z.array(ZListing),
  total: z.number().int().describe("Number of results returned"),
  totalMatches: z.number().int().describe("Number of all matches for the category and city, over every page (counted when the listing began)"),
  nextCursor: z.string().nullable().describe("Pass as cursor for the next page; null on the last page"),
  ...ZOpenFilterCount,
  ...ZPageAttributions,
  limit: z.number().int(),
  apiVersion: z.string(),
  rankingDisclosure: z.string().describe("The order these results are in (the spec's ranking, or sort=rating), in plain words"),
});

export type TLookupBusinessesInput = z.input<typeof ZLookupBusinessesInput>;
export type TLookupBusinessesOutput = z.infer<typeof ZLookupBusinessesOutput>;

export const lookupBusinessesMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/businesses",
    operationId: "lookupBusinesses",
    tags: ["search"],
    summary: "Anonymous single category + city lookup",
    description:
      "Resolves the category (plurals, synonyms) and the city (aliases, accents) and says what it matched; " +
      "an unknown category or city is a 404 that names it. Same listing shape and order as searchBusinesses. " +
      "Pages with a cursor: pass nextCursor back as cursor until it is null; totalMatches counts every page. " +
      "sort=rating orders best-rated first (no rating last), then by review count, then name; rankingDisclosure names the order used. " +
      `${COUNTRY_DESCRIPTION} ${WHERE_WHEN_DESCRIPTION} With near or country, city is optional too.`,
    errorResponses: {
      400: `Invalid parameter: category missing (without near), city missing (without near or country) or longer than 100 characters, limit outside 1 to 50, sort other than ranking, rating or distance, or a cursor that is not an unchanged nextCursor of the same search, ${COUNTRY_400}; ${WHERE_WHEN_400}`,
      404: "Unknown category or city: the body names which one did not resolve",
    },
  },
};
