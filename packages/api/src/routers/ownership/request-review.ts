import { ownershipClaimProcedure } from "../../procedures/builders";
import { requestReview as request } from "../../services/ownership/review-claims";
import { ZRequestReviewInput, ZRequestReviewOutput } from "./request-review.types";

/** Asks an operator to decide (the only way to claim a listing that has an owner); one pending review per person and listing. */
export const requestReview = ownershipClaimProcedure("start", ZRequestReviewInput)
  .output(ZRequestReviewOutput)
  .mutation(async ({ ctx, input }) => {
    const review = await request(ctx.db, { businessId: ctx.listing.id, accountId: ctx.session.account.id, evidence: input.evidence });
    return { ...review, createdAt: review.createdAt.toISOString() };
  });
