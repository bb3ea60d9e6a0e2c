import * as registry from "../../services/webhooks/registry";
import { webhookProcedure } from "../../procedures/builders";
import { enableWebhookMeta } from "./enable-webhook.types";
import { ZWebhook, ZWebhookIdInput } from "./webhooks.types";

/** POST /api/developers/webhooks/{id}/enable: a disabled webhook delivers again. */
export const enableWebhook = webhookProcedure
  .meta(enableWebhookMeta)
  .input(ZWebhookIdInput)
  .output(ZWebhook)
  .mutation(({ ctx, input }) => registry.enableWebhook(ctx.db, { ...input, apiKey: ctx.apiKey }));
