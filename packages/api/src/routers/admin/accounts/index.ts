import { router } from "../../../procedures/trpc-instance";
import { disableAccount } from "./disable-account";
import { grantPlan } from "./grant-plan";
import { listAccounts } from "./list-accounts";
import { listAgencies } from "./list-agencies";
import { showAccount } from "./show-account";

/** Admin-only account management (and the agencies, whose plans are their accounts'), served over tRPC for the admin CLI, not part of the public REST API. */
export const adminAccountsRouter = router({ list: listAccounts, show: showAccount, grantPlan, disable: disableAccount, agencies: listAgencies });
