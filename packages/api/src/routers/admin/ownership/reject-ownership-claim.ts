import { rejectOwnershipClaim } from "../../../services/claims/ownership-review";
import { adminProcedure } from "../../../procedures/builders";
import { ZDecideOwnershipClaimInput } from "./decide-ownership-claim.types";
import { ZOwnershipClaimSummary } from "./ownership-admin.types";

/** Rejects a pending claim (any method); no owner changes. */
export const rejectClaim = adminProcedure
  .input(ZDecideOwnershipClaimInput)
  .output(ZOwnershipClaimSummary)
  .mutation(({ ctx, input }) => rejectOwnershipClaim(ctx.db, input));
