import * as registry from "../../services/webhooks/registry";
import { webhookProcedure } from "../../procedures/builders";
import { listWebhooksMeta, ZListWebhooksInput, ZListWebhooksOutput } from "./list-webhooks.types";

/** GET /api/developers/webhooks: the calling key's webhooks. */
export const listWebhooks = webhookProcedure
  .meta(listWebhooksMeta)
  .input(ZListWebhooksInput)
  .output(ZListWebhooksOutput)
  .query(({ ctx }) => registry.listWebhooks(ctx.db, ctx.apiKey));
