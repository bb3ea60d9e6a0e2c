import { z } from "zod";
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeySummary } from "../../services/access/api-keys";
import { adminProcedure, router } from "../../trpc";
import { ZApiKeySummary, ZCreateApiKeyInput, ZCreateApiKeyOutput, ZListApiKeysInput, ZRevokeApiKeyInput } from "./api-key.types";

function present(summary: ApiKeySummary): z.infer<typeof ZApiKeySummary> {
  return { ...summary, createdAt: summary.createdAt.toISOString(), revokedAt: summary.revokedAt?.toISOString() ?? null };
}

/** Admin-only key management; served over tRPC for the admin CLI, not part of the public REST API. */
export const apiKeysRouter = router({
  create: adminProcedure
    .input(ZCreateApiKeyInput)
    .output(ZCreateApiKeyOutput)
    .mutation(async ({ ctx, input }) => {
      const { key, summary } = await createApiKey(ctx.db, input);
      return { key, apiKey: present(summary) };
    }),
  list: adminProcedure
    .input(ZListApiKeysInput)
    .output(z.array(ZApiKeySummary))
    .query(async ({ ctx, input }) => (await listApiKeys(ctx.db, input)).map(present)),
  revoke: adminProcedure
    .input(ZRevokeApiKeyInput)
    .output(ZApiKeySummary)
    .mutation(async ({ ctx, input }) => present(await revokeApiKey(ctx.db, input.id))),
});
