import * as registry from "../../services/webhooks/registry";
import { webhookSendProcedure } from "../../procedures/builders";
import { redeliverWebhookMeta, ZRedeliverWebhookInput } from "./redeliver-webhook.types";
import { ZDelivery } from "./webhooks.types";

/** POST /api/developers/webhooks/{id}/deliveries/{deliveryId}/retry: a failed delivery sent again. */
export const redeliverWebhook = webhookSendProcedure
  .meta(redeliverWebhookMeta)
  .input(ZRedeliverWebhookInput)
  .output(ZDelivery)
  .mutation(({ ctx, input }) => registry.redeliverWebhook(ctx.db, { ...input, apiKey: ctx.apiKey }));
