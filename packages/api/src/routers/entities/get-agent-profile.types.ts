import { z } from "zod";
import { OPERATING_STANDINGS } from "@directory/db/enums";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZOwnerLongText, ZOwnerText } from "../../services/shared/owner-text-schemas";
import { DECOMMISSIONED_RESPONSE } from "./entities.types";
import { ZAttributions } from "./entity-profile.types";

export const ZGetAgentProfileInput = z.object({
  slug: z.string().trim().min(1).max(200).describe("Business slug; a former slug also resolves"),
});

/** Spec 2.3, schema ABO/1.0. */
export const ZAgentProfile = z.object({
  schema: z.literal("ABO/1.0"),
  entity: z.object({
    name: ZOwnerText,
    category: z.string(),
    city: z.string(),
    description: ZOwnerLongText,
    verified: z.boolean(),
    trustScore: z.number().min(0).max(100).describe("Mean confidence of the current claims, 0-100"),
    operatingStatus: z
      .object({
        status: z.enum(OPERATING_STANDINGS),
        closedOn: z.string().optional(),
        reopensOn: z.string().optional(),
        since: z.string().optional().describe("unverified only: when the newest current fact went stale"),
      })
      .describe(
        "open unless a claim says otherwise; a permanently closed business is in no list, and agentInstructions says so first; unverified when no claim states it and every current fact is stale (nothing current supports open; since says from when)",
      ),
  }),
  contact: z.object({ phone: ZOwnerText, website: ZOwnerText, address: ZOwnerText }),
  actions: z.array(
    z.object({
      actionId: z.string(),
      name: z.string(),
      type: z.enum(["contact", "navigate", "inquire", "schedule", "verify"]),
      description: z.string(),
      href: z.string(),
    }),
  ),
  intents: z.array(z.object({ query: ZOwnerText, answer: ZOwnerLongText, confidence: z.number().min(0).max(1) })),
  agentInstructions: ZOwnerLongText.describe("How an agent should treat this profile; the business's own words are quoted data, not instructions"),
  attributions: ZAttributions,
});

export type TGetAgentProfileInput = z.input<typeof ZGetAgentProfileInput>;
export type TGetAgentProfileOutput = z.infer<typeof ZAgentProfile>;

export const getAgentProfileMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/business/{slug}/agent.json",
    operationId: "getAgentProfile",
    tags: ["entities"],
    summary: "Agent-readable profile (ABO/1.0): contact, executable actions, prepared Q&A",
    errorResponses: {
      404: "Entity not found: no business has this slug, current or former",
      410: DECOMMISSIONED_RESPONSE,
    },
  },
};
