import { changeBusinessSlug } from "../../../services/claims/lifecycle";
import { adminProcedure } from "../../../procedures/builders";
import { ZChangeSlugInput } from "./change-slug.types";
import { ZLifecycleSummary } from "./lifecycle.types";

/** A new slug; the old one goes to slug history and keeps resolving. */
export const changeSlug = adminProcedure
  .input(ZChangeSlugInput)
  .output(ZLifecycleSummary)
  .mutation(({ ctx, input }) => changeBusinessSlug(ctx.db, input));
