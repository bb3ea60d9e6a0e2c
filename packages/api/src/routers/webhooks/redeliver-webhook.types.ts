import { z } from "zod";
import { webhookRoute, ZWebhookId, type ZDelivery } from "./webhooks.types";

export const ZRedeliverWebhookInput = z.object({ id: ZWebhookId, deliveryId: z.string().trim().min(1).max(64).describe("A failed delivery of this webhook") });

export type TRedeliverWebhookInput = z.input<typeof ZRedeliverWebhookInput>;
export type TRedeliverWebhookOutput = z.infer<typeof ZDelivery>;

export const redeliverWebhookMeta = webhookRoute(
  "POST",
  "/{id}/deliveries/{deliveryId}/retry",
  "redeliverWebhook",
  "Send a failed delivery again (same event id, five new attempts)",
  {
    404: "No such webhook for this key, or no such delivery on it",
    409: "Only a failed delivery can be sent again",
  },
);
