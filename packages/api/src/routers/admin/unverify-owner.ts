import { unverifyOwner as withdrawOwnerVerification } from "../../services/claims/verification";
import { adminProcedure } from "../../procedures/builders";
import { unverifyOwnerMeta, ZUnverifyOwnerInput, ZUnverifyOwnerOutput } from "./unverify-owner.types";

/** POST /api/v2/admin/businesses/unverify-owner: the listing turns unclaimed and leaves the partner feed. */
export const unverifyOwner = adminProcedure
  .meta(unverifyOwnerMeta)
  .input(ZUnverifyOwnerInput)
  .output(ZUnverifyOwnerOutput)
  .mutation(({ ctx, input }) => withdrawOwnerVerification(ctx.db, input));
