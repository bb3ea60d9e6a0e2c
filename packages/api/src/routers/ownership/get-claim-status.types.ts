import { z } from "zod";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";

export const ZGetClaimStatusOutput = z.object({
  business: z.object({ slug: z.string(), name: ZOwnerText }),
  openToSelfProof: z.boolean().describe("Website and email proofs are offered (the listing has no owner); otherwise only a review"),
  isOwner: z.boolean().describe("The signed-in person owns the listing"),
  website: z.string().nullable().describe("The listing's current website, where a website token goes; null: no website proof"),
  hasEmail: z.boolean().describe("The listing has an email address a code can be mailed to"),
  pending: z
    .array(
      z.object({
        method: z.enum(["website", "email", "review"]),
        status: z.literal("pending"),
        expiresAt: z.string().nullable().describe("ISO time the token or code stops working; null for a review"),
        attemptsLeft: z.number().int().nullable().describe("Tries left for an email code; null otherwise"),
        agencySlug: z.string().nullable().describe("The agency the claim is made for (one of yours when you started it); null: for yourself"),
      }),
    )
    .describe("The person's claims on this listing still waiting (never a token or code)"),
});

export type TGetClaimStatusOutput = z.infer<typeof ZGetClaimStatusOutput>;
