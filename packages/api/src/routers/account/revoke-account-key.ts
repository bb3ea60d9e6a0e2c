import { sessionProcedure } from "../../procedures/builders";
import { revokeAccountKey as revoke } from "../../services/accounts/account-keys";
import { ZRevokeAccountKeyInput, ZRevokeAccountKeyOutput } from "./account-keys.types";

/** Refuses one of the person's keys from the next request on. */
export const revokeAccountKey = sessionProcedure
  .input(ZRevokeAccountKeyInput)
  .output(ZRevokeAccountKeyOutput)
  .mutation(async ({ ctx, input }) => {
    await revoke(ctx.db, ctx.session.account.id, input.id);
    return { revoked: true as const };
  });
