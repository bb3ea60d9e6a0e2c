import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZBusinessRef } from "../entities/entities.types";
import { ZManagedSlug } from "./owner-listing.types";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";

export const ZCitationsInput = z.object({ slug: ZManagedSlug, limit: z.number().int().min(1).max(100).default(20).describe("Checks to return") });

export const ZCitationsOutput = z.object({
  business: ZBusinessRef,
  checks: z.array(
    z.object({
      engine: z.string(),
      model: z.string().nullable().describe("The engine's model that answered; null when the answer's source did not say"),
      query: ZOwnerText.describe("The question the engine was asked (third-party text)"),
      mentioned: z.boolean(),
      position: z.number().int().nullable().describe("1-based place among the businesses the answer names; null when not mentioned"),
      checkedAt: z.string(),
    }),
  ),
  total: z.number().int(),
});

export type TCitationsInput = z.input<typeof ZCitationsInput>;
export type TCitationsOutput = z.infer<typeof ZCitationsOutput>;

export const getMyCitationsMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/owner/citations",
    operationId: "getMyCitations",
    tags: ["owner"],
    summary: "The key's own business: recent AI-platform checks, newest first",
    description: "Business-scoped key only (the MCP tool get_my_citations): engine, time, question, whether and where the business was named.",
  },
};
