import * as registry from "../../services/webhooks/registry";
import { webhookProcedure } from "../../procedures/builders";
import { createWebhookMeta, ZCreateWebhookInput, ZCreateWebhookOutput } from "./create-webhook.types";

/** POST /api/developers/webhooks: registers a webhook for the calling key. */
export const createWebhook = webhookProcedure
  .meta(createWebhookMeta)
  .input(ZCreateWebhookInput)
  .output(ZCreateWebhookOutput)
  .mutation(({ ctx, input }) => registry.createWebhook(ctx.db, { ...input, deps: ctx.webhooks, apiKey: ctx.apiKey }));
