import { z } from "zod";
import { WEBHOOK_NOT_FOUND, webhookRoute, ZDelivery, ZWebhook, type ZWebhookIdInput } from "./webhooks.types";

const ZAttempt = z.object({
  attempt: z.number().int(),
  attemptedAt: z.string(),
  durationMs: z.number().int(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
});

export const ZGetWebhookOutput = ZWebhook.extend({ deliveries: z.array(ZDelivery.extend({ attemptLog: z.array(ZAttempt) })) });

export type TGetWebhookInput = z.input<typeof ZWebhookIdInput>;
export type TGetWebhookOutput = z.infer<typeof ZGetWebhookOutput>;

export const getWebhookMeta = webhookRoute("GET", "/{id}", "getWebhook", "One webhook with its recent deliveries and their attempt log", WEBHOOK_NOT_FOUND);
