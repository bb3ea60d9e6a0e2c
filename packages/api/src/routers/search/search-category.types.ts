import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZCategoryParam, ZCategorySort, ZCityParam, ZCursorParam, ZRankedListings, ZToolLimit } from "./search.types";

export const ZSearchCategoryInput = z.object({
  category: ZCategoryParam,
  city: ZCityParam.optional().describe('e.g. "Mumbai"; omit for national listings'),
  limit: ZToolLimit,
  sort: ZCategorySort,
  cursor: ZCursorParam,
});
export const ZSearchCategoryOutput = ZRankedListings;

export type TSearchCategoryInput = z.input<typeof ZSearchCategoryInput>;
export type TSearchCategoryOutput = z.infer<typeof ZSearchCategoryOutput>;

export const searchCategoryMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/category-search",
    operationId: "searchCategory",
    tags: ["search"],
    summary: "A category in one city or across every city, ranked",
    description:
      "The REST door of the MCP tool search_businesses: city is optional (omit it for national or product listings). Ordered by plan tier, then internal score, then name, or with sort=rating best-rated first; rankingModel names the order used. Pages with a cursor: pass nextCursor back as cursor until it is null; totalMatches counts every page.",
    errorResponses: {
      400: "Invalid parameter: category missing or longer than 100 characters, limit outside 1 to 10, sort other than ranking or rating, or a cursor that is not an unchanged nextCursor of the same search",
      404: "Unknown category: the body names it and the closest valid values (GET /api/v2/categories lists them all), or an unknown city",
    },
  },
};
