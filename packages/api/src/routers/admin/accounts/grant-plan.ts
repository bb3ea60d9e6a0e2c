import { accountSummaryOf, endOfDayUtc } from "../../../services/accounts/account-admin";
import { grantPlan as grant } from "../../../services/accounts/plans";
import { adminProcedure } from "../../../procedures/builders";
import { ZAdminAccountSummary } from "./accounts.types";
import { ZGrantPlanInput } from "./grant-plan.types";

/**
 * The developer plan through the end of the given day (UTC), for the account of an address (made
 * when there is none yet): how plans are given when no payment provider is configured.
 */
export const grantPlan = adminProcedure
  .input(ZGrantPlanInput)
  .output(ZAdminAccountSummary)
  .mutation(async ({ ctx, input }) => {
    await grant(ctx.db, { email: input.email, until: endOfDayUtc(input.until) });
    return accountSummaryOf(ctx.db, input.email);
  });
