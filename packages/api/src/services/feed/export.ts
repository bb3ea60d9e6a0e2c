import { sql, type SQL } from "drizzle-orm";
import { executePrepared, rowsAsSent, sentText, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { baseBytes, servedDocument } from "./feed-documents";
import { pullStream } from "./pull-stream";
import { copyFeedDocuments } from "./copy-documents";

/** Rows per read on PGlite (~500 KB of text; at most two reads are held at once, one ahead of the one being written), and at most per batch on PostgreSQL. */
export const EXPORT_CHUNK_ROWS = 300;
/** What a refused second export is told to wait; a disconnected client's export ends within seconds. */
export const EXPORT_RETRY_AFTER_SECONDS = 10;

/** Exports at once in this process, all keys together: each holds a database connection while it runs. */
export const MAX_RUNNING_EXPORTS = 4;

/** Keys with an export running in this process: one at a time per key. */
const running = new Set<string>();

export interface FeedExportParams {
  /** Whose export this is (the API key's id): one runs at a time per key. */
  keyId: string;
  baseUrl: string;
  /** Documents per read on PGlite, at most per batch on PostgreSQL (EXPORT_CHUNK_ROWS); small in tests, for many of them. */
  chunkRows?: number;
}

/**
 * Every feed-visible location as NDJSON text, then the line {"after": <position>, "count": n}.
 * One REPEATABLE READ transaction reads feed_position and feed_documents from one snapshot: the
 * position is the last change that snapshot holds (positions are given at commit under the
 * feed_position row lock, so a commit is in the snapshot exactly when its positions are at most
 * that one), so changes?after=<it> continues with nothing lost or doubled.
 *
 * Pulled, not pushed: the next chunk is read only when the consumer has taken the previous one, so
 * a slow reader holds the database cursor still instead of growing memory. Throws RATE_LIMITED
 * (before any row is read) when the key already has an export running; the slot is freed when the
 * stream ends, fails, or the consumer stops (return()).
 */
export function openFeedExport(db: Db, params: FeedExportParams): AsyncIterableIterator<string | Uint8Array> {
  if (running.has(params.keyId)) {
    throw new DomainError("RATE_LIMITED", `This key already has an export running: one at a time per key; retry in ${EXPORT_RETRY_AFTER_SECONDS} seconds`);
  }
  if (running.size >= MAX_RUNNING_EXPORTS) {
    throw new DomainError("RATE_LIMITED", `${MAX_RUNNING_EXPORTS} exports are running; retry in ${EXPORT_RETRY_AFTER_SECONDS} seconds`);
  }
  running.add(params.keyId);
  const chunkRows = params.chunkRows ?? EXPORT_CHUNK_ROWS;
  return pullStream<string | Uint8Array>(
    (emit) =>
      db.transaction(
        async (tx) => {
          const [position] = await executePrepared<{ last: string | number }>(tx, sql`select last from feed_position where id = 1`);
          // The COPY runs as long as the reader reads (a reader taking 5 MB/s holds it for minutes): not
          // bounded by the service's statement timeout of seconds. MAX_RUNNING_EXPORTS bounds how many run.
          await tx.execute(sql`set local statement_timeout = 0`);
          // PostgreSQL streams the documents by COPY (copy-documents.ts); PGlite has no COPY stream and reads them in chunks.
          const count =
            (await copyFeedDocuments(tx, baseBytes(params.baseUrl), chunkRows, emit)) ?? (await readFeedDocuments(tx, params.baseUrl, chunkRows, emit));
          await emit(`${JSON.stringify({ after: Number(position?.last ?? 0), count })}\n`);
        },
        { isolationLevel: "repeatable read", accessMode: "read only" },
      ),
    () => running.delete(params.keyId),
  );
}

/** Every stored document in business id order as NDJSON chunks of `chunkRows`, each given to `emit`; the number of documents. */
async function readFeedDocuments(tx: Db, baseUrl: string, chunkRows: number, emit: (text: string | Uint8Array) => Promise<void>): Promise<number> {
  let after = "00000000-0000-0000-0000-000000000000";
  let count = 0;
  for (;;) {
    // One text per read, joined by the database and given its base URL as every feed read is
    // (servedDocument): no row is parsed, built or stringified here.
    const chunk = await readChunk(
      tx,
      sql`select string_agg(document || E'\n', '' order by business_id) as "text",
        (array_agg(business_id order by business_id desc))[1]::text as "last", count(*)::int as "rows"
      from (select business_id, document from feed_documents where business_id > ${after}::uuid order by business_id limit ${chunkRows}) d`,
    );
    if (!chunk) return count;
    count += chunk.rows;
    after = chunk.last;
    await emit(servedDocument(sentText(chunk.text) ?? "", baseUrl));
  }
}

/** One read of the export: its NDJSON text, the last id, the rows. */
async function readChunk(tx: Db, query: SQL): Promise<{ text: string | Uint8Array; last: string; rows: number } | null> {
  const [text = null, last = null, rows = null] = (await rowsAsSent(tx, query))[0] ?? [];
  const lastId = sentText(last);
  if (!text || !lastId) return null;
  return { text, last: lastId, rows: Number(sentText(rows)) };
}
