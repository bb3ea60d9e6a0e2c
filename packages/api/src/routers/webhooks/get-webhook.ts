import * as registry from "../../services/webhooks/registry";
import { webhookProcedure } from "../../procedures/builders";
import { getWebhookMeta, ZGetWebhookOutput } from "./get-webhook.types";
import { ZWebhookIdInput } from "./webhooks.types";

/** GET /api/developers/webhooks/{id}: one webhook with its recent deliveries. */
export const getWebhook = webhookProcedure
  .meta(getWebhookMeta)
  .input(ZWebhookIdInput)
  .output(ZGetWebhookOutput)
  .query(({ ctx, input }) => registry.getWebhook(ctx.db, { ...input, apiKey: ctx.apiKey }));
