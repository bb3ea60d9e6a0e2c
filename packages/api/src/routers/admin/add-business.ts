import { addBusiness as createBusiness } from "../../services/claims/verification";
import { adminProcedure } from "../../procedures/builders";
import { addBusinessMeta, ZAddBusinessInput, ZAddBusinessOutput } from "./add-business.types";

/** POST /api/v2/admin/businesses: a new business, answered with its id and slug (201). */
export const addBusiness = adminProcedure
  .meta(addBusinessMeta)
  .input(ZAddBusinessInput)
  .output(ZAddBusinessOutput)
  .mutation(({ ctx, input }) => createBusiness(ctx.db, { facts: input }));
