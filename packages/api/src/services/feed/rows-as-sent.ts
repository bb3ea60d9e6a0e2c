import type { SQL } from "drizzle-orm";
import { executePrepared, type Db } from "@directory/db";

/** A column as read: text, or on PostgreSQL the bytes PostgreSQL sent. */
export type SentValue = string | Uint8Array | null;

/** postgres-js's client under a drizzle handle (a transaction's own); absent on PGlite. */
interface PostgresJsHandle {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: { client: { unsafe?: (query: string, params: unknown[], options: { prepare: boolean }) => { raw(): Promise<(Buffer | null)[][]> } } };
}

/**
 * The rows of a query, each its columns in select order. On PostgreSQL as the bytes PostgreSQL
 * sent (postgres-js raw rows, prepared): a document is then never decoded from UTF-8 into a string
 * and encoded back for the socket, and it lives outside the JS heap, so memory stays flat. PGlite
 * answers text. For the feed's bodies, assembled from stored documents.
 */
export async function rowsAsSent(db: Db, query: SQL): Promise<SentValue[][]> {
  const handle = db as unknown as PostgresJsHandle;
  const client = handle.session.client;
  if (typeof client.unsafe === "function") {
    const { sql: text, params } = handle.dialect.sqlToQuery(query);
    return client.unsafe(text, params, { prepare: true }).raw();
  }
  const rows = await executePrepared<Record<string, string | number | null>>(db, query);
  return rows.map((row) => Object.values(row).map((value) => (value === null ? null : String(value))));
}

/** A column read as text (a number, a position, an id). */
export function sentText(value: SentValue): string | null {
  return value === null ? null : typeof value === "string" ? value : Buffer.from(value).toString();
}
