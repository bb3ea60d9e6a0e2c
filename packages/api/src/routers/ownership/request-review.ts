import { ownershipClaimProcedure } from "../../procedures/builders";
import { claimingAgencyId } from "../../services/ownership/agency-claims";
import { requestReview as request } from "../../services/ownership/review-claims";
import { ZRequestReviewInput, ZRequestReviewOutput } from "./request-review.types";

/** Asks an operator to decide (the only way to claim a listing that has an owner); one pending review per person and listing. */
export const requestReview = ownershipClaimProcedure("start", ZRequestReviewInput)
  .output(ZRequestReviewOutput)
  .mutation(async ({ ctx, input }) => {
    const accountId = ctx.session.account.id;
    const agencyId = await claimingAgencyId(ctx.db, { agencySlug: input.agencySlug, accountId });
    const review = await request(ctx.db, { businessId: ctx.listing.id, accountId, agencyId, evidence: input.evidence });
    return { ...review, createdAt: review.createdAt.toISOString() };
  });
