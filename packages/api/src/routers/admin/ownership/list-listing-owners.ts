import { listOwners as readOwners } from "../../../services/claims/ownership-review";
import { adminProcedure } from "../../../procedures/builders";
import { ZListOwnersInput, ZListOwnersOutput } from "./list-listing-owners.types";

/** A listing's owners: who, by which proof, who decided and since when (removed ones too with `all`). */
export const listOwners = adminProcedure
  .input(ZListOwnersInput)
  .output(ZListOwnersOutput)
  .query(({ ctx, input }) => readOwners(ctx.db, input));
