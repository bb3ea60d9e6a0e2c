import type { Readable } from "node:stream";
import type { SQL } from "drizzle-orm";
import { executePrepared, type Db } from "@directory/db";

/** A column as read: text, or on PostgreSQL the bytes PostgreSQL sent. */
export type SentValue = string | Uint8Array | null;

/** What of postgres-js's client the feed uses: raw rows, and COPY's stream (copy-documents.ts). */
interface PostgresJsClient {
  unsafe(query: string, params: unknown[], options: { prepare: boolean }): { raw(): Promise<(Buffer | null)[][]> };
  unsafe(query: string): { readable(): Promise<Readable>; cancel(): void };
}

/** A client that streams COPY ... TO STDOUT. */
export type CopyOutClient = Pick<PostgresJsClient, "unsafe">;

/** postgres-js's client under a drizzle handle (a transaction's own); absent on PGlite. */
interface PostgresJsHandle {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: { client: Partial<PostgresJsClient> };
}

/** The postgres-js client under a drizzle handle (a transaction's own, on its connection); null on PGlite. */
export function postgresJsClient(db: Db): PostgresJsClient | null {
  const client = (db as unknown as PostgresJsHandle).session.client;
  return typeof client.unsafe === "function" ? (client as PostgresJsClient) : null;
}

/**
 * The rows of a query, each its columns in select order. On PostgreSQL as the bytes PostgreSQL
 * sent (postgres-js raw rows, prepared): a document is then never decoded from UTF-8 into a string
 * and encoded back for the socket, and it lives outside the JS heap, so memory stays flat. PGlite
 * answers text. For the feed's bodies, assembled from stored documents.
 */
export async function rowsAsSent(db: Db, query: SQL): Promise<SentValue[][]> {
  const client = postgresJsClient(db);
  if (client) {
    const { sql: text, params } = (db as unknown as PostgresJsHandle).dialect.sqlToQuery(query);
    return client.unsafe(text, params, { prepare: true }).raw();
  }
  const rows = await executePrepared<Record<string, string | number | null>>(db, query);
  return rows.map((row) => Object.values(row).map((value) => (value === null ? null : String(value))));
}

/** A column read as text (a number, a position, an id). */
export function sentText(value: SentValue): string | null {
  if (value === null || typeof value === "string") return value;
  // A view of the bytes, not a copy (Buffer.from(aBuffer) copies): a page reads thousands.
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString();
}
