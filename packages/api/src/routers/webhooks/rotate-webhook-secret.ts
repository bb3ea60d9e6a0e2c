import * as registry from "../../services/webhooks/registry";
import { webhookProcedure } from "../../procedures/builders";
import { rotateWebhookSecretMeta, ZRotateWebhookSecretOutput } from "./rotate-webhook-secret.types";
import { ZWebhookIdInput } from "./webhooks.types";

/** POST /api/developers/webhooks/{id}/rotate-secret: a new signing secret, the old one kept for the overlap. */
export const rotateWebhookSecret = webhookProcedure
  .meta(rotateWebhookSecretMeta)
  .input(ZWebhookIdInput)
  .output(ZRotateWebhookSecretOutput)
  .mutation(({ ctx, input }) => registry.rotateWebhookSecret(ctx.db, { ...input, deps: ctx.webhooks, apiKey: ctx.apiKey }));
