type Outcome = { ok: true } | { ok: false; error: unknown };

/**
 * Keeps at most `limit` batch inserts running and completes them in order, so progress is reported
 * in order. Outcomes are captured at once: a batch that fails while an older one is still awaited
 * must not surface as an unhandled rejection.
 */
export class BatchQueue {
  private readonly running: { outcome: Promise<Outcome>; onDone: () => void }[] = [];

  constructor(private readonly limit: number) {}

  /** Starts tracking `insert`; waits for the oldest batch while the queue is full. */
  async add(insert: Promise<void>, onDone: () => void): Promise<void> {
    const outcome = insert.then(
      (): Outcome => ({ ok: true }),
      (error: unknown): Outcome => ({ ok: false, error }),
    );
    this.running.push({ outcome, onDone });
    while (this.running.length >= this.limit) await this.completeOldest();
  }

  async drain(): Promise<void> {
    while (this.running.length > 0) await this.completeOldest();
  }

  private async completeOldest(): Promise<void> {
    const oldest = this.running.shift();
    if (!oldest) return;
    const outcome = await oldest.outcome;
    if (!outcome.ok) {
      // Let the other transactions finish (each commits or rolls back whole) before failing.
      await Promise.all(this.running.splice(0).map((entry) => entry.outcome));
      throw outcome.error;
    }
    oldest.onDone();
  }
}
