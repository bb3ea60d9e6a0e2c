import type { z } from "zod";
import { WEBHOOK_NOT_FOUND, webhookRoute, type ZWebhook, type ZWebhookIdInput } from "./webhooks.types";

export type TEnableWebhookInput = z.input<typeof ZWebhookIdInput>;
export type TEnableWebhookOutput = z.infer<typeof ZWebhook>;

export const enableWebhookMeta = webhookRoute("POST", "/{id}/enable", "enableWebhook", "Enable a disabled webhook again", WEBHOOK_NOT_FOUND);
