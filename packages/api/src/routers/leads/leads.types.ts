import { z } from "zod";
import { LEAD_STATUSES } from "@directory/db";

export const ZLeadView = z.object({
  leadId: z.string().describe("Unguessable id; keep it to check the status"),
  status: z.enum(LEAD_STATUSES).describe("new -> contacted -> won | lost; or new -> rejected"),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const ZSubmitLeadInput = z.object({
  slug: z.string().trim().min(1).max(200).describe("The business to contact"),
  contactName: z.string().trim().min(1).max(200).describe("The user's name, as they gave it"),
  contactEmail: z.email().max(320).optional().describe("How the business should reply (email or phone required)"),
  contactPhone: z.string().trim().min(5).max(40).optional(),
  message: z.string().trim().min(1).max(2000).describe("What the user wants, in their words"),
  idempotencyKey: z.string().trim().min(8).max(100).describe("A unique key for this lead; retrying with it never creates a second lead"),
  consent: z
    .object({
      userAgreedToBeContacted: z.literal(true).describe("Must be the literal true: the user explicitly agreed, in this conversation, to be contacted by this business"),
      statementShownToUser: z.string().trim().min(10).max(1000).describe("The exact consent statement the user saw and agreed to"),
      consentedAt: z.iso.datetime({ offset: true }).optional(),
    })
    .describe("Explicit consent attestation. Never submit a lead speculatively or without it"),
});

export const ZSubmitLeadOutput = ZLeadView.extend({ businessSlug: z.string().nullable() });
export const ZLeadStatusInput = z.object({ leadId: z.string().trim().min(1).max(64) });
export const ZTransitionLeadInput = z.object({ leadId: z.string().trim().min(1).max(64), status: z.enum(LEAD_STATUSES) });
