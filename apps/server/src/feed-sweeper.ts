import { pruneFeedChanges, sweepExpiredSubscriptions } from "@directory/api";
import type { Db } from "@directory/db";
import type { Logger } from "./logger";

/** A subscription that ends by time alone must show in the change feed within a minute: swept twice as often as that. */
export const FEED_SWEEP_INTERVAL_MS = 20_000;
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Periodic change-feed work while the server runs, like the webhook worker's: records the removes of
 * subscriptions that ran out (nothing writes when time passes), and hourly deletes changes past
 * retention. Safe on several instances at once (the sweep locks with SKIP LOCKED). Returns a stop function.
 */
export function startFeedSweeper(db: Db, logger: Logger, intervalMs = FEED_SWEEP_INTERVAL_MS): () => void {
  let lastPrune = 0;
  let running = false;
  const run = async () => {
    // A slow round (a database outage) is never overlapped by the next.
    if (running) return;
    running = true;
    try {
      const removed = await sweepExpiredSubscriptions(db);
      if (removed > 0) logger.info({ removed }, "change feed: expired subscriptions removed");
      if (Date.now() - lastPrune > PRUNE_INTERVAL_MS) {
        lastPrune = Date.now();
        const pruned = await pruneFeedChanges(db);
        if (pruned > 0) logger.info({ pruned }, "change feed: changes past retention deleted");
      }
    } catch (error) {
      logger.warn({ err: error }, "change feed sweep failed; will retry");
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  void run();
  return () => clearInterval(timer);
}
