import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZFieldsParam, ZListing } from "./listing.types";

export const ZSearchBusinessesInput = z.object({
  category: z.string().trim().min(1).max(100).describe("Type of business, e.g. dentist, plumbers, dental clinic"),
  city: z.string().trim().min(1).max(100).describe('City name or alias, optionally with ", CC" country code'),
  limit: z.number().int().min(1).max(10).default(5).describe("1 to 10, default 5"),
  fields: ZFieldsParam,
});

export const ZSearchBusinessesOutput = z.object({
  businesses: z.array(ZListing),
  total: z.number().int().describe("Number of results returned"),
  query: z.object({ category: z.string(), city: z.string() }).describe("Echo of the query"),
  browseUrl: z.string(),
  apiVersion: z.string().describe("Score contract version"),
  rankingDisclosure: z.string(),
});

export type TSearchBusinessesInput = z.input<typeof ZSearchBusinessesInput>;
export type TSearchBusinessesOutput = z.infer<typeof ZSearchBusinessesOutput>;

export const searchBusinessesMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/assistant-plugin",
    operationId: "searchBusinesses",
    tags: ["search"],
    summary: "Search businesses by category and city",
    description: "No authentication. Active businesses only; ordered by plan tier, then internal score, then name.",
    errorResponses: {
      400: "A required parameter (category or city) is missing, or a parameter is invalid (limit outside 1 to 10, text longer than 100 characters)",
    },
  },
};
