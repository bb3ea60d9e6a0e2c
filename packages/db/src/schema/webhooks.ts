import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys";
import { deliveryStatus, webhookStatus, type WebhookEventType } from "./enums";
import { outboxEvents } from "./outbox-events";

/** A receiver registered by one API key; only that key sees or changes it. */
export const webhooks = pgTable(
  "webhooks",
  {
    id: uuid("id").primaryKey(),
    apiKeyId: uuid("api_key_id")
      .notNull()
      .references(() => apiKeys.id),
    url: text("url").notNull(),
    events: text("events").array().notNull().$type<WebhookEventType[]>(),
    /** The signing secret, AES-256-GCM sealed with WEBHOOK_SECRET_KEY; never stored in plain text. */
    secretSealed: text("secret_sealed").notNull(),
    /** After a rotation the old secret keeps signing beside the new one until previousSecretExpiresAt. */
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    status: webhookStatus("status").notNull().default("active"),
    disabledReason: text("disabled_reason"),
    /** Start of the current run of failed deliveries; null after any success. Drives auto-disable. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhooks_api_key_idx").on(t.apiKeyId)],
);

/**
 * One event for one webhook. The body is fixed when the delivery is created, so every attempt
 * sends the same bytes under the same webhook-id. A worker claims a due delivery by moving
 * nextAttemptAt past its attempt timeout (a lease): if it dies mid-attempt, the delivery comes due
 * again and another worker sends it (at-least-once).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey(),
    webhookId: uuid("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    /** The outbox event it carries; null for test events. */
    outboxEventId: bigint("outbox_event_id", { mode: "number" }).references(() => outboxEvents.id),
    /** Sent as webhook-id and the body's id: the receiver's key for dropping duplicates. */
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    body: text("body").notNull(),
    status: deliveryStatus("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_uq").on(t.webhookId, t.eventId),
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt),
  ],
);

/** The delivery log: one row per attempt, readable by the webhook's owner, pruned after 30 days. */
export const webhookDeliveryAttempts = pgTable(
  "webhook_delivery_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull(),
    durationMs: integer("duration_ms").notNull(),
    statusCode: integer("status_code"),
    /** Why it failed, in a sentence of our own plus at most a short excerpt of the receiver's body. */
    error: text("error"),
  },
  (t) => [index("webhook_delivery_attempts_delivery_idx").on(t.deliveryId, t.attempt), index("webhook_delivery_attempts_time_idx").on(t.attemptedAt)],
);
