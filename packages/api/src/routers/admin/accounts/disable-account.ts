import { disableAccount as disable } from "../../../services/accounts/account-admin";
import { adminProcedure } from "../../../procedures/builders";
import { ZAdminAccountSummary } from "./accounts.types";
import { ZDisableAccountInput } from "./disable-account.types";

/** Signs the account out everywhere and refuses its keys from the next request on; disabling twice keeps the first time. */
export const disableAccount = adminProcedure
  .input(ZDisableAccountInput)
  .output(ZAdminAccountSummary)
  .mutation(({ ctx, input }) => disable(ctx.db, input.email));
