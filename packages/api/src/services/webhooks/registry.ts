import { randomUUID } from "node:crypto";
import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import { apiKeys, webhookDeliveries, webhookDeliveryAttempts, webhooks, type Db, type WebhookEventType } from "@directory/db";
import { DomainError } from "../../errors";
import type { AuthenticatedKey } from "../access/api-keys";
import { isUuid } from "../shared/ids";
import { BUSINESS_KEYS_MAX } from "../owner/business-keys";
import { assertPublicDestination, checkWebhookUrl, type OutboundPolicy } from "./outbound-address";
import { generateWebhookSecret, type SecretBox } from "./secrets";
import { buildTestEvent, eventBody } from "./events";

/** Webhooks one key may hold; enough for a few environments, small enough to bound fan-out. */
export const MAX_WEBHOOKS_PER_KEY = 10;
/** After a rotation the old secret keeps signing for this long, so receivers can switch over. */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Recent deliveries shown with a webhook, each with its attempt log. */
export const RECENT_DELIVERIES = 20;

export interface WebhookDeps {
  secretBox: SecretBox;
  outbound: OutboundPolicy;
  publicBaseUrl: string;
}

type WebhookRow = typeof webhooks.$inferSelect;

/** One webhook of the calling key; another key's webhook is reported as missing. */
export interface OwnWebhookParams {
  apiKey: AuthenticatedKey;
  /** The webhook's id. */
  id: string;
}

/** As OwnWebhookParams, for the operations that seal secrets or build events. */
export interface OwnWebhookWithDepsParams extends OwnWebhookParams {
  deps: WebhookDeps;
}

export interface CreateWebhookParams {
  deps: WebhookDeps;
  apiKey: AuthenticatedKey;
  url: string;
  events: WebhookEventType[];
}

export interface RedeliverWebhookParams extends OwnWebhookParams {
  /** A failed delivery of this webhook. */
  deliveryId: string;
}

export function webhookView(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    status: row.status,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince?.toISOString() ?? null,
    previousSecretExpiresAt: row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date() ? row.previousSecretExpiresAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** lead.created and correction.created concern one business's inbox: only that business's own key may subscribe to them. */
function assertEventsAllowed(key: AuthenticatedKey, events: readonly WebhookEventType[]): void {
  if (events.includes("lead.created") && key.kind !== "business") {
    throw new DomainError("INVALID_INPUT", "Invalid parameter events: lead.created is for business keys (the leads of their own business)");
  }
  if (events.includes("correction.created") && key.kind !== "business") {
    throw new DomainError("INVALID_INPUT", "Invalid parameter events: correction.created is for business keys (corrections proposed on their own listing)");
  }
}

export async function createWebhook(db: Db, params: CreateWebhookParams) {
  const { deps, apiKey } = params;
  const url = checkWebhookUrl(params.url, deps.outbound);
  await assertPublicDestination(url, deps.outbound);
  const events = [...new Set(params.events)];
  assertEventsAllowed(apiKey, events);
  const [held] = await db.select({ n: count() }).from(webhooks).where(eq(webhooks.apiKeyId, apiKey.id));
  if ((held?.n ?? 0) >= MAX_WEBHOOKS_PER_KEY) {
    throw new DomainError("CONFLICT", `This key already has ${MAX_WEBHOOKS_PER_KEY} webhooks, the most one key may hold; delete one first`);
  }
  const secret = generateWebhookSecret();
  const [row] = await db
    .insert(webhooks)
    .values({ id: randomUUID(), apiKeyId: apiKey.id, url: url.href, events, secretSealed: deps.secretBox.seal(secret) })
    .returning();
  return { ...webhookView(row!), secret };
}

/** Another key's webhook is indistinguishable from a missing one. */
async function requireOwnWebhook(db: Db, params: OwnWebhookParams): Promise<WebhookRow> {
  const { apiKey, id } = params;
  const [row] = isUuid(id)
    ? await db
        .select()
        .from(webhooks)
        .where(and(eq(webhooks.id, id.toLowerCase()), eq(webhooks.apiKeyId, apiKey.id)))
    : [];
  if (!row) throw new DomainError("NOT_FOUND", `No webhook with id "${id}"`);
  return row;
}

export async function listWebhooks(db: Db, key: AuthenticatedKey) {
  const rows = await db.select().from(webhooks).where(eq(webhooks.apiKeyId, key.id)).orderBy(webhooks.createdAt).limit(MAX_WEBHOOKS_PER_KEY);
  return { webhooks: rows.map(webhookView), total: rows.length };
}

/** The webhooks the listing's active business keys registered, for its managers' dashboard. */
export async function listBusinessWebhooks(db: Db, businessId: string) {
  const rows = await db
    .select({ webhook: webhooks })
    .from(webhooks)
    .innerJoin(apiKeys, eq(apiKeys.id, webhooks.apiKeyId))
    .where(and(eq(apiKeys.businessId, businessId), eq(apiKeys.kind, "business"), isNull(apiKeys.revokedAt)))
    .orderBy(webhooks.createdAt)
    .limit(MAX_WEBHOOKS_PER_KEY * BUSINESS_KEYS_MAX);
  return { webhooks: rows.map((row) => webhookView(row.webhook)), total: rows.length };
}

export async function getWebhook(db: Db, params: OwnWebhookParams) {
  const row = await requireOwnWebhook(db, params);
  const deliveries = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, row.id))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(RECENT_DELIVERIES);
  const attempts = deliveries.length
    ? await db
        .select()
        .from(webhookDeliveryAttempts)
        .where(
          inArray(
            webhookDeliveryAttempts.deliveryId,
            deliveries.map((d) => d.id),
          ),
        )
        .orderBy(webhookDeliveryAttempts.attempt)
    : [];
  return {
    ...webhookView(row),
    deliveries: deliveries.map((delivery) => ({
      ...deliveryView(delivery),
      attemptLog: attempts
        .filter((attempt) => attempt.deliveryId === delivery.id)
        .map((attempt) => ({
          attempt: attempt.attempt,
          attemptedAt: attempt.attemptedAt.toISOString(),
          durationMs: attempt.durationMs,
          statusCode: attempt.statusCode,
          error: attempt.error,
        })),
    })),
  };
}

function deliveryView(delivery: typeof webhookDeliveries.$inferSelect) {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.status === "pending" ? delivery.nextAttemptAt.toISOString() : null,
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    createdAt: delivery.createdAt.toISOString(),
    completedAt: delivery.completedAt?.toISOString() ?? null,
  };
}

export async function rotateWebhookSecret(db: Db, params: OwnWebhookWithDepsParams) {
  const { deps } = params;
  const row = await requireOwnWebhook(db, params);
  const secret = generateWebhookSecret();
  const previousSecretExpiresAt = new Date(Date.now() + SECRET_ROTATION_OVERLAP_MS);
  await db
    .update(webhooks)
    .set({ secretSealed: deps.secretBox.seal(secret), previousSecretSealed: row.secretSealed, previousSecretExpiresAt, updatedAt: new Date() })
    .where(eq(webhooks.id, row.id));
  return { id: row.id, secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() };
}

/** Queues a webhook.test event for this webhook alone, delivered like any other. */
export async function sendWebhookTest(db: Db, params: OwnWebhookWithDepsParams) {
  const row = await requireOwnWebhook(db, params);
  if (row.status !== "active") throw new DomainError("CONFLICT", "This webhook is disabled; enable it first");
  const event = buildTestEvent(params.deps.publicBaseUrl, row.id);
  const [delivery] = await db
    .insert(webhookDeliveries)
    .values({ id: randomUUID(), webhookId: row.id, eventId: event.id, eventType: event.type, body: eventBody(event) })
    .returning();
  return deliveryView(delivery!);
}

/** Sends a failed delivery again: a fresh set of attempts, the same event id and body. */
export async function redeliverWebhook(db: Db, params: RedeliverWebhookParams) {
  const { deliveryId } = params;
  const row = await requireOwnWebhook(db, params);
  const [delivery] = isUuid(deliveryId)
    ? await db
        .update(webhookDeliveries)
        .set({ status: "pending", attempts: 0, nextAttemptAt: new Date(), completedAt: null })
        .where(and(eq(webhookDeliveries.id, deliveryId.toLowerCase()), eq(webhookDeliveries.webhookId, row.id), eq(webhookDeliveries.status, "failed")))
        .returning()
    : [];
  if (delivery) return deliveryView(delivery);
  const [existing] = isUuid(deliveryId)
    ? await db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.id, deliveryId.toLowerCase()), eq(webhookDeliveries.webhookId, row.id)))
    : [];
  if (!existing) throw new DomainError("NOT_FOUND", `No delivery with id "${deliveryId}" on this webhook`);
  throw new DomainError("CONFLICT", `Only a failed delivery can be sent again; this one is ${existing.status}`);
}

export async function enableWebhook(db: Db, params: OwnWebhookParams) {
  const row = await requireOwnWebhook(db, params);
  const [updated] = await db
    .update(webhooks)
    .set({ status: "active", disabledReason: null, failingSince: null, updatedAt: new Date() })
    .where(eq(webhooks.id, row.id))
    .returning();
  return webhookView(updated!);
}

export async function deleteWebhook(db: Db, params: OwnWebhookParams) {
  const row = await requireOwnWebhook(db, params);
  await db.delete(webhooks).where(eq(webhooks.id, row.id));
  return { id: row.id, deleted: true as const };
}
