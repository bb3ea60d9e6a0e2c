import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { whereWhenInput } from "../../services/where-when/where-when-params";
import { WHERE_WHEN_400, WHERE_WHEN_DESCRIPTION } from "./where-when.types";
import {
  COUNTRY_400,
  COUNTRY_DESCRIPTION,
  ZCategoryParam,
  ZCategorySort,
  ZCityParam,
  ZCountryParam,
  ZCursorParam,
  ZRankedListings,
  ZToolLimit,
} from "./search.types";

export const ZSearchCategoryInput = z.object({
  category: ZCategoryParam.optional().describe('e.g. "dentist"; plurals and synonyms work; optional with near'),
  city: ZCityParam.optional().describe('e.g. "Mumbai"; omit for national listings or with near'),
  country: ZCountryParam,
  limit: ZToolLimit,
  sort: ZCategorySort,
  cursor: ZCursorParam,
  ...whereWhenInput,
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
      "The REST door of the MCP tool search_businesses: city is optional (omit it for national or product listings). Ordered by plan tier, then internal score, then name, or with sort=rating best-rated first; rankingModel names the order used. Pages with a cursor: pass nextCursor back as cursor until it is null; totalMatches counts every page. " +
      `${COUNTRY_DESCRIPTION} ${WHERE_WHEN_DESCRIPTION}`,
    errorResponses: {
      400: `Invalid parameter: category missing (without near) or longer than 100 characters, limit outside 1 to 10, sort other than ranking, rating or distance, or a cursor that is not an unchanged nextCursor of the same search, ${COUNTRY_400}; ${WHERE_WHEN_400}`,
      404: "Unknown category: the body names it and the closest valid values (GET /api/v2/categories lists them all), or an unknown city",
    },
  },
};
