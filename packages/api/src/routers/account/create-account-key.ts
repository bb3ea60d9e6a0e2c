import { sessionProcedure } from "../../procedures/builders";
import { createAccountKey as create } from "../../services/accounts/account-keys";
import { ZCreateAccountKeyInput, ZCreateAccountKeyOutput } from "./account-keys.types";

/** A developer key of the person's account, shown once. */
export const createAccountKey = sessionProcedure
  .input(ZCreateAccountKeyInput)
  .output(ZCreateAccountKeyOutput)
  .mutation(({ ctx, input }) => create(ctx.db, ctx.session.account.id, input.label));
