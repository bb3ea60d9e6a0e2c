import { sessionProcedure } from "../../procedures/builders";
import { currentPlanOf } from "../../services/accounts/plans";
import { csrfTokenFor } from "../../services/accounts/sessions";
import { ZGetMeOutput } from "./get-me.types";

/** The signed-in person: their address, their plan, and the CSRF token their changes need. */
export const getMe = sessionProcedure.output(ZGetMeOutput).query(async ({ ctx }) => {
  const plan = await currentPlanOf(ctx.db, ctx.session.account.id);
  return {
    email: ctx.session.account.email,
    plan: plan && { name: plan.name, activeUntil: plan.activeUntil },
    csrfToken: await csrfTokenFor(ctx.db, ctx.session.sessionId),
  };
});
