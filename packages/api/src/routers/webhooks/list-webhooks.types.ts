import { z } from "zod";
import { webhookRoute, ZWebhook } from "./webhooks.types";

export const ZListWebhooksInput = z.object({});
export const ZListWebhooksOutput = z.object({ webhooks: z.array(ZWebhook), total: z.number().int() });

export type TListWebhooksInput = z.input<typeof ZListWebhooksInput>;
export type TListWebhooksOutput = z.infer<typeof ZListWebhooksOutput>;

export const listWebhooksMeta = webhookRoute("GET", "", "listWebhooks", "This key's webhooks");
