import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { COUNTRY_400, ZCategoryParam, ZCountryParam, ZCursorParam, ZPaging, ZResolvedCategory } from "./search.types";

export const ZAvailableCitiesInput = z.object({
  category: ZCategoryParam,
  country: ZCountryParam,
  limit: z.number().int().min(1).max(50).default(20).describe("Cities per page"),
  cursor: ZCursorParam,
});

export const ZAvailableCitiesOutput = z.object({
  category: ZResolvedCategory,
  cities: z.array(z.object({ name: z.string(), slug: z.string(), country: z.string(), region: z.string(), listings: z.number().int() })),
  total: z.number().int(),
  ...ZPaging,
});

export type TAvailableCitiesInput = z.input<typeof ZAvailableCitiesInput>;
export type TAvailableCitiesOutput = z.infer<typeof ZAvailableCitiesOutput>;

export const availableCitiesMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/cities",
    operationId: "availableCities",
    tags: ["search"],
    summary: "The cities that have listings in a category, most listings first",
    description:
      "The REST door of the MCP tool get_available_cities. Pages with a cursor: pass nextCursor back as cursor until it is null; totalMatches counts every city. country=<ISO 3166-1 alpha-2> (either case) keeps that country's cities.",
    errorResponses: {
      400: `Invalid parameter: category missing or longer than 100 characters, limit outside 1 to 50, a cursor that is not an unchanged nextCursor of the same category, or ${COUNTRY_400}`,
      404: "Unknown category: the body names it and the closest valid values (GET /api/v2/categories lists them all)",
    },
  },
};
