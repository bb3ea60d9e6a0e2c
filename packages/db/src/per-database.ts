import type { Db } from "./client";

/**
 * A value held per database handle in this process, made on first use: a prepared statement, an
 * in-memory counter, a cache. Held weakly, so a closed and dropped handle takes its values with it,
 * and two handles (two databases in one process, as the tests have) never share one.
 */
export function perDatabase<T>(make: (db: Db) => T) {
  const values = new WeakMap<Db, T>();
  return {
    get(db: Db): T {
      if (values.has(db)) return values.get(db) as T;
      const value = make(db);
      values.set(db, value);
      return value;
    },
    /** Drops the held value: the next get makes it again (a lookup that failed is retried). */
    forget(db: Db): void {
      values.delete(db);
    },
  };
}
