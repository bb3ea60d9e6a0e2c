import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZListing } from "./listing.types";
import { whereWhenInput } from "../../services/where-when/where-when-params";
import {
  ZCategoryParam,
  COUNTRY_400,
  ZCityParam,
  ZCountryParam,
  ZCursorParam,
  ZListicleSort,
  ZOpenFilterCount,
  ZPageAttributions,
  ZPaging,
  ZResolvedCategory,
  ZResolvedCity,
  ZToolLimit,
} from "./search.types";
import { WHERE_WHEN_400, WHERE_WHEN_DESCRIPTION } from "./where-when.types";

export const ZGetListicleInput = z.object({
  category: ZCategoryParam,
  city: ZCityParam,
  country: ZCountryParam,
  limit: ZToolLimit,
  sort: ZListicleSort,
  cursor: ZCursorParam,
  ...whereWhenInput,
});

export const ZGetListicleOutput = z.object({
  title: z.string(),
  category: ZResolvedCategory,
  city: ZResolvedCity,
  businesses: z.array(ZListing),
  total: z.number().int(),
  ...ZPaging,
  ...ZOpenFilterCount,
  ...ZPageAttributions,
  orderedBy: z.enum(["directoryCompletenessScore, then name", "rating, then review count, then name", "distance, then directoryCompletenessScore, then name"]),
  paidPlacement: z.literal(false),
  disclosure: z.string(),
});

export type TGetListicleInput = z.input<typeof ZGetListicleInput>;
export type TGetListicleOutput = z.infer<typeof ZGetListicleOutput>;

export const getListicleMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/listicle",
    operationId: "getListicle",
    tags: ["search"],
    summary: "Best N of a category in a city, never a paid placement",
    description:
      "The REST door of the MCP tool get_listicle: ordered by directory completeness score then name, or with sort=rating best-rated first; orderedBy names the order used. Pages with a cursor: pass nextCursor back as cursor until it is null. " +
      `${WHERE_WHEN_DESCRIPTION} The category and city stay required: near narrows the city's listicle to the circle. country=<ISO 3166-1 alpha-2> looks the city up in that country.`,
    errorResponses: {
      400: `Invalid parameter: category or city missing or longer than 100 characters, limit outside 1 to 10, sort other than completeness, rating or distance, or a cursor that is not an unchanged nextCursor of the same listicle, ${COUNTRY_400}; ${WHERE_WHEN_400}`,
      404: "Unknown category: the body names it and the closest valid values (GET /api/v2/categories lists them all), or an unknown city",
    },
  },
};
