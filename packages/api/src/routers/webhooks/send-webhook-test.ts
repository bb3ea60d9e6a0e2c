import * as registry from "../../services/webhooks/registry";
import { webhookSendProcedure } from "../../procedures/builders";
import { sendWebhookTestMeta } from "./send-webhook-test.types";
import { ZDelivery, ZWebhookIdInput } from "./webhooks.types";

/** POST /api/developers/webhooks/{id}/test: queues a webhook.test event to this webhook. */
export const sendWebhookTest = webhookSendProcedure
  .meta(sendWebhookTestMeta)
  .input(ZWebhookIdInput)
  .output(ZDelivery)
  .mutation(({ ctx, input }) => registry.sendWebhookTest(ctx.db, { ...input, deps: ctx.webhooks, apiKey: ctx.apiKey }));
