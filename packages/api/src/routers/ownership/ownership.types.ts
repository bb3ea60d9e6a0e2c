import { z } from "zod";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";

/** The listing a claim is about, by its slug (current or former). */
export const ZListingSlugInput = z.object({ slug: z.string().trim().min(1).max(200).describe("The listing's slug") });

/** A proof that held: the person now owns the listing. */
export const ZProvenClaimOutput = z.object({
  owner: z.literal(true),
  method: z.enum(["website", "email"]),
  business: z.object({ slug: z.string(), name: ZOwnerText }),
});

export type TListingSlugInput = z.input<typeof ZListingSlugInput>;
export type TProvenClaimOutput = z.infer<typeof ZProvenClaimOutput>;
