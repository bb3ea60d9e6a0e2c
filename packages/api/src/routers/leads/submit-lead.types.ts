import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { LEAD_CONSENT_RULE } from "../../services/agents/agent-facts";
import { visibleLength } from "../../services/shared/owner-text";
import { ZLeadView } from "./leads.types";

/** Consent shown as invisible characters is no consent: count only what a person could read. */
export const MIN_VISIBLE_CONSENT_CHARACTERS = 10;
/** How old an attested consent may be, and how far ahead of our clock a client's may run. */
export const CONSENT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
export const CONSENT_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** A name or a message made only of invisible characters is empty. */
const hasVisibleText = (text: string) => visibleLength(text) > 0;

function isRecentConsent(iso: string): boolean {
  const age = Date.now() - new Date(iso).getTime();
  return age <= CONSENT_MAX_AGE_MS && age >= -CONSENT_CLOCK_SKEW_MS;
}

export const ZSubmitLeadInput = z.object({
  slug: z.string().trim().min(1).max(200).describe("The business the user agreed to be contacted by"),
  contactName: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine(hasVisibleText, "contactName must hold visible characters")
    .describe("The user's name, as they gave it"),
  contactEmail: z.string().trim().toLowerCase().max(320).pipe(z.email("contactEmail must be an email address")).optional().describe("Email or phone required"),
  contactPhone: z
    .string()
    .trim()
    .min(5)
    .max(40)
    .regex(/^\+?[\d\s().-]+$/, "contactPhone may hold only digits, spaces, ( ) . - and a leading +")
    .optional()
    .describe("Best international, e.g. +44 20 7946 0958"),
  message: z.string().trim().min(1).max(2000).refine(hasVisibleText, "message must hold visible characters").describe("What the user wants, in their words"),
  idempotencyKey: z
    .string()
    .trim()
    .min(8)
    .max(100)
    .describe("A random UUID made once per lead: a retry with it never makes a second lead (keys are per caller)"),
  consent: z
    .object({
      userAgreedToBeContacted: z.literal(true).describe("The user agreed, in this conversation, to be contacted by this business"),
      statementShownToUser: z
        .string()
        .trim()
        .max(1000)
        .refine(
          (text) => visibleLength(text) >= MIN_VISIBLE_CONSENT_CHARACTERS,
          `must hold at least ${MIN_VISIBLE_CONSENT_CHARACTERS} visible characters: the exact statement the user saw`,
        )
        .describe("The exact statement the user agreed to"),
      consentedAt: z.iso
        .datetime({ offset: true })
        .refine(isRecentConsent, "must lie within the last 24 hours and not in the future")
        .optional()
        .describe("Within the last 24 hours; default now"),
    })
    .describe("The user's explicit consent; never speculative"),
});

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
