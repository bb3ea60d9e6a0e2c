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

/**
 * Batches in flight, at most `concurrency` at once: start() waits for a free slot, so the reader
 * that produces batches never runs more than that ahead of the database. The first failure is
 * thrown by the next start() or by drain(), and no batch starts after it.
 */
export class BatchesInFlight {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;

  constructor(private readonly concurrency: number) {}

  async start(work: () => Promise<void>): Promise<void> {
    while (this.running.size >= Math.max(1, this.concurrency) && !this.failure) await Promise.race(this.running);
    this.throwIfFailed();
    const running: Promise<void> = work().then(
      () => void this.running.delete(running),
      (error: unknown) => {
        this.running.delete(running);
        this.failure ??= { error };
      },
    );
    this.running.add(running);
  }

  /** Waits for every batch started; throws the first failure. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.race(this.running);
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
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
