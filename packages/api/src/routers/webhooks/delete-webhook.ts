import * as registry from "../../services/webhooks/registry";
import { webhookProcedure } from "../../procedures/builders";
import { deleteWebhookMeta, ZDeleteWebhookOutput } from "./delete-webhook.types";
import { ZWebhookIdInput } from "./webhooks.types";

/** DELETE /api/developers/webhooks/{id}: the webhook and its delivery log go. */
export const deleteWebhook = webhookProcedure
  .meta(deleteWebhookMeta)
  .input(ZWebhookIdInput)
  .output(ZDeleteWebhookOutput)
  .mutation(({ ctx, input }) => registry.deleteWebhook(ctx.db, { ...input, apiKey: ctx.apiKey }));
