import { z } from "zod";
import { ZAgencySlug } from "../../procedures/submission-inputs";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";

/** The listing a claim is about, by its slug (current or former). */
export const ZListingSlugInput = z.object({ slug: z.string().trim().min(1).max(200).describe("The listing's slug") });

/** Starting a claim: the listing, and optionally one of the person's agencies it is claimed for. */
export const ZClaimStartInput = ZListingSlugInput.extend({
  agencySlug: ZAgencySlug.optional().describe(
    "Claim for this agency, of which you are a member (404 otherwise): when the claim succeeds it also gets access to the listing",
  ),
});

/** A proof that held: the person now owns the listing. */
export const ZProvenClaimOutput = z.object({
  owner: z.literal(true),
  method: z.enum(["website", "email"]),
  business: z.object({ slug: z.string(), name: ZOwnerText }),
});

export type TListingSlugInput = z.input<typeof ZListingSlugInput>;
export type TClaimStartInput = z.input<typeof ZClaimStartInput>;
export type TProvenClaimOutput = z.infer<typeof ZProvenClaimOutput>;
