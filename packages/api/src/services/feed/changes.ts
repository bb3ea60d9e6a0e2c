import { sql } from "drizzle-orm";
import { rowsAsSent, rowsOf, sentText, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import type { toJsonLd } from "../entities/structured-data";
import { baseBytes, recordFeedChanges, servedPieces, type RemoveReason } from "./feed-documents";
import { JsonText } from "../shared/json-text";
import { attributionsFor, type DataAttribution } from "../registry/attribution";
import { registryRecordIdOf } from "../registry/attribution-reads";
import { asciiJson } from "./ascii-json";

export const CHANGES_MAX_LIMIT = 1_000;
export const CHANGES_DEFAULT_LIMIT = 100;
/** A position stays valid at least this long; older ones answer 410. */
export const CHANGES_RETENTION_DAYS = 30;
/** Changes are deleted a day after the retention, so a position of day 30 is still served. */
const PRUNE_AFTER_DAYS = CHANGES_RETENTION_DAYS + 1;

export interface FeedChangesParams {
  after: number;
  limit: number;
  baseUrl: string;
}

/** A location as the builder makes it; read back from its stored text. */
export type FeedLocation = ReturnType<typeof toJsonLd>;

export interface FeedChange {
  seq: number;
  action: "upsert" | "remove";
  id: string;
  changedAt: string;
  reason?: RemoveReason;
  mergedInto?: string;
  location?: FeedLocation;
}

/** The last position given and the last pruned one. */
export async function feedPosition(db: Db): Promise<{ last: number; prunedThrough: number }> {
  const [row] = rowsOf<{ last: string | number; prunedThrough: string | number }>(
    await db.execute(sql`select last, pruned_through as "prunedThrough" from feed_position where id = 1`),
  );
  return { last: Number(row?.last ?? 0), prunedThrough: Number(row?.prunedThrough ?? 0) };
}

export function positionExpired(after: number): DomainError {
  return new DomainError(
    "POSITION_EXPIRED",
    `The position ${after} is older than ${CHANGES_RETENTION_DAYS} days and its changes are gone: take a fresh export (GET /api/v2/partner-feed/export) and follow the changes from the position on its last line`,
  );
}

export interface FeedChangesPage {
  changes: FeedChange[];
  nextAfter: number;
  hasMore: boolean;
  attributions: DataAttribution[];
}

/**
 * The changes after a position, in position order (commit order: see feed_changes). Every entry
 * is one change, never merged with a later one; an upsert carries the location as it was then.
 * The page is its JSON: each entry written around its stored document (given its base URL by
 * servedPieces, and on PostgreSQL kept as the bytes it sent), keys in the order the schema lists
 * them; no document is parsed or stringified. A page with a next one carries its query
 * (nextQuery), which the REST door names in a Link header: a partner asks for the next page while
 * it parses this one.
 *
 * `db` may be a read replica: it replays commits in commit order, so what it sees of the feed is
 * a prefix of the primary's and a page from it never skips a change.
 */
export async function feedChangesText(db: Db, params: FeedChangesParams, primary: Db = db): Promise<JsonText<FeedChangesPage>> {
  const { after } = params;
  const position = await feedPosition(db);
  // A read replica behind the server that gave this position: the primary has it.
  if (after > position.last && db !== primary) return feedChangesText(primary, params);
  if (after > position.last) {
    throw new DomainError(
      "INVALID_INPUT",
      `Invalid parameter after: ${after} is not a position this feed has given (the latest is ${position.last}); pass nextAfter or an export's "after" unchanged`,
    );
  }
  if (after < position.prunedThrough) throw positionExpired(after);
  return readChangesPage(db, params);
}

/**
 * A change's JSON up to its location, written by PostgreSQL: seq, action, id, changedAt (as
 * toISOString writes it: to_char's MS truncates, as the milliseconds of a Date do), reason and
 * mergedInto when set, then `,"location":` before an upsert's document, or the closing brace.
 * Ids are uuids, actions and reasons fixed words: nothing JSON escapes. Sent as bytes and written
 * as they are: node built these from each change's columns (5,000 decoded values and 1,000 dates
 * a page); building a page was then about a fifth of the server's CPU in a catch-up.
 */
const CHANGE_HEAD = sql`'{"seq":' || c.seq || ',"action":"' || c.action || '","id":"' || c.business_id
  || '","changedAt":"' || to_char(c.changed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'
  || coalesce(',"reason":"' || c.reason || '"', '') || coalesce(',"mergedInto":"' || c.merged_into || '"', '')
  || case when c.document is null then '}' else ',"location":' end`;

/** One page of changes after a position already checked. */
async function readChangesPage(db: Db, params: FeedChangesParams): Promise<JsonText<FeedChangesPage>> {
  const { after, limit } = params;
  const base = baseBytes(params.baseUrl);
  const rows = await rowsAsSent(
    db,
    // Ordered by c.seq, the column, not the text "seq" the select names.
    sql`select ${CHANGE_HEAD}, c.document, c.seq::text, (c.changed_at < now() - ${`${CHANGES_RETENTION_DAYS} days`}::interval)::text,
      case when c.document is not null then ${registryRecordIdOf(sql`c.business_id`)} end
    from feed_changes c where c.seq > ${after} order by c.seq limit ${limit + 1}`,
  );
  // Each row is [head, document, seq, expired, recordId (an upsert's registry record)], in the select's order.
  const [, , , firstExpired] = rows[0] ?? [];
  // The first change after a position is at least as old as the position: if it is past retention, so is the position.
  if (sentText(firstExpired ?? null) === "true" && after > 0) throw positionExpired(after);
  const page = rows.slice(0, limit);
  const parts: (string | Uint8Array)[] = ['{"changes":['];
  for (const [index, [head, document]] of page.entries()) {
    if (index > 0) parts.push(",");
    parts.push(head!);
    if (document !== null && document !== undefined) {
      servedPieces(document, base, parts);
      parts.push("}");
    }
  }
  const [, , lastSeq] = page.at(-1) ?? [];
  const nextAfter = lastSeq ? Number(sentText(lastSeq)) : after;
  const hasMore = rows.length > limit;
  // The notices owed by the locations this page carries (a remove carries none).
  const attributions = attributionsFor(page.map((row) => ({ recordId: sentText(row[4] ?? null) })));
  parts.push(`],"nextAfter":${nextAfter},"hasMore":${hasMore},"attributions":${asciiJson(attributions)}}`);
  return new JsonText(parts, hasMore ? { after: String(nextAfter), limit: String(limit) } : null);
}

/**
 * Subscriptions end by time alone, with no write to say so: this finds published businesses whose
 * subscription has run out and records their removes (subscription_expired). Each batch locks the
 * businesses it handles (SKIP LOCKED: a writer holding one records the change itself), so several
 * servers may sweep at once. Returns the number of removes.
 */
export async function sweepExpiredSubscriptions(db: Db, at: Date = new Date(), batchSize = 500): Promise<number> {
  let removed = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      // Expired businesses accumulate (7,000 in a 1M world, each once swept): the planner merged
      // them with every stored document (400,000 index entries, 240-430 ms of PostgreSQL every 20 s,
      // a spike in every latency measured meanwhile). Probing each expired business's document is
      // ~50 ms; these settings last only for this transaction.
      await tx.execute(sql`set local enable_mergejoin = off`);
      await tx.execute(sql`set local enable_hashjoin = off`);
      const ids = rowsOf<{ id: string }>(
        await tx.execute(sql`
          select b.id from businesses b join feed_documents d on d.business_id = b.id
          where b.subscription_expires_at <= now()
          order by b.id limit ${batchSize}
          for update of b skip locked`),
      ).map((row) => row.id);
      return { found: ids.length, recorded: await recordFeedChanges(tx, ids, at) };
    });
    removed += count.recorded;
    if (count.found < batchSize) return removed;
  }
}

/**
 * Deletes changes past retention and remembers the last deleted position (older ones answer 410).
 * Changes age in position order (a position is given at commit, seconds at most after the change
 * was written), so the ones past retention are the oldest positions: read along the position index,
 * a batch at a time, never the whole table (a filter on changed_at has no index and scanned all of
 * it: 700 MB at 200,000 changes, past the statement timeout, at every server start). A batch is
 * one statement. Returns the number deleted.
 */
export async function pruneFeedChanges(db: Db, batchSize = 10_000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const [oldest] = rowsOf<{ expired: boolean }>(
      await db.execute(
        sql`select changed_at < now() - ${`${PRUNE_AFTER_DAYS} days`}::interval as "expired" from feed_changes where seq is not null order by seq limit 1`,
      ),
    );
    if (!oldest?.expired) return deleted;
    const [row] = rowsOf<{ deleted: string | number }>(
      await db.execute(sql`
        with oldest as (
          select seq, changed_at from feed_changes where seq is not null order by seq limit ${batchSize}
        ), cutoff as (
          select max(seq) as seq from oldest where changed_at < now() - ${`${PRUNE_AFTER_DAYS} days`}::interval
        ), gone as (
          delete from feed_changes where seq <= (select seq from cutoff) returning seq
        )
        update feed_position set pruned_through = greatest(pruned_through, (select seq from cutoff))
        where id = 1 and (select seq from cutoff) is not null
        returning (select count(*) from gone) as "deleted"`),
    );
    const batch = Number(row?.deleted ?? 0);
    deleted += batch;
    if (batch === 0) return deleted;
  }
}
