import { showAccount as readAccount } from "../../../services/accounts/account-admin";
import { adminProcedure } from "../../../procedures/builders";
import { ZShowAccountInput, ZShowAccountOutput } from "./show-account.types";

/** One account: its plan, its keys (revoked ones too) and its open sessions; 404 for an unknown address. */
export const showAccount = adminProcedure
  .input(ZShowAccountInput)
  .output(ZShowAccountOutput)
  .query(({ ctx, input }) => readAccount(ctx.db, input.email));
