import type { SQL } from "drizzle-orm";
import type { Db } from "./client";
import { perDatabase } from "./per-database";

/**
 * The rows of a `db.execute(sql...)` result: postgres-js returns them as the result itself, PGlite
 * as `{ rows }`. Every raw query reads its rows through this, on either driver.
 */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

interface PreparingDatabase {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      arrayMode: false,
    ): { execute(values?: Record<string, unknown>): Promise<unknown> };
  };
}

/**
 * The rows of a hot raw query run as a prepared statement. `db.execute` sends every query
 * unprepared, so PostgreSQL parses and plans it on each call (3 ms of a partner-feed page's 15);
 * prepared, postgres-js keeps one statement per query text on each connection (the text, not the
 * name, is its key, so queries whose shape varies stay correct) and PostgreSQL reuses its plan.
 * Only for queries with a small number of shapes, each of which plans well generically. Behind a
 * transaction pooler the client's `prepare: false` outranks this (client.ts): sent unnamed, planned each time.
 */
export async function executePrepared<T>(db: Db, query: SQL): Promise<T[]> {
  return rowsOf<T>(await prepare(db, query).execute());
}

/** The query rendered to text and prepared by drizzle's session, read without row mapping. */
function prepare(db: Db, query: SQL) {
  const { dialect, session } = db as unknown as PreparingDatabase;
  return session.prepareQuery(dialect.sqlToQuery(query), undefined, "prepared", false);
}

/**
 * A hot raw query built once: its SQL text is rendered the first time it runs on a database handle,
 * and each call only fills its `sql.placeholder(...)` values and reads the driver's raw rows (no
 * query building and no drizzle row mapping per call; on PostgreSQL one prepared statement per
 * connection). Name the columns as T names them.
 */
export function preparedQuery<T>(query: SQL): (db: Db, values: Record<string, unknown>) => Promise<T[]> {
  const statements = perDatabase((db) => prepare(db, query));
  return async (db, values) => rowsOf<T>(await statements.get(db).execute(values));
}
