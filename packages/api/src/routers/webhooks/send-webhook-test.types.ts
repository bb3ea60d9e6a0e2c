import type { z } from "zod";
import { WEBHOOK_NOT_FOUND, webhookRoute, type ZDelivery, type ZWebhookIdInput } from "./webhooks.types";

export type TSendWebhookTestInput = z.input<typeof ZWebhookIdInput>;
export type TSendWebhookTestOutput = z.infer<typeof ZDelivery>;

export const sendWebhookTestMeta = webhookRoute("POST", "/{id}/test", "sendWebhookTest", "Queue a webhook.test event to this webhook", {
  ...WEBHOOK_NOT_FOUND,
  409: "The webhook is disabled",
});
