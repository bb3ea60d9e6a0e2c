import { sql } from "drizzle-orm";
import { executePrepared, rowsOf, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import type { toJsonLd } from "../entities/structured-data";
import { baseReplacement, recordFeedChanges, type RemoveReason } from "./feed-documents";
import { JsonText } from "./json-text";

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

interface ChangeRow {
  seq: string | number;
  action: "upsert" | "remove";
  id: string;
  reason: RemoveReason | null;
  mergedInto: string | null;
  document: string | null;
  changedAt: number;
  stale: boolean;
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
}

/**
 * The changes after a position, in position order (commit order: see feed_changes). Every entry
 * is one change, never merged with a later one; an upsert carries the location as it was then.
 * The page is its JSON text: each entry written around its stored document (given its base URL by
 * PostgreSQL), keys in the order the schema lists them; no document is parsed or stringified.
 */
export async function feedChangesText(db: Db, params: FeedChangesParams): Promise<JsonText<FeedChangesPage>> {
  const { after, limit } = params;
  const position = await feedPosition(db);
  if (after > position.last) {
    throw new DomainError(
      "INVALID_INPUT",
      `Invalid parameter after: ${after} is not a position this feed has given (the latest is ${position.last}); pass nextAfter or an export's "after" unchanged`,
    );
  }
  if (after < position.prunedThrough) throw positionExpired(after);
  const { placeholder, replacement } = baseReplacement(params.baseUrl);
  const rows = await executePrepared<ChangeRow>(
    db,
    sql`select seq, action, business_id as "id", reason, merged_into as "mergedInto", replace(document, ${placeholder}, ${replacement}) as "document",
      floor(extract(epoch from changed_at) * 1000)::float8 as "changedAt",
      changed_at < now() - ${`${CHANGES_RETENTION_DAYS} days`}::interval as "stale"
    from feed_changes where seq > ${after} order by seq limit ${limit + 1}`,
  );
  // The first change after a position is at least as old as the position: if it is past retention, so is the position.
  if (rows[0]?.stale && after > 0) throw positionExpired(after);
  const page = rows.slice(0, limit);
  // Ids, actions and reasons are uuids and fixed words (no character JSON escapes); the rest is stringified.
  const entries = page.map(
    (row) =>
      `{"seq":${Number(row.seq)},"action":"${row.action}","id":"${row.id}","changedAt":"${new Date(row.changedAt).toISOString()}"` +
      (row.reason ? `,"reason":${JSON.stringify(row.reason)}` : "") +
      (row.mergedInto ? `,"mergedInto":"${row.mergedInto}"` : "") +
      (row.document ? `,"location":${row.document}` : "") +
      "}",
  );
  const nextAfter = page.length > 0 ? Number(page.at(-1)!.seq) : after;
  return new JsonText(`{"changes":[${entries.join(",")}],"nextAfter":${nextAfter},"hasMore":${rows.length > limit}}`);
}

/** The changes as values, for the doors that need them (tRPC, in-process callers). */
export async function getFeedChanges(db: Db, params: FeedChangesParams): Promise<FeedChangesPage> {
  return (await feedChangesText(db, params)).value();
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

/** Deletes changes past retention and remembers the last deleted position (older ones answer 410). */
export async function pruneFeedChanges(db: Db): Promise<number> {
  const result = await db.execute(sql`
    with cutoff as (
      select max(seq) as seq from feed_changes where seq is not null and changed_at < now() - ${`${PRUNE_AFTER_DAYS} days`}::interval
    ), gone as (
      delete from feed_changes where seq <= (select seq from cutoff) returning seq
    )
    update feed_position set pruned_through = greatest(pruned_through, (select seq from cutoff))
    where id = 1 and (select seq from cutoff) is not null
    returning (select count(*) from gone) as "deleted"`);
  const [row] = rowsOf<{ deleted: string | number }>(result);
  return Number(row?.deleted ?? 0);
}
