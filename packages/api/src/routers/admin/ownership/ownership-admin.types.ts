import { z } from "zod";
import { OWNERSHIP_CLAIM_STATUSES, OWNERSHIP_METHODS } from "@directory/db";
import { ZOwnerLongText } from "../../../services/shared/owner-text-schemas";

/** Shared pieces of the admin ownership procedures. */
export const ZOwnershipClaimId = z.string().trim().min(1).max(64).describe("The claim's id (from claims list)");

export const ZOwnershipClaimSummary = z.object({
  id: z.string(),
  business: z.object({ slug: z.string(), name: z.string() }),
  email: z.string().describe("The claimant's address (their account's)"),
  method: z.enum(OWNERSHIP_METHODS),
  status: z.enum(OWNERSHIP_CLAIM_STATUSES),
  // The claimant wrote it: cleaned like any owner text, so no hidden or control character reaches a terminal.
  evidence: ZOwnerLongText.nullable().describe("What the claimant told the operator (a review); null for a website or email claim"),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable().describe('"operator", or "account:<id>" when the claimant proved it'),
  agencySlug: z
    .string()
    .nullable()
    .describe("The agency the claim is made for, which gets access to the listing when it succeeds; null for a claim for oneself"),
});

export type TOwnershipClaimSummary = z.infer<typeof ZOwnershipClaimSummary>;
