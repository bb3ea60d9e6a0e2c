import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import type { SQL } from "drizzle-orm";
import type { Db } from "./client";
import { executePrepared } from "./rows";

/*
 * Reads that take the bytes PostgreSQL sent, for bodies assembled from stored text (the partner
 * feed). The one place that reaches under drizzle into postgres-js: nothing else touches the
 * driver's own objects.
 */

/** A column as read: text, or on PostgreSQL the bytes PostgreSQL sent. */
export type SentValue = string | Uint8Array | null;

/** What of postgres-js's client these reads use: raw rows, and COPY's stream. */
interface PostgresJsClient {
  unsafe(query: string, params: unknown[], options: { prepare: boolean }): { raw(): Promise<(Buffer | null)[][]> };
  unsafe(query: string): { readable(): Promise<Readable>; cancel(): void };
}

/** postgres-js's client under a drizzle handle (a transaction's own); absent on PGlite. */
interface PostgresJsHandle {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: { client: Partial<PostgresJsClient> };
}

/** The postgres-js client under a drizzle handle (a transaction's own, on its connection); null on PGlite. */
function postgresJsClient(db: Db): PostgresJsClient | null {
  const client = (db as unknown as PostgresJsHandle).session.client;
  return typeof client.unsafe === "function" ? (client as PostgresJsClient) : null;
}

/** True on PostgreSQL, false on PGlite: for a setting PostgreSQL honours and PGlite does not. */
export function runsOnPostgres(db: Db): boolean {
  return postgresJsClient(db) !== null;
}

/**
 * The rows of a query, each its columns in select order. On PostgreSQL as the bytes PostgreSQL
 * sent (postgres-js raw rows, prepared unless behind a transaction pooler: client.ts): a document is then never decoded from UTF-8 into a string
 * and encoded back for the socket, and it lives outside the JS heap, so memory stays flat. PGlite
 * answers text.
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

/**
 * Reads a one-column `COPY (...) TO STDOUT (FORMAT binary)`, handing `take` each value as the
 * bytes PostgreSQL sent (the binary format, not text or CSV: those escape the backslashes and
 * quotes JSON is full of), in the batches the socket delivered them. False on PGlite, which has no
 * COPY stream. `db` is a transaction's handle: the COPY runs on its connection, in its snapshot.
 *
 * `take` returns a promise only when it must wait (its reader is busy): PostgreSQL sends a message
 * per row, and an await per row would cost an export much of its speed. Flat memory: postgres-js pauses
 * the socket while the stream's buffer is full, and the stream waits while `take` does. When `take`
 * throws (its reader stopped), the COPY is cancelled and what PostgreSQL sent meanwhile is read and
 * dropped, so the connection is free for the transaction's next statement; the error is rethrown.
 */
export async function copyColumnOut(db: Db, copyStatement: string, take: (values: Buffer[]) => Promise<void> | undefined): Promise<boolean> {
  const client = postgresJsClient(db);
  if (!client) return false;
  const query = client.unsafe(copyStatement);
  const stream = await query.readable();
  const fields = new CopyBinaryFields();
  try {
    for await (const chunk of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      const waiting = take(fields.take(chunk));
      if (waiting) await waiting;
    }
  } catch (error) {
    if (!stream.readableEnded) {
      query.cancel();
      stream.resume();
      await finished(stream).catch(() => undefined);
    }
    throw error;
  } finally {
    resumeConnection(stream);
  }
  return true;
}

/**
 * postgres-js pauses the connection's socket when a COPY stream's buffer is full and resumes it
 * only from the stream's read(). When the full buffer and the end of the COPY come in one read from
 * the socket, the stream ends with the socket paused, and the transaction's next statement (its
 * COMMIT) is never answered: the export hung at its last line. One more read() after the end
 * resumes the socket.
 */
function resumeConnection(stream: Readable): void {
  stream._read(0);
}

/** COPY's binary header: the signature, 4 bytes of flags, then the length of an extension to skip. */
const SIGNATURE_BYTES = 11;
const HEADER_FIXED_BYTES = SIGNATURE_BYTES + 4 + 4;

/**
 * The fields of a one-column binary COPY, from chunks cut anywhere: each tuple is its field count
 * (int16; -1 ends the data) and the field as a length (int32; -1 for NULL) and that many bytes.
 */
export class CopyBinaryFields {
  private pending: Buffer | null = null;
  private headerRead = false;

  /** The complete non-null fields in `chunk` and what was left of earlier chunks. */
  take(chunk: Buffer): Buffer[] {
    const buffer = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    let at = 0;
    if (!this.headerRead) {
      if (buffer.length < HEADER_FIXED_BYTES) return this.keep(buffer, 0);
      at = HEADER_FIXED_BYTES + buffer.readUInt32BE(SIGNATURE_BYTES + 4);
      if (buffer.length < at) return this.keep(buffer, 0);
      this.headerRead = true;
    }
    const fields: Buffer[] = [];
    while (at + 2 <= buffer.length) {
      if (buffer.readInt16BE(at) === -1) return fields;
      if (at + 6 > buffer.length) break;
      const length = buffer.readInt32BE(at + 2);
      const end = at + 6 + Math.max(length, 0);
      if (end > buffer.length) break;
      if (length >= 0) fields.push(buffer.subarray(at + 6, end));
      at = end;
    }
    return this.keep(buffer, at, fields);
  }

  private keep(buffer: Buffer, from: number, fields: Buffer[] = []): Buffer[] {
    if (from < buffer.length) this.pending = buffer.subarray(from);
    return fields;
  }
}
