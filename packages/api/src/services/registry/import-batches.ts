import { sql } from "drizzle-orm";
import type { Db } from "@directory/db";
import { isDeadlock, isUniqueViolation } from "../shared/db-errors";

/* How an import's batches run: side by side, each committed without waiting for the disk, retried when two race. */

/**
 * An import's commits need not wait for the disk: a crash loses at most the last batches, which a
 * re-run (a diff) writes again, and the database stays consistent either way.
 */
export async function relaxedCommit(tx: Db): Promise<void> {
  await tx.execute(sql`set local synchronous_commit = off`);
}

/** Runs work over items with at most `concurrency` at once, in order of start; the first failure stops the rest. */
export async function forEachConcurrently<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
}

/**
 * Two batches side by side can race for one free slug ("coop-vaduz" in both) or deadlock on each
 * other's rows; the loser's transaction rolled back whole, so it is simply run again.
 */
export async function withRetryOnRace<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !(isUniqueViolation(error) || isDeadlock(error))) throw error;
    }
  }
}
