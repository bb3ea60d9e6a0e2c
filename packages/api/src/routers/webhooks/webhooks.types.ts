import { z } from "zod";
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, WEBHOOK_STATUSES } from "@directory/db/enums";
import type { DirectoryMeta } from "../../procedures/meta";

/* Shared pieces of the webhook procedures: the webhook and delivery views, the id input, the REST route. */

const BASE_PATH = "/api/developers/webhooks";
export const ZWebhookId = z.string().trim().min(1).max(64).describe("The webhook's id, as returned at registration");
export const ZWebhookIdInput = z.object({ id: ZWebhookId });

export const ZWebhook = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  status: z.enum(WEBHOOK_STATUSES),
  disabledReason: z.string().nullable().describe("Why the webhook was disabled (410 from the receiver, or failing too long)"),
  failingSince: z.string().nullable().describe("Start of the current run of failed deliveries"),
  previousSecretExpiresAt: z.string().nullable().describe("Until then the previous secret signs beside the new one"),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const ZDelivery = z.object({
  id: z.string(),
  eventId: z.string().describe("Sent as webhook-id on every attempt"),
  eventType: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});

export type TWebhookIdInput = z.input<typeof ZWebhookIdInput>;
export type TWebhook = z.infer<typeof ZWebhook>;
export type TDelivery = z.infer<typeof ZDelivery>;

/** The REST meta of a webhook procedure: a path under /api/developers/webhooks, key required. */
export function webhookRoute(
  method: "GET" | "POST" | "DELETE",
  path: string,
  operationId: string,
  summary: string,
  errorResponses: Record<number, string> = {},
): DirectoryMeta {
  return { openapi: { method, path: `${BASE_PATH}${path}`, operationId, summary, tags: ["webhooks"], protect: true, errorResponses } };
}

export const WEBHOOK_NOT_FOUND = { 404: "No webhook with this id for this key (another key's webhook is reported the same way)" };
