import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZBusinessRef } from "../entities/entities.types";
import { ZManagedSlug } from "./owner-listing.types";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";

export const ZCitationsInput = z.object({ slug: ZManagedSlug, limit: z.number().int().min(1).max(100).default(20).describe("Checks to return") });

/** How checks are made and scored (services/citations/method.ts), served with every owner answer about citations. */
export const ZCitationMethod = z
  .object({ questions: z.string(), schedule: z.string(), recheck: z.string(), mentions: z.string(), score: z.string() })
  .describe("How checks are asked, scheduled and rechecked, how a mention and its position are found, how the score follows");

/** Whether this service runs checks of its own; with no engine, the checks are ingested answers only. */
export const ZCitationEngines = z
  .object({
    configured: z.boolean().describe("false: no engine is configured, so the service runs no checks of its own"),
    names: z.array(z.string()).describe("The engines asked, as engine:model"),
    note: z.string().describe("The same in one sentence, to show the owner"),
  })
  .describe("The AI engines this service asks");

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
      sources: z.array(z.string()).describe("URLs the engine cited"),
    }),
  ),
  total: z.number().int(),
  engines: ZCitationEngines,
  method: ZCitationMethod,
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
