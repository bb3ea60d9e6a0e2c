import { claimDueDeliveries, fanOutOutbox, pruneDeliveryLog, recordAttempt, type DeliverySettings, type OutboundPolicy, type SecretBox } from "@directory/api";
import type { Database } from "@directory/db";
import type { Logger } from "../logger";
import { sendDelivery } from "./send";

export interface WebhookWorkerOptions {
  database: Database;
  publicBaseUrl: string;
  secretBox: SecretBox;
  outbound: OutboundPolicy;
  settings: DeliverySettings;
  logger: Logger;
  /** How often to look for work when nothing wakes the worker; NOTIFY wakes it sooner on PostgreSQL. */
  pollIntervalMs?: number;
  /** Deliveries sent at once. */
  concurrency?: number;
  /** Told of every recorded attempt (metrics): delivered, or failed (to be retried or given up). */
  onAttempt?(delivered: boolean): void;
}

export interface WebhookWorker {
  /** Look for work now (after a write in this process, or a NOTIFY). */
  wake(): void;
  /** Finishes the attempts in flight, then stops. */
  stop(): Promise<void>;
}

const USER_AGENT = "business-directory-webhooks/1.0";
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The delivery loop: fan out new outbox events, claim due deliveries, send them, record outcomes;
 * when a round finds nothing, sleep until woken or the poll interval passes. Several workers
 * (in-server or `pnpm worker`) share one database safely: every step claims with SKIP LOCKED.
 */
export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { database, logger, settings } = options;
  const db = database.db;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const concurrency = options.concurrency ?? 16;
  // The lease outlasts one attempt, so a live worker never sees its own delivery claimed again.
  const leaseMs = settings.attemptTimeoutMs + settings.leaseMarginMs;
  let running = true;
  let wakeUp: (() => void) | null = null;
  /** A wake-up that arrived while a round was running: the next sleep is skipped, so none is lost. */
  let wokenDuringRound = false;
  let lastPrune = 0;

  const wake = () => {
    if (wakeUp) wakeUp();
    else wokenDuringRound = true;
  };
  const sleep = () =>
    new Promise<void>((resolve) => {
      if (wokenDuringRound) {
        wokenDuringRound = false;
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        wakeUp = null;
        resolve();
      }, pollIntervalMs);
      wakeUp = () => {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      };
    });

  const round = async (): Promise<boolean> => {
    const fannedOut = await fanOutOutbox(db, { publicBaseUrl: options.publicBaseUrl });
    const claimed = await claimDueDeliveries(db, { secretBox: options.secretBox, limit: concurrency, leaseMs });
    // Every claimed attempt is awaited even when one fails to record, so a round never leaves sends running behind it.
    const settled = await Promise.allSettled(
      claimed.map(async (delivery) => {
        const outcome = await sendDelivery(delivery, { outbound: options.outbound, timeoutMs: settings.attemptTimeoutMs, userAgent: USER_AGENT });
        await recordAttempt(db, { delivery, outcome, settings });
        options.onAttempt?.(outcome.error === null);
        logger.info(
          {
            webhookId: delivery.webhookId,
            eventId: delivery.eventId,
            attempt: delivery.attempt,
            statusCode: outcome.statusCode,
            durationMs: outcome.durationMs,
            delivered: outcome.error === null,
          },
          "webhook delivery attempt",
        );
      }),
    );
    const failed = settled.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    if (Date.now() - lastPrune > PRUNE_INTERVAL_MS) {
      lastPrune = Date.now();
      await pruneDeliveryLog(db);
    }
    return fannedOut > 0 || claimed.length > 0;
  };

  const stopListening = database.listen("outbox_events", wake).catch((error: unknown) => {
    logger.warn({ err: error }, "webhook worker: LISTEN failed; polling only");
    return null;
  });
  const loop = (async () => {
    while (running) {
      let busy = false;
      wokenDuringRound = false;
      try {
        busy = await round();
      } catch (error) {
        logger.warn({ err: error }, "webhook worker round failed; retrying");
      }
      if (!busy && running) await sleep();
    }
  })();

  return {
    wake,
    stop: async () => {
      running = false;
      wakeUp?.();
      await loop;
      await (
        await stopListening
      )?.();
    },
  };
}
