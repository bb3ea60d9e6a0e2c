import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "@directory/db/enums";
import type { DirectoryMeta } from "../../procedures/meta";
import { webhookRoute, ZWebhook } from "./webhooks.types";

export const ZCreateWebhookInput = z.object({
  url: z.string().trim().min(1).max(2000).describe("Where deliveries are POSTed: an http(s) URL on a public address"),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES))
    .min(1)
    .max(WEBHOOK_EVENT_TYPES.length)
    .describe(
      "Event kinds to receive: entity.updated (any key), lead.created and correction.created (business keys: their own business's leads and proposed corrections)",
    ),
});

export const ZCreateWebhookOutput = ZWebhook.extend({
  secret: z.string().describe("whsec_...: shown once; verify X-Service-Signature and webhook-signature with it"),
});

export type TCreateWebhookInput = z.input<typeof ZCreateWebhookInput>;
export type TCreateWebhookOutput = z.infer<typeof ZCreateWebhookOutput>;

export const createWebhookMeta: DirectoryMeta = {
  ...webhookRoute("POST", "", "createWebhook", "Register a webhook; the response carries its signing secret, once", {
    409: "This key already holds the most webhooks one key may",
  }),
  successStatus: 201,
};
