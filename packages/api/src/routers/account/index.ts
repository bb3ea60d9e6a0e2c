import { router } from "../../procedures/trpc-instance";
import { completeSignIn } from "./complete-sign-in";
import { createAccountKey } from "./create-account-key";
import { endSession } from "./end-session";
import { getMe } from "./get-me";
import { listAccountAgencies } from "./list-account-agencies";
import { listAccountBusinesses } from "./list-account-businesses";
import { listAccountKeys } from "./list-account-keys";
import { listSessions } from "./list-sessions";
import { requestSignIn } from "./request-sign-in";
import { revokeAccountKey } from "./revoke-account-key";
import { signOut } from "./sign-out";
import { startCheckout } from "./start-checkout";

/** A signed-in person's own account (session cookie), and signing in; served over tRPC and the pages, not REST. */
export const accountRouter = router({
  me: getMe,
  keys: router({ list: listAccountKeys, create: createAccountKey, revoke: revokeAccountKey }),
  businesses: router({ list: listAccountBusinesses }),
  agencies: router({ list: listAccountAgencies }),
  sessions: router({ list: listSessions, end: endSession }),
  signIn: router({ request: requestSignIn, complete: completeSignIn }),
  signOut,
  plan: router({ checkout: startCheckout }),
});
