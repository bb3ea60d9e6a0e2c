import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZCurrencyCode, ZOwnerLongText, ZOwnerText } from "../../services/shared/owner-text-schemas";
import { DECOMMISSIONED_RESPONSE, ZBusinessRef, type ZBySlugInput } from "./entities.types";

export const ZOffersOutput = z.object({
  business: ZBusinessRef,
  offers: z.array(
    z.object({
      title: ZOwnerText,
      description: ZOwnerLongText.nullable(),
      price: z.string().describe("Decimal amount, exact"),
      currency: ZCurrencyCode,
      validUntil: z.string().nullable(),
    }),
  ),
  total: z.number().int(),
});

export type TGetOffersInput = z.input<typeof ZBySlugInput>;
export type TGetOffersOutput = z.infer<typeof ZOffersOutput>;

export const getOffersMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/offers",
    operationId: "getOffers",
    tags: ["entities"],
    summary: "A business's published offers: products or services with prices",
    description: "The REST door of the MCP tool get_offers, by slug (a former slug also resolves).",
    errorResponses: {
      400: "Invalid parameter: slug missing or longer than 200 characters",
      404: "Entity not found: no business has this slug, current or former",
      410: DECOMMISSIONED_RESPONSE,
    },
  },
};
