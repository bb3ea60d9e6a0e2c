import { sessionProcedure } from "../../procedures/builders";
import { requireServableBySlug } from "../../services/entities/business-lookup";
import { claimStatus } from "../../services/ownership/claim-status";
import { ZGetClaimStatusOutput } from "./get-claim-status.types";
import { ZListingSlugInput } from "./ownership.types";

/** What the claim page of a listing shows the signed-in person: which proofs are open, and their claims waiting. */
export const getClaimStatus = sessionProcedure
  .input(ZListingSlugInput)
  .output(ZGetClaimStatusOutput)
  .query(async ({ ctx, input }) => {
    const listing = await requireServableBySlug(ctx.db, input.slug);
    const status = await claimStatus(ctx.db, { businessId: listing.id, accountId: ctx.session.account.id, now: new Date() });
    return {
      business: { slug: listing.slug, name: listing.name },
      ...status,
      pending: status.pending.map((claim) => ({ ...claim, expiresAt: claim.expiresAt?.toISOString() ?? null })),
    };
  });
