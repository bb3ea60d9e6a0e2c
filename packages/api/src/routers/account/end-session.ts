import { sessionProcedure } from "../../procedures/builders";
import { endSession as end } from "../../services/accounts/sessions";
import { ZEndSessionInput, ZEndSessionOutput } from "./sessions.types";

/** Ends one of the person's sessions (another browser, or this one). */
export const endSession = sessionProcedure
  .input(ZEndSessionInput)
  .output(ZEndSessionOutput)
  .mutation(async ({ ctx, input }) => {
    await end(ctx.db, ctx.session.account.id, input.id);
    return { ended: true as const };
  });
