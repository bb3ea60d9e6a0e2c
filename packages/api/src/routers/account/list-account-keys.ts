import { sessionProcedure } from "../../procedures/builders";
import { listAccountKeys as list } from "../../services/accounts/account-keys";
import { ZListAccountKeysOutput } from "./account-keys.types";

/** The person's own active keys with their use this month. */
export const listAccountKeys = sessionProcedure.output(ZListAccountKeysOutput).query(({ ctx }) => list(ctx.db, ctx.session.account.id, ctx.rateLimits));
