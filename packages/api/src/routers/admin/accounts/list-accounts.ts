import { listAccounts as readAccounts } from "../../../services/accounts/account-admin";
import { adminProcedure } from "../../../procedures/builders";
import { ZListAccountsInput, ZListAccountsOutput } from "./list-accounts.types";

/** Accounts newest first, each with its stored plan and its count of active keys. */
export const listAccounts = adminProcedure
  .input(ZListAccountsInput)
  .output(ZListAccountsOutput)
  .query(({ ctx, input }) => readAccounts(ctx.db, input));
