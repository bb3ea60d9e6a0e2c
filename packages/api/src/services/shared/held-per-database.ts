import { perDatabase, type Db } from "@directory/db";

/**
 * How old a held value may be: younger than maxAgeMs it is served as it is; older, but younger than
 * hardMaxAgeMs, it is served while one recomputation runs in the background (no request waits for
 * it); older still, or never computed, the request waits for the recomputation. So a value is at
 * most hardMaxAgeMs old, and at most maxAgeMs plus one recomputation on a server asked at least once
 * per maxAgeMs.
 */
export interface HoldingBounds {
  maxAgeMs: number;
  hardMaxAgeMs: number;
}

export interface HeldValue<T> {
  value: T;
  /** When the computation started: it sees the database as of then, never later. */
  takenAt: number;
}

interface Holder<T> {
  held: HeldValue<T> | null;
  pending: Promise<HeldValue<T>> | null;
  /** Bumped by invalidate(): a computation started before it must not be held after it. */
  generation: number;
}

/**
 * A value too costly to compute per request (an aggregate over a large table), held per database
 * handle in this process within the bounds above; invalidate() makes the next request recompute.
 */
export function heldPerDatabase<T>(compute: (db: Db) => Promise<T>, bounds: HoldingBounds) {
  const holders = perDatabase((): Holder<T> => ({ held: null, pending: null, generation: 0 }));

  function recompute(db: Db, holder: Holder<T>): Promise<HeldValue<T>> {
    if (holder.pending) return holder.pending;
    const takenAt = Date.now();
    const { generation } = holder;
    const pending = compute(db)
      .then((value) => {
        const result = { value, takenAt };
        if (holder.generation === generation) holder.held = result;
        return result;
      })
      .finally(() => {
        if (holder.pending === pending) holder.pending = null;
      });
    holder.pending = pending;
    return pending;
  }

  return {
    async get(db: Db): Promise<HeldValue<T>> {
      const holder = holders.get(db);
      const { held } = holder;
      const age = held ? Date.now() - held.takenAt : Number.POSITIVE_INFINITY;
      if (held && age < bounds.maxAgeMs) return held;
      const recomputing = recompute(db, holder);
      if (held && age < bounds.hardMaxAgeMs) {
        // A failed background recomputation keeps the old value; the next request past the bound retries.
        recomputing.catch(() => {});
        return held;
      }
      return recomputing;
    },
    invalidate(db: Db): void {
      const holder = holders.get(db);
      holder.held = null;
      holder.pending = null;
      holder.generation++;
    },
  };
}
