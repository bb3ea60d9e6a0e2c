import { deleteExpiredRateLimitWindows, deleteOldWritePositions } from "@directory/api";
import type { Db } from "@directory/db";
import type { Logger } from "./logger";

/** How often closed rate-limit windows are deleted; the shortest window is a minute. */
export const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Periodic clean-up while the server runs: closed rate-limit windows are deleted, so the counter
 * table holds only open windows, and so are read-your-writes positions past keeping. Safe on several instances at once (a delete is idempotent).
 * Returns a function that stops it.
 */
export function startHousekeeping(db: Db, logger: Logger, intervalMs = HOUSEKEEPING_INTERVAL_MS): () => void {
  const run = async () => {
    try {
      const deleted = await deleteExpiredRateLimitWindows(db);
      if (deleted > 0) logger.info({ deleted }, "housekeeping: expired rate-limit windows deleted");
      const positions = await deleteOldWritePositions(db);
      if (positions > 0) logger.info({ deleted: positions }, "housekeeping: old read-your-writes positions deleted");
    } catch (error) {
      logger.warn({ err: error }, "housekeeping failed; will retry");
    }
  };
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  void run();
  return () => clearInterval(timer);
}
