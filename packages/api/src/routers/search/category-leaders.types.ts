import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZCategoryParam, ZCursorParam, ZRankedListings, ZToolLimit } from "./search.types";

export const ZCategoryLeadersInput = z.object({ category: ZCategoryParam, limit: ZToolLimit, cursor: ZCursorParam });
export const ZCategoryLeadersOutput = ZRankedListings;

export type TCategoryLeadersInput = z.input<typeof ZCategoryLeadersInput>;
export type TCategoryLeadersOutput = z.infer<typeof ZCategoryLeadersOutput>;

export const categoryLeadersMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/category-leaders",
    operationId: "categoryLeaders",
    tags: ["search"],
    summary: "The top-ranked businesses of a category across every city",
    description: "The REST door of the MCP tool get_category_leaders, in the search ranking: plan tier, then internal score, then name.",
    errorResponses: {
      400: "Invalid parameter: category missing or longer than 100 characters, or limit outside 1 to 10",
      404: "Unknown category: the body names it and the closest valid values (GET /api/v2/categories lists them all)",
    },
  },
};
