import { z } from "zod";
import { cleanOwnerText } from "../../services/shared/owner-text";
import { ZLeadView } from "./leads.types";

/** Consent shown as invisible characters is no consent: count only what a person could read. */
export const MIN_VISIBLE_CONSENT_CHARACTERS = 10;
/** How old an attested consent may be, and how far ahead of our clock a client's may run. */
export const CONSENT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
export const CONSENT_CLOCK_SKEW_MS = 5 * 60 * 1000;

function visibleLength(text: string): number {
  return cleanOwnerText(text, Number.POSITIVE_INFINITY).replace(/\s/gu, "").length;
}

function isRecentConsent(iso: string): boolean {
  const age = Date.now() - new Date(iso).getTime();
  return age <= CONSENT_MAX_AGE_MS && age >= -CONSENT_CLOCK_SKEW_MS;
}

export const ZSubmitLeadInput = z.object({
  slug: z.string().trim().min(1).max(200).describe('Slug of the business the user agreed to be contacted by, e.g. "gupta-dental-care-mumbai"'),
  contactName: z.string().trim().min(1).max(200).describe("The user's name, as they gave it"),
  contactEmail: z
    .string()
    .trim()
    .toLowerCase()
    .max(320)
    .pipe(z.email("contactEmail must be an email address"))
    .optional()
    .describe("The user's email for the reply, stored lower-cased (email or phone required)"),
  contactPhone: z
    .string()
    .trim()
    .min(5)
    .max(40)
    .regex(/^\+?[\d\s().-]+$/, "contactPhone may hold only digits, spaces, ( ) . - and a leading +")
    .optional()
    .describe("The user's phone for the reply, best in international form (+44 20 7946 0958); stored as E.164. Email or phone required"),
  message: z.string().trim().min(1).max(2000).describe("What the user wants, in their words"),
  idempotencyKey: z
    .string()
    .trim()
    .min(8)
    .max(100)
    .describe(
      "A unique key for this lead, e.g. a random UUID generated once; retrying with it never creates a second lead. Keys are yours alone: another caller's equal key is a different lead",
    ),
  consent: z
    .object({
      userAgreedToBeContacted: z
        .literal(true)
        .describe("Must be the literal true: the user explicitly agreed, in this conversation, to be contacted by this business"),
      statementShownToUser: z
        .string()
        .trim()
        .max(1000)
        .refine(
          (text) => visibleLength(text) >= MIN_VISIBLE_CONSENT_CHARACTERS,
          `must hold at least ${MIN_VISIBLE_CONSENT_CHARACTERS} visible characters: the exact statement the user saw`,
        )
        .describe(`The exact consent statement the user saw and agreed to (at least ${MIN_VISIBLE_CONSENT_CHARACTERS} visible characters)`),
      consentedAt: z.iso
        .datetime({ offset: true })
        .refine(isRecentConsent, "must lie within the last 24 hours and not in the future")
        .optional()
        .describe("When the user agreed, ISO-8601 with offset, within the last 24 hours; default: now"),
    })
    .describe("Explicit consent attestation. Never submit a lead speculatively or without it"),
});

export const ZSubmitLeadOutput = ZLeadView.extend({ businessSlug: z.string().nullable() });

export type TSubmitLeadInput = z.input<typeof ZSubmitLeadInput>;
export type TSubmitLeadOutput = z.infer<typeof ZSubmitLeadOutput>;
