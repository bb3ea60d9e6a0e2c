import { listOwnershipClaims } from "../../../services/claims/ownership-review";
import { adminProcedure } from "../../../procedures/builders";
import { ZListOwnershipClaimsInput, ZListOwnershipClaimsOutput } from "./list-ownership-claims.types";

/** Claims of ownership of one status (pending by default): the pending queue oldest first, decided ones newest decision first. */
export const listClaims = adminProcedure
  .input(ZListOwnershipClaimsInput)
  .output(ZListOwnershipClaimsOutput)
  .query(({ ctx, input }) => listOwnershipClaims(ctx.db, input));
