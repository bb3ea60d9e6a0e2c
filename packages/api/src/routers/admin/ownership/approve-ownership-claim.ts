import { approveOwnershipClaim } from "../../../services/claims/ownership-review";
import { adminProcedure } from "../../../procedures/builders";
import { ZDecideOwnershipClaimInput } from "./decide-ownership-claim.types";
import { ZOwnershipClaimSummary } from "./ownership-admin.types";

/** Approves a pending claim by review: the claimant becomes an owner and the listing owner_verified, in one transaction. */
export const approveClaim = adminProcedure
  .input(ZDecideOwnershipClaimInput)
  .output(ZOwnershipClaimSummary)
  .mutation(({ ctx, input }) => approveOwnershipClaim(ctx.db, input));
