import { z } from "zod";
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, WEBHOOK_STATUSES } from "@directory/db";
import type { DirectoryMeta } from "../../trpc";

const BASE_PATH = "/api/developers/webhooks";
const ZWebhookId = z.string().trim().min(1).max(64).describe("The webhook's id, as returned at registration");

export const ZCreateWebhookInput = z.object({
  url: z.string().trim().min(1).max(2000).describe("Where deliveries are POSTed: an http(s) URL on a public address"),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES))
    .min(1)
    .max(WEBHOOK_EVENT_TYPES.length)
    .describe("Event kinds to receive: entity.updated (any key), lead.created (business keys: their own business's leads)"),
});
export const ZWebhookIdInput = z.object({ id: ZWebhookId });
export const ZRedeliverInput = z.object({ id: ZWebhookId, deliveryId: z.string().trim().min(1).max(64).describe("A failed delivery of this webhook") });

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

export const ZCreatedWebhook = ZWebhook.extend({
  secret: z.string().describe("whsec_...: shown once; verify X-Service-Signature and webhook-signature with it"),
});

const ZAttempt = z.object({ attempt: z.number().int(), attemptedAt: z.string(), durationMs: z.number().int(), statusCode: z.number().int().nullable(), error: z.string().nullable() });

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

export const ZWebhookDetail = ZWebhook.extend({ deliveries: z.array(ZDelivery.extend({ attemptLog: z.array(ZAttempt) })) });
export const ZWebhookList = z.object({ webhooks: z.array(ZWebhook), total: z.number().int() });
export const ZRotatedSecret = z.object({ id: z.string(), secret: z.string(), previousSecretExpiresAt: z.string() });
export const ZDeletedWebhook = z.object({ id: z.string(), deleted: z.literal(true) });

function route(method: "GET" | "POST" | "DELETE", path: string, operationId: string, summary: string, errorResponses: Record<number, string> = {}): DirectoryMeta {
  return { openapi: { method, path: `${BASE_PATH}${path}`, operationId, summary, tags: ["webhooks"], protect: true, errorResponses } };
}

const notFound = { 404: "No webhook with this id for this key (another key's webhook is reported the same way)" };
export const webhookMeta = {
  create: { ...route("POST", "", "createWebhook", "Register a webhook; the response carries its signing secret, once", { 409: "This key already holds the most webhooks one key may" }), successStatus: 201 },
  list: route("GET", "", "listWebhooks", "This key's webhooks"),
  get: route("GET", "/{id}", "getWebhook", "One webhook with its recent deliveries and their attempt log", notFound),
  rotateSecret: route("POST", "/{id}/rotate-secret", "rotateWebhookSecret", "A new signing secret; the old one keeps signing beside it for 24 hours", notFound),
  sendTest: route("POST", "/{id}/test", "sendWebhookTest", "Queue a webhook.test event to this webhook", { ...notFound, 409: "The webhook is disabled" }),
  enable: route("POST", "/{id}/enable", "enableWebhook", "Enable a disabled webhook again", notFound),
  redeliver: route("POST", "/{id}/deliveries/{deliveryId}/retry", "redeliverWebhook", "Send a failed delivery again (same event id, five new attempts)", {
    404: "No such webhook for this key, or no such delivery on it",
    409: "Only a failed delivery can be sent again",
  }),
  delete: route("DELETE", "/{id}", "deleteWebhook", "Delete a webhook and its delivery log", notFound),
};
