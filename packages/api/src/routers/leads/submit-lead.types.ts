import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { LEAD_CONSENT_RULE } from "../../services/agents/agent-facts";
import { type ZSubmitLeadInput } from "../../procedures/submission-inputs";
import { ZLeadView } from "./leads.types";

export const ZSubmitLeadOutput = ZLeadView.extend({ businessSlug: z.string().nullable() });

export type TSubmitLeadInput = z.input<typeof ZSubmitLeadInput>;
export type TSubmitLeadOutput = z.infer<typeof ZSubmitLeadOutput>;

export const submitLeadMeta: OpenApiMeta = {
  openapi: {
    method: "POST",
    path: "/api/v2/leads",
    operationId: "submitLead",
    tags: ["leads"],
    summary: "Send a consented lead to a business",
    description:
      `The REST door of the MCP tool submit_lead, with the same rules. A lead ${LEAD_CONSENT_RULE} ` +
      "consent.userAgreedToBeContacted must be the literal true and statementShownToUser the statement the user agreed to. " +
      "Retrying with the same idempotencyKey returns the first lead instead of a second one.",
    errorResponses: {
      400: "Invalid body: no consent attestation (or not the literal true), a consent statement too short or a consentedAt outside the last 24 hours, neither contactEmail nor contactPhone, or a field out of range; the body names it",
      404: "Entity not found: no business has this slug",
      409: "This idempotencyKey was already used for a different lead",
      410: "The business no longer takes leads (decommissioned or subscription expired)",
    },
  },
};
