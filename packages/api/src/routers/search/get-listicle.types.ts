import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZListing } from "./listing.types";
import { ZCategoryParam, ZCityParam, ZListicleSort, ZResolvedCategory, ZResolvedCity, ZToolLimit } from "./search.types";

export const ZGetListicleInput = z.object({ category: ZCategoryParam, city: ZCityParam, limit: ZToolLimit, sort: ZListicleSort });

export const ZGetListicleOutput = z.object({
  title: z.string(),
  category: ZResolvedCategory,
  city: ZResolvedCity,
  businesses: z.array(ZListing),
  total: z.number().int(),
  orderedBy: z.enum(["directoryCompletenessScore, then name", "rating, then review count, then name"]),
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
      "The REST door of the MCP tool get_listicle: ordered by directory completeness score then name, or with sort=rating best-rated first; orderedBy names the order used.",
    errorResponses: {
      400: "Invalid parameter: category or city missing or longer than 100 characters, limit outside 1 to 10, or sort other than completeness or rating",
      404: "Unknown category: the body names it and the closest valid values (GET /api/v2/categories lists them all), or an unknown city",
    },
  },
};
