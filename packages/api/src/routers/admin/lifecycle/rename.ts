import { renameBusiness } from "../../../services/claims/lifecycle";
import { adminProcedure } from "../../../procedures/builders";
import { ZLifecycleSummary } from "./lifecycle.types";
import { ZRenameInput } from "./rename.types";

/** A new name, recorded as an admin-verified claim; the id and slug stay. */
export const rename = adminProcedure
  .input(ZRenameInput)
  .output(ZLifecycleSummary)
  .mutation(({ ctx, input }) => renameBusiness(ctx.db, input));
