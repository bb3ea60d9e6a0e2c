import { z } from "zod";
import { WEBHOOK_NOT_FOUND, webhookRoute, type ZWebhookIdInput } from "./webhooks.types";

export const ZRotateWebhookSecretOutput = z.object({ id: z.string(), secret: z.string(), previousSecretExpiresAt: z.string() });

export type TRotateWebhookSecretInput = z.input<typeof ZWebhookIdInput>;
export type TRotateWebhookSecretOutput = z.infer<typeof ZRotateWebhookSecretOutput>;

export const rotateWebhookSecretMeta = webhookRoute(
  "POST",
  "/{id}/rotate-secret",
  "rotateWebhookSecret",
  "A new signing secret; the old one keeps signing beside it for 24 hours",
  WEBHOOK_NOT_FOUND,
);
