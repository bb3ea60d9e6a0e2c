import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZFieldsParam, ZListing } from "./listing.types";
import { ZPageAttributions, ZPluginSort } from "./search.types";

export const ZSearchBusinessesInput = z.object({
  category: z.string().trim().min(1).max(100).describe("Type of business, e.g. dentist, plumbers, dental clinic"),
  city: z.string().trim().min(1).max(100).describe('City name or alias, optionally with ", CC" country code'),
  limit: z.number().int().min(1).max(10).default(5).describe("1 to 10, default 5"),
  fields: ZFieldsParam,
  sort: ZPluginSort,
});

export const ZSearchBusinessesOutput = z.object({
  businesses: z.array(ZListing),
  total: z.number().int().describe("Number of results returned"),
  query: z.object({ category: z.string(), city: z.string() }).describe("Echo of the query"),
  browseUrl: z.string(),
  apiVersion: z.string().describe("Score contract version"),
  rankingDisclosure: z.string(),
  suggestions: z
    .object({
      unknown: z.enum(["category", "city"]).describe("Which argument did not resolve"),
      input: z.string(),
      closest: z.array(z.string()).describe("The closest valid values, nearest first; each may be passed as it is"),
      message: z.string().describe("One sentence naming the miss, the closest values and where every valid value is listed"),
    })
    .nullable()
    .describe("null when category and city resolved; otherwise why the list is empty and what to try instead"),
  ...ZPageAttributions,
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
    description:
      "No authentication. Active businesses only; ordered by plan tier, then internal score, then name, or with sort=rating best-rated first; rankingDisclosure names the order used. An unknown category or city answers 200 with an empty list and suggestions naming the closest valid values.",
    errorResponses: {
      400: "A required parameter (category or city) is missing, or a parameter is invalid (limit outside 1 to 10, text longer than 100 characters, sort other than ranking or rating)",
    },
  },
};
