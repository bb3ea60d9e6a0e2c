import { verifyClaim as verifyCurrentClaim } from "../../services/claims/verification";
import { adminProcedure } from "../../procedures/builders";
import { verifyClaimMeta, ZVerifyClaimInput, ZVerifyClaimOutput } from "./verify-claim.types";

/** POST /api/v2/admin/claims/verify: the current value, now admin-verified. */
export const verifyClaim = adminProcedure
  .meta(verifyClaimMeta)
  .input(ZVerifyClaimInput)
  .output(ZVerifyClaimOutput)
  .mutation(({ ctx, input }) => verifyCurrentClaim(ctx.db, input));
