import { decommissionBusiness } from "../../../services/claims/lifecycle";
import { adminProcedure } from "../../../procedures/builders";
import { ZDecommissionInput } from "./decommission.types";
import { ZLifecycleSummary } from "./lifecycle.types";

/** Takes a business out of search, the feed and agent.json; its profile answers 410. */
export const decommission = adminProcedure
  .input(ZDecommissionInput)
  .output(ZLifecycleSummary)
  .mutation(({ ctx, input }) => decommissionBusiness(ctx.db, input));
