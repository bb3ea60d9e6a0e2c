import { verifyOwner as markOwnerVerified } from "../../services/claims/verification";
import { adminProcedure } from "../../procedures/builders";
import { verifyOwnerMeta, ZVerifyOwnerInput, ZVerifyOwnerOutput } from "./verify-owner.types";

/** POST /api/v2/admin/businesses/verify-owner: the listing turns owner_verified. */
export const verifyOwner = adminProcedure
  .meta(verifyOwnerMeta)
  .input(ZVerifyOwnerInput)
  .output(ZVerifyOwnerOutput)
  .mutation(({ ctx, input }) => markOwnerVerified(ctx.db, input));
