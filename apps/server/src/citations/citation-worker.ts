import { runDueChecks, scheduleChecks, type CitationSettings } from "@directory/api";
import type { Db } from "@directory/db";
import type { Logger } from "../logger";

export interface CitationWorkerOptions {
  db: Db;
  settings: CitationSettings;
  logger: Logger;
  /** How often the schedule is read and due checks run (retries come due between rounds). */
  intervalMs?: number;
}

export interface CitationWorker {
  /** Finishes the round in flight, then stops. */
  stop(): Promise<void>;
}

const DEFAULT_INTERVAL_MS = 60_000;

/**
 * Citation checks in the background, where webhook delivery runs (`pnpm worker`, or the server
 * with WEBHOOK_WORKER on): each round queues the period's pairs by the written policy (schedule.ts)
 * and runs the due checks. Safe with several workers: a check is claimed skip-locked, queued once
 * a period by its unique key, and the day's budget is shared in the database. With no engine
 * configured it does nothing.
 */
export function startCitationWorker(options: CitationWorkerOptions): CitationWorker {
  const { db, settings, logger } = options;
  if (settings.engines.length === 0) return { stop: async () => {} };
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (running) {
      try {
        const now = new Date();
        const queued = await scheduleChecks(db, { engines: settings.engines, checksPerDay: settings.checksPerDay, now });
        const run = await runDueChecks(db, { settings });
        if (queued.length > 0 || run.checks.length > 0) {
          const done = run.checks.filter((check) => check.status === "done").length;
          logger.info(
            { pairsQueued: queued.length, attempted: run.checks.length, done, budgetSpent: run.budgetSpent, engineBusy: run.engineBusy },
            "citation checks round",
          );
        }
      } catch (error) {
        logger.warn({ err: error }, "citation checks round failed; retrying");
      }
      if (!running) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, intervalMs);
      });
    }
  })();
  logger.info({ engines: settings.engines.map((engine) => `${engine.name}:${engine.model}`), checksPerDay: settings.checksPerDay }, "citation checks running");
  return {
    stop: async () => {
      running = false;
      clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
