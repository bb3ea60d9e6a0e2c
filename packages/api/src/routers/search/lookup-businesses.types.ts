import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZFieldsParam, ZListing } from "./listing.types";
import { ZCategorySort } from "./search.types";

export const LOOKUP_MAX_LIMIT = 50;

export const ZLookupBusinessesInput = z.object({
  category: z.string().trim().min(1).max(100).describe("Category name, plural or synonym"),
  city: z.string().trim().min(1).max(100).describe('City name or alias, optionally with ", CC" country code'),
  limit: z.number().int().min(1).max(LOOKUP_MAX_LIMIT).default(10).describe(`1 to ${LOOKUP_MAX_LIMIT}, default 10`),
  fields: ZFieldsParam,
  cursor: z.string().trim().min(1).max(1_000).optional().describe("nextCursor of the previous page, unchanged: continues the listing in its order"),
  sort: ZCategorySort,
});

export const ZLookupBusinessesOutput = z.object({
  category: z.object({ slug: z.string(), name: z.string() }).describe("The category the query resolved to"),
  city: z
    .object({ slug: z.string(), name: z.string(), region: z.string(), country: z.string() })
    .describe("The city the query resolved to (aliases and accents are accepted)"),
  businesses: z.array(ZListing),
  total: z.number().int().describe("Number of results returned"),
  totalMatches: z.number().int().describe("Number of all matches for the category and city, over every page (counted when the listing began)"),
  nextCursor: z.string().nullable().describe("Pass as cursor for the next page; null on the last page"),
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
      "sort=rating orders best-rated first (no rating last), then by review count, then name; rankingDisclosure names the order used.",
    errorResponses: {
      400: "Invalid parameter: category or city missing or longer than 100 characters, limit outside 1 to 50, sort other than ranking or rating, or a cursor that is not an unchanged nextCursor of the same category and city",
      404: "Unknown category or city: the body names which one did not resolve",
    },
  },
};
