import { copyColumnOut, type Db } from "@directory/db";
import { servedPieces, type BaseBytes } from "./feed-documents";

/*
 * The export's documents on PostgreSQL, read by `COPY ... TO STDOUT (FORMAT binary)`: PostgreSQL
 * streams the stored texts at its own COPY speed, and node only puts the base URL in and batches
 * them. The export's reads as queries of 300 rows joined by string_agg ran at 30% of COPY:
 * PostgreSQL's replace() and ordered aggregates over every document, and node collecting large
 * messages. A slow reader holds PostgreSQL still (copyColumnOut).
 */

/** Bytes gathered before a batch is handed on: few enough writes, little memory. */
const BATCH_BYTES = 64 * 1024;

const NEWLINE = Buffer.from("\n");

/**
 * Every stored document in business id order as NDJSON batches of at most `batchRows` documents
 * or about 64 KB, each handed to `emit` (which resolves once the reader has taken it), base URL put
 * in; resolves to the number of documents, or null on PGlite (no COPY stream).
 * Runs inside `tx` (the export's snapshot). When `emit` throws (the reader stopped), the COPY is
 * cancelled and that error is rethrown.
 */
export async function copyFeedDocuments(tx: Db, base: BaseBytes, batchRows: number, emit: (batch: Uint8Array) => Promise<void>): Promise<number | null> {
  let count = 0;
  let pieces: Uint8Array[] = [];
  let batchBytes = 0;
  let batchDocuments = 0;
  const handOn = () => {
    const batch = Buffer.concat(pieces, batchBytes);
    pieces = [];
    batchBytes = 0;
    batchDocuments = 0;
    return emit(batch);
  };
  const add = (document: Buffer) => {
    const before = pieces.length;
    servedPieces(document, base, pieces);
    pieces.push(NEWLINE);
    for (let index = before; index < pieces.length; index++) batchBytes += pieces[index]!.length;
    count++;
    batchDocuments++;
  };
  // A promise only when a batch is handed on: the reader may be busy, and the rest waits for it.
  const take = (documents: Buffer[], from = 0): Promise<void> | undefined => {
    for (let index = from; index < documents.length; index++) {
      add(documents[index]!);
      if (batchDocuments >= batchRows) return handOn().then(() => take(documents, index + 1));
    }
    return batchBytes >= BATCH_BYTES ? handOn() : undefined;
  };
  const copied = await copyColumnOut(tx, "copy (select document from feed_documents order by business_id) to stdout (format binary)", take);
  if (!copied) return null;
  if (batchBytes > 0) await handOn();
  return count;
}
