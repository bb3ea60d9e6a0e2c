import { z } from "zod";
import { WEBHOOK_NOT_FOUND, webhookRoute, type ZWebhookIdInput } from "./webhooks.types";

export const ZDeleteWebhookOutput = z.object({ id: z.string(), deleted: z.literal(true) });

export type TDeleteWebhookInput = z.input<typeof ZWebhookIdInput>;
export type TDeleteWebhookOutput = z.infer<typeof ZDeleteWebhookOutput>;

export const deleteWebhookMeta = webhookRoute("DELETE", "/{id}", "deleteWebhook", "Delete a webhook and its delivery log", WEBHOOK_NOT_FOUND);
