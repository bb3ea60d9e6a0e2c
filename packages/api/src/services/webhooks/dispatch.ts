import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, sql } from "drizzle-orm";
import { z } from "zod";
import { apiKeys, businesses, outboxEvents, webhookDeliveries, webhookDeliveryAttempts, webhooks, type Db } from "@directory/db";
import { ZOwnerText } from "../shared/owner-text-schemas";
import { buildOutboxEvent, eventBody, TEST_EVENT_TYPE } from "./events";
import type { SecretBox } from "./secrets";

/**
 * Webhook delivery from the outbox, in two steps that each commit atomically:
 * 1. fan-out: pending outbox events (FOR UPDATE SKIP LOCKED) become one delivery per matching
 *    webhook, and the events are marked dispatched, in one transaction;
 * 2. delivery: due deliveries are claimed (SKIP LOCKED) by pushing their next attempt time past the
 *    attempt timeout, sent outside any transaction, and their outcome recorded. A worker that dies
 *    mid-attempt leaves the delivery to come due again: at-least-once, always the same event id.
 */
export const MAX_ATTEMPTS = 5;

export interface DeliverySettings {
  /** The four waits between the five attempts, before jitter. */
  retryDelaysMs: readonly number[];
  attemptTimeoutMs: number;
  /** A claim's lease is the attempt timeout plus this; a dead worker's deliveries come due again after it. */
  leaseMarginMs: number;
  /** A webhook whose deliveries have all failed for this long is disabled. */
  disableAfterMs: number;
}

/** 1 min, 10 min, 1 h, 6 h: a receiver down for most of a working day still gets its events. */
export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  retryDelaysMs: [60_000, 600_000, 3_600_000, 21_600_000],
  attemptTimeoutMs: 10_000,
  leaseMarginMs: 30_000,
  disableAfterMs: 3 * 24 * 3_600_000,
};

/** The receiver-facing event passes an output schema like every other door: owner text is cleaned. */
const ZOutgoingEvent = z.object({
  id: z.string(),
  type: z.string(),
  timestamp: z.string(),
  data: z.object({ name: ZOwnerText.optional() }).loose(),
});

export interface FanOutOutboxParams {
  /** Origin of the URLs inside the events. */
  publicBaseUrl: string;
  /** Outbox events taken per transaction; 200 by default. */
  batchSize?: number;
}

export async function fanOutOutbox(db: Db, params: FanOutOutboxParams): Promise<number> {
  const { publicBaseUrl, batchSize = 200 } = params;
  return db.transaction(async (tx) => {
    const events = await tx
      .select({
        outboxId: outboxEvents.id,
        eventType: outboxEvents.eventType,
        payload: outboxEvents.payload,
        createdAt: outboxEvents.createdAt,
        business: { id: businesses.id, slug: businesses.slug, name: businesses.name },
      })
      .from(outboxEvents)
      .innerJoin(businesses, eq(businesses.id, outboxEvents.businessId))
      .where(isNull(outboxEvents.dispatchedAt))
      .orderBy(asc(outboxEvents.id))
      .limit(batchSize)
      .for("update", { of: outboxEvents, skipLocked: true });
    if (events.length === 0) return 0;
    const types = [...new Set(events.map((event) => event.eventType))];
    const subscribers = await tx
      .select({ id: webhooks.id, events: webhooks.events, kind: apiKeys.kind, businessId: apiKeys.businessId })
      .from(webhooks)
      .innerJoin(apiKeys, eq(apiKeys.id, webhooks.apiKeyId))
      .where(and(eq(webhooks.status, "active"), isNull(apiKeys.revokedAt), sql`${webhooks.events} && ${sql.param(types)}::text[]`));
    const deliveries = events.flatMap((source) => {
      const event = ZOutgoingEvent.parse(buildOutboxEvent(publicBaseUrl, source));
      // A business key hears about its own business only.
      const matching = subscribers.filter(
        (hook) => hook.events.includes(source.eventType as never) && (hook.kind !== "business" || hook.businessId === source.business.id),
      );
      return matching.map((hook) => ({
        id: randomUUID(),
        webhookId: hook.id,
        outboxEventId: source.outboxId,
        eventId: event.id,
        eventType: event.type,
        body: eventBody(event),
      }));
    });
    if (deliveries.length > 0) await tx.insert(webhookDeliveries).values(deliveries).onConflictDoNothing();
    await tx
      .update(outboxEvents)
      .set({ dispatchedAt: new Date() })
      .where(
        inArray(
          outboxEvents.id,
          events.map((event) => event.outboxId),
        ),
      );
    return events.length;
  });
}

/** How many attempts a delivery gets: a test event one, every other event MAX_ATTEMPTS. */
export function attemptsFor(eventType: string): number {
  return eventType === TEST_EVENT_TYPE ? 1 : MAX_ATTEMPTS;
}

export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  url: string;
  eventId: string;
  eventType: string;
  body: string;
  /** This attempt's number, 1-based. */
  attempt: number;
  /** Live secrets, newest first (the previous one only inside its rotation window). */
  secrets: string[];
}

export interface ClaimDueDeliveriesParams {
  /** Opens the webhooks' sealed secrets. */
  secretBox: SecretBox;
  /** The most deliveries claimed at once. */
  limit: number;
  /** How long a claim holds before the delivery comes due again. */
  leaseMs: number;
}

export async function claimDueDeliveries(db: Db, params: ClaimDueDeliveriesParams): Promise<ClaimedDelivery[]> {
  const { secretBox, limit, leaseMs } = params;
  const now = new Date();
  const claimed = await db.transaction(async (tx) => {
    // A worker that died during the last attempt leaves a delivery with no attempt left: it has failed.
    await tx
      .update(webhookDeliveries)
      .set({ status: "failed", completedAt: now, lastError: "The worker stopped during the last attempt; resend it if the receiver did not get it" })
      .where(
        and(
          eq(webhookDeliveries.status, "pending"),
          lte(webhookDeliveries.nextAttemptAt, now),
          sql`${webhookDeliveries.attempts} >= case when ${webhookDeliveries.eventType} = ${TEST_EVENT_TYPE} then 1 else ${MAX_ATTEMPTS} end`,
        ),
      );
    const due = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(and(eq(webhookDeliveries.status, "pending"), lte(webhookDeliveries.nextAttemptAt, now), eq(webhooks.status, "active")))
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit)
      .for("update", { of: webhookDeliveries, skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(webhookDeliveries)
      .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + leaseMs) })
      .where(
        inArray(
          webhookDeliveries.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
  });
  if (claimed.length === 0) return [];
  const hooks = await db
    .select()
    .from(webhooks)
    .where(inArray(webhooks.id, [...new Set(claimed.map((delivery) => delivery.webhookId))]));
  const byId = new Map(hooks.map((hook) => [hook.id, hook]));
  return claimed.flatMap((delivery) => {
    const hook = byId.get(delivery.webhookId);
    if (!hook) return [];
    const secrets = [secretBox.open(hook.secretSealed)];
    if (hook.previousSecretSealed && hook.previousSecretExpiresAt && hook.previousSecretExpiresAt > now)
      secrets.push(secretBox.open(hook.previousSecretSealed));
    return [
      {
        id: delivery.id,
        webhookId: hook.id,
        url: hook.url,
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        body: delivery.body,
        attempt: delivery.attempts,
        secrets,
      },
    ];
  });
}

export interface AttemptOutcome {
  attemptedAt: Date;
  durationMs: number;
  statusCode: number | null;
  /** Why it failed; null on success. */
  error: string | null;
}

/** Spreads retries of many deliveries that failed together, so they do not come back together. */
function withJitter(delayMs: number): number {
  return Math.round(delayMs * (0.8 + Math.random() * 0.4));
}

export interface RecordAttemptParams {
  delivery: ClaimedDelivery;
  outcome: AttemptOutcome;
  settings: DeliverySettings;
}

/** Records one attempt: the log row, the delivery's new state, and the webhook's health, together. */
export async function recordAttempt(db: Db, params: RecordAttemptParams): Promise<void> {
  const { delivery, outcome, settings } = params;
  const succeeded = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const gone = outcome.statusCode === 410;
  const final = succeeded || gone || delivery.attempt >= attemptsFor(delivery.eventType);
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx.insert(webhookDeliveryAttempts).values({
      deliveryId: delivery.id,
      attempt: delivery.attempt,
      attemptedAt: outcome.attemptedAt,
      durationMs: outcome.durationMs,
      statusCode: outcome.statusCode,
      error: outcome.error,
    });
    // Only the worker holding this attempt moves the delivery on; a stale one just leaves its log row.
    await tx
      .update(webhookDeliveries)
      .set({
        status: succeeded ? "succeeded" : final ? "failed" : "pending",
        nextAttemptAt: final ? now : new Date(now.getTime() + withJitter(settings.retryDelaysMs[delivery.attempt - 1] ?? 0)),
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        completedAt: final ? now : null,
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.attempts, delivery.attempt), eq(webhookDeliveries.status, "pending")));
    if (succeeded) {
      // Only when set: every success rewriting (and locking) the one webhook row serialises a whole batch on it.
      await tx
        .update(webhooks)
        .set({ failingSince: null })
        .where(and(eq(webhooks.id, delivery.webhookId), isNotNull(webhooks.failingSince)));
    } else if (gone) {
      await tx
        .update(webhooks)
        .set({ status: "disabled", disabledReason: "The receiver answered 410 Gone", updatedAt: now })
        .where(eq(webhooks.id, delivery.webhookId));
    } else {
      // Only the first failure of a run writes the row. (A Date inside sql`` would skip the column's
      // encoder, which postgres-js refuses while PGlite accepts it: every failure then failed to record.)
      await tx
        .update(webhooks)
        .set({ failingSince: now })
        .where(and(eq(webhooks.id, delivery.webhookId), isNull(webhooks.failingSince)));
      await tx
        .update(webhooks)
        .set({
          status: "disabled",
          disabledReason: `Every delivery failed for ${Math.round(settings.disableAfterMs / 3_600_000)} hours; enable it again once the receiver works`,
          updatedAt: now,
        })
        .where(
          and(eq(webhooks.id, delivery.webhookId), eq(webhooks.status, "active"), lt(webhooks.failingSince, new Date(now.getTime() - settings.disableAfterMs))),
        );
    }
  });
}

/** The delivery log is kept for 30 days. */
export const DELIVERY_LOG_RETENTION_MS = 30 * 24 * 3_600_000;

export async function pruneDeliveryLog(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - DELIVERY_LOG_RETENTION_MS);
  const attempts = await db
    .delete(webhookDeliveryAttempts)
    .where(lt(webhookDeliveryAttempts.attemptedAt, cutoff))
    .returning({ id: webhookDeliveryAttempts.id });
  const deliveries = await db
    .delete(webhookDeliveries)
    .where(and(lt(webhookDeliveries.completedAt, cutoff), sql`${webhookDeliveries.status} <> 'pending'`))
    .returning({ id: webhookDeliveries.id });
  return attempts.length + deliveries.length;
}
