import { z } from "zod";
import { CORRECTABLE_PROPERTIES } from "@directory/db/enums";
import { LEAD_CONSENT_RULE } from "../services/agents/agent-facts";
import { ZOperatingStatusValue } from "../services/claims/claim-values";
import { hasVisibleText, visibleLength } from "../services/shared/owner-text";
import { ZOwnerLongText } from "../services/shared/owner-text-schemas";

/*
 * The inputs of the two submission procedures. They live with the builders, not beside their
 * procedures, because the builders bind them before the submission limits (builders.ts): a
 * correction is counted only once its input is valid, a lead only once it is recorded (limits.ts
 * countNewLead), so a refused draft costs no one's allowance.
 */

/** Consent shown as invisible characters is no consent: count only what a person could read (owner-text.ts has the rule). */
export const MIN_VISIBLE_CONSENT_CHARACTERS = 10;
/** How old an attested consent may be, and how far ahead of our clock a client's may run. */
export const CONSENT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
export const CONSENT_CLOCK_SKEW_MS = 5 * 60 * 1000;

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
    .object(
      {
        userAgreedToBeContacted: z
          .literal(true, {
            error: (issue) => (issue.input === undefined ? `${MISSING_INPUT}; ${CONSENT_RULE_TEXT}` : `must be the literal true: ${CONSENT_RULE_TEXT}`),
          })
          .describe("The user agreed, in this conversation, to be contacted by this business"),
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
      },
      { error: (issue) => (issue.input === undefined ? `${MISSING_INPUT}; ${CONSENT_RULE_TEXT}` : `an object: ${CONSENT_RULE_TEXT}`) },
    )
    .describe("The user's explicit consent; never speculative"),
});

/**
 * The consent rule, said in the error itself when consent is missing or not the literal true: MCP
 * errors reach the model as text only, not beside the tool's description.
 */
const CONSENT_RULE_TEXT = `a lead ${LEAD_CONSENT_RULE} Ask the user first; then send consent.userAgreedToBeContacted true and consent.statementShownToUser, the exact statement they agreed to.`;

/** How zod says a parameter is missing: describeValidationError (errors.ts) reads it as a missing parameter. */
const MISSING_INPUT = "Invalid input: received undefined";

/**
 * A correction: property and value are checked by the write path's own rule (claim-values.ts) in
 * the service, so a bad one is the same 400 as an owner edit's, naming the property.
 */
export const ZSubmitCorrectionInput = z.object({
  slug: z.string().trim().min(1).max(200).describe("Business slug"),
  property: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .describe(`One of ${CORRECTABLE_PROPERTIES.join(", ")}`),
  value: z.unknown().optional().describe("Correct value; null removes it"),
  operatingStatus: ZOperatingStatusValue.optional().describe("Or, for a closure, this instead"),
  evidence: ZOwnerLongText.describe("Text or URL showing it; cut at 1,000 chars"),
  observedAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/, "an ISO date-time with its offset")
    .refine((text) => !Number.isNaN(Date.parse(text)), "an ISO date-time that exists")
    .optional()
    .describe("When seen"),
  dryRun: z.boolean().optional().describe("Validate only"),
});

/**
 * A person's address: one that can receive mail. Addresses under .invalid never do (RFC 2606), and
 * the accounts that hold an agency's plan and keys live there, so nobody can sign in as one.
 */
export const ZPersonEmail = z
  .email({ error: "must be an email address" })
  .max(254)
  .transform((email) => email.toLowerCase())
  .refine((email) => !email.endsWith(".invalid"), "must be an address that receives mail (not under .invalid)");

/** An agency named by its slug, wherever one is named (agency.*, access granted by owners, claims for an agency): case and spaces aside. */
export const ZAgencySlug = z.string().trim().toLowerCase().min(1).max(80).describe("The agency's slug");

/** An address to mail a sign-in link to; bound before the sign-in mail limits, which count per address. */
export const ZRequestSignInInput = z.object({ email: ZPersonEmail });
