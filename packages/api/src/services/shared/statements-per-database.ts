import { perDatabase, type Db } from "@directory/db";

/**
 * Statements built once per database handle and shape, then reused on every call: building a
 * drizzle query was a real share of a hot search's CPU, and a statement built with
 * `sql.placeholder(...)` only takes its values at each call (PostgreSQL plans it once per
 * connection). `key` names the shape (which filters, which order); `build` runs once per key.
 */
export function statementsPerDatabase<T>(): (db: Db, key: string, build: () => T) => T {
  const byDatabase = perDatabase(() => new Map<string, T>());
  return (db, key, build) => {
    const statements = byDatabase.get(db);
    let built = statements.get(key);
    if (built === undefined) statements.set(key, (built = build()));
    return built;
  };
}
