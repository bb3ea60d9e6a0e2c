import { removeOwnerOf } from "../../../services/claims/ownership-review";
import { adminProcedure } from "../../../procedures/builders";
import { ZRemoveOwnerInput, ZRemoveOwnerOutput } from "./remove-listing-owner.types";

/** Removes an owner of a listing; the listing turns unclaimed when its last owner goes. */
export const removeOwner = adminProcedure
  .input(ZRemoveOwnerInput)
  .output(ZRemoveOwnerOutput)
  .mutation(({ ctx, input }) => removeOwnerOf(ctx.db, input));
