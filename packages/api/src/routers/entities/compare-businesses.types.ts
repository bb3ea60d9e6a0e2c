import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZOwnerLongText, ZOwnerText, ZOwnerTextList } from "../../services/shared/owner-text-schemas";
import { DECOMMISSIONED_RESPONSE, ZSlug } from "./entities.types";

const ZComparedBusiness = z.object({
  slug: z.string(),
  name: ZOwnerText,
  category: z.string(),
  city: z.string(),
  rating: z.number().nullable(),
  planTier: z.string(),
  verified: z.boolean(),
  directoryCompletenessScore: z.number(),
  services: ZOwnerTextList,
  servicesText: ZOwnerLongText,
  usp: ZOwnerText,
  profileUrl: z.string(),
});

export const ZCompareInput = z.object({ slugA: ZSlug.describe("Slug of the first business"), slugB: ZSlug.describe("Slug of the second business") });
export const ZCompareOutput = z.object({
  businesses: z.tuple([ZComparedBusiness, ZComparedBusiness]),
  sharedServices: ZOwnerTextList,
  differences: z.array(ZOwnerLongText),
});

export type TCompareInput = z.input<typeof ZCompareInput>;
export type TCompareOutput = z.infer<typeof ZCompareOutput>;

export const compareBusinessesMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/compare",
    operationId: "compareBusinesses",
    tags: ["entities"],
    summary: "Two businesses side by side: scores, services, USPs, differences",
    description: "The REST door of the MCP tool compare_businesses. Former slugs resolve.",
    errorResponses: {
      400: "Invalid parameter: slugA or slugB missing or longer than 200 characters, or both name the same business",
      404: "Entity not found: no business has slugA or slugB (the body names which)",
      410: DECOMMISSIONED_RESPONSE,
    },
  },
};
