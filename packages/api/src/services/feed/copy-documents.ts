import { finished } from "node:stream/promises";
import type { Readable } from "node:stream";
import { servedPieces, type BaseBytes } from "./feed-documents";
import type { CopyOutClient } from "./rows-as-sent";

/*
 * The export's documents on PostgreSQL, read by `COPY ... TO STDOUT (FORMAT binary)`: PostgreSQL
 * streams the stored texts at its own COPY speed, and node only strips each row's framing, puts the
 * base URL in and batches them. The export's reads as queries of 300 rows joined by string_agg ran
 * at 30% of COPY: PostgreSQL's replace() and ordered aggregates over every document (5 ms a read,
 * 1.3 ms without them), and node collecting 600 KB messages. The binary format, not text or CSV:
 * those escape the backslashes and quotes JSON is full of; binary sends each text as it is.
 *
 * Flat memory: postgres-js pauses the socket while the stream's buffer is full, and the stream is
 * paused while a batch waits for the reader, so a slow reader holds PostgreSQL still.
 */

/** Bytes gathered before a batch is handed on: few enough writes, little memory. */
const BATCH_BYTES = 64 * 1024;

const NEWLINE = Buffer.from("\n");

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

/**
 * Every stored document in business id order as NDJSON batches of at most `batchRows` documents
 * or about 64 KB, each handed to `emit` (which resolves once the reader has taken it), base URL put
 * in; resolves to the number of documents.
 * Runs on `client`'s connection, inside its transaction (the export's snapshot). When `emit`
 * throws (the reader stopped), the COPY is cancelled and drained, and that error is rethrown.
 */
export async function copyFeedDocuments(
  client: CopyOutClient,
  base: BaseBytes,
  batchRows: number,
  emit: (batch: Uint8Array) => Promise<void>,
): Promise<number> {
  const query = client.unsafe("copy (select document from feed_documents order by business_id) to stdout (format binary)");
  const stream: Readable = await query.readable();
  const fields = new CopyBinaryFields();
  let count = 0;
  let pieces: Uint8Array[] = [];
  let batchBytes = 0;
  let batchDocuments = 0;
  let readerStopped = false;
  const handOn = async () => {
    const batch = Buffer.concat(pieces, batchBytes);
    pieces = [];
    batchBytes = 0;
    batchDocuments = 0;
    await emit(batch).catch((error: unknown) => {
      readerStopped = true;
      throw error;
    });
  };
  try {
    for await (const chunk of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      for (const document of fields.take(chunk)) {
        const before = pieces.length;
        servedPieces(document, base, pieces);
        pieces.push(NEWLINE);
        for (let index = before; index < pieces.length; index++) batchBytes += pieces[index]!.length;
        count++;
        if (++batchDocuments >= batchRows) await handOn();
      }
      if (batchBytes >= BATCH_BYTES) await handOn();
    }
    resumeConnection(stream);
    if (batchBytes > 0) await handOn();
    return count;
  } catch (error) {
    if (readerStopped && !stream.readableEnded) {
      // PostgreSQL stops at the cancel; what it sent meanwhile is read and dropped, so the
      // connection is free for the transaction's rollback.
      query.cancel();
      stream.resume();
      await finished(stream).catch(() => undefined);
    }
    resumeConnection(stream);
    throw error;
  }
}
