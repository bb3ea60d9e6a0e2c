import { sql, type SQL } from "drizzle-orm";
import { executePrepared, rowsAsSent, runsOnPostgres, sentText, type Db } from "@directory/db";
import { baseBytes, servedDocument } from "./feed-documents";
import { pullStream } from "./pull-stream";
import { copyFeedDocuments } from "./copy-documents";
import { asciiJson } from "./ascii-json";
import { attributionsOfFeed } from "../registry/attribution-reads";
import { boundExport, type FeedExportStream } from "./export-bounds";
import type { FeedExportLimits, FeedExportSlots } from "./export-slots";

/** Rows per read on PGlite (~500 KB of text; at most two reads are held at once, one ahead of the one being written), and at most per batch on PostgreSQL. */
export const EXPORT_CHUNK_ROWS = 300;

export interface FeedExportParams {
  /** Whose export this is: the partner's API key id. One runs at a time per partner. */
  partnerId: string;
  baseUrl: string;
  /** The process's export slots and the bounds every export keeps (export-slots.ts). */
  slots: FeedExportSlots;
  /** Documents per read on PGlite, at most per batch on PostgreSQL (EXPORT_CHUNK_ROWS); small in tests, for many of them. */
  chunkRows?: number;
}

/**
 * Every feed-visible location as NDJSON text, then the line {"after": <position>, "count": n,
 * "attributions": [...]} (the licence notices its locations owe).
 * One REPEATABLE READ transaction reads feed_position and feed_documents from one snapshot: the
 * position is the last change that snapshot holds (positions are given at commit under the
 * feed_position row lock, so a commit is in the snapshot exactly when its positions are at most
 * that one), so changes?after=<it> continues with nothing lost or doubled.
 *
 * Pulled, not pushed: the next chunk is read only when the consumer has taken the previous one, so
 * a slow reader holds the database cursor still instead of growing memory. Throws RATE_LIMITED
 * (before any row is read) when the partner already has an export running or every slot is taken.
 * However the stream ends (read to the end, failed, stopped by the consumer with return(), or cut
 * for a reader below the minimum rate or past the maximum duration), its transaction is rolled back
 * or committed and its slot freed.
 */
export function openFeedExport(db: Db, params: FeedExportParams): FeedExportStream {
  const release = params.slots.claim(params.partnerId);
  const { limits } = params.slots;
  const chunkRows = params.chunkRows ?? EXPORT_CHUNK_ROWS;
  const lines = pullStream<string | Uint8Array>(
    (emit) =>
      db.transaction(
        async (tx) => {
          const [position] = await executePrepared<{ last: string | number }>(tx, sql`select last from feed_position where id = 1`);
          await boundTransaction(tx, limits);
          // PostgreSQL streams the documents by COPY (copy-documents.ts); PGlite has no COPY stream and reads them in chunks.
          const count =
            (await copyFeedDocuments(tx, baseBytes(params.baseUrl), chunkRows, emit)) ?? (await readFeedDocuments(tx, params.baseUrl, chunkRows, emit));
          // The notices the whole export owes, read in its snapshot: partners keep them with the data.
          const attributions = await attributionsOfFeed(tx);
          await emit(`${asciiJson({ after: Number(position?.last ?? 0), count, attributions })}\n`);
        },
        { isolationLevel: "repeatable read", accessMode: "read only" },
      ),
    release,
  );
  return boundExport(lines, limits);
}

/**
 * The database's own bounds on the export's transaction, should this process stop ending it (the
 * stream's bounds end it first): the COPY runs as long as the reader reads, so not under the
 * service's statement timeout of seconds but under the export's maximum duration; and on
 * PostgreSQL a session left idle in the snapshot for two rate windows is closed. PGlite ignores
 * statement_timeout and stalls on idle_in_transaction_session_timeout, so that one is PostgreSQL's only.
 */
async function boundTransaction(tx: Db, limits: FeedExportLimits): Promise<void> {
  const statementMs = limits.maxDurationMs > 0 ? limits.maxDurationMs + limits.rateWindowMs : 0;
  await tx.execute(sql`select set_config('statement_timeout', ${String(statementMs)}, true)`);
  if (limits.minBytesPerSecond > 0 && runsOnPostgres(tx)) {
    await tx.execute(sql`select set_config('idle_in_transaction_session_timeout', ${String(2 * limits.rateWindowMs)}, true)`);
  }
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
