import { revokeApiKey as revoke } from "../../services/access/api-keys";
import { adminProcedure } from "../../procedures/builders";
import { ZApiKeySummary } from "./api-key.types";
import { ZRevokeApiKeyInput } from "./revoke-api-key.types";

/** Refuses the key from the next request on; revoking a revoked key changes nothing. */
export const revokeApiKey = adminProcedure
  .input(ZRevokeApiKeyInput)
  .output(ZApiKeySummary)
  .mutation(({ ctx, input }) => revoke(ctx.db, input.id));
