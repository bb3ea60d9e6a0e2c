import { createWebhook, deleteWebhook, enableWebhook, getWebhook, listWebhooks, redeliver, rotateWebhookSecret, sendTestEvent } from "../../services/webhooks/registry";
import { router, webhookProcedure } from "../../trpc";
import {
  webhookMeta,
  ZCreatedWebhook,
  ZCreateWebhookInput,
  ZDeletedWebhook,
  ZDelivery,
  ZRedeliverInput,
  ZRotatedSecret,
  ZWebhook,
  ZWebhookDetail,
  ZWebhookIdInput,
  ZWebhookList,
} from "./webhooks.types";
import { z } from "zod";

/** Webhook registration and management: any API key, each key seeing only its own webhooks. */
export const webhooksRouter = router({
  create: webhookProcedure
    .meta(webhookMeta.create)
    .input(ZCreateWebhookInput)
    .output(ZCreatedWebhook)
    .mutation(({ ctx, input }) => createWebhook(ctx.db, ctx.webhooks, ctx.apiKey, input)),
  list: webhookProcedure
    .meta(webhookMeta.list)
    .input(z.object({}))
    .output(ZWebhookList)
    .query(({ ctx }) => listWebhooks(ctx.db, ctx.apiKey)),
  get: webhookProcedure
    .meta(webhookMeta.get)
    .input(ZWebhookIdInput)
    .output(ZWebhookDetail)
    .query(({ ctx, input }) => getWebhook(ctx.db, ctx.apiKey, input.id)),
  rotateSecret: webhookProcedure
    .meta(webhookMeta.rotateSecret)
    .input(ZWebhookIdInput)
    .output(ZRotatedSecret)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx.db, ctx.webhooks, ctx.apiKey, input.id)),
  sendTest: webhookProcedure
    .meta(webhookMeta.sendTest)
    .input(ZWebhookIdInput)
    .output(ZDelivery)
    .mutation(({ ctx, input }) => sendTestEvent(ctx.db, ctx.webhooks, ctx.apiKey, input.id)),
  enable: webhookProcedure
    .meta(webhookMeta.enable)
    .input(ZWebhookIdInput)
    .output(ZWebhook)
    .mutation(({ ctx, input }) => enableWebhook(ctx.db, ctx.apiKey, input.id)),
  redeliver: webhookProcedure
    .meta(webhookMeta.redeliver)
    .input(ZRedeliverInput)
    .output(ZDelivery)
    .mutation(({ ctx, input }) => redeliver(ctx.db, ctx.apiKey, input.id, input.deliveryId)),
  delete: webhookProcedure
    .meta(webhookMeta.delete)
    .input(ZWebhookIdInput)
    .output(ZDeletedWebhook)
    .mutation(({ ctx, input }) => deleteWebhook(ctx.db, ctx.apiKey, input.id)),
});
