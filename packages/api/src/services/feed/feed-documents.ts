import { and, eq, sql, type SQL } from "drizzle-orm";
import { businesses, categories, cities, rowsOf, type Db } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { registryRecordIdOf } from "../registry/attribution-reads";
import { toJsonLd, type JsonLdSource } from "../entities/structured-data";
import { cleanOwnerJson } from "../shared/owner-text";
import { uuidList } from "../shared/sql-lists";
import { asciiJson } from "./ascii-json";

/**
 * Only the columns the JSON-LD is built from, named as JsonLdSource names them, read as the
 * driver's raw rows: drizzle's per-column mapping of 500 rows cost a page ~4 ms. updatedAt is
 * read as epoch milliseconds, a number on both drivers.
 */
export const jsonLdColumns = sql.join(
  [
    sql`${categories.schemaOrgType} as "schemaOrgType"`,
    sql`${businesses.id} as "id"`,
    sql`${businesses.slug} as "slug"`,
    sql`${businesses.name} as "name"`,
    sql`${businesses.description} as "description"`,
    sql`${businesses.website} as "website"`,
    sql`${businesses.phone} as "phone"`,
    sql`${businesses.email} as "email"`,
    sql`${businesses.address} as "address"`,
    sql`${cities.name} as "cityName"`,
    sql`${businesses.state} as "state"`,
    sql`${businesses.postalCode} as "postalCode"`,
    sql`${businesses.country} as "country"`,
    sql`${businesses.lat} as "lat"`,
    sql`${businesses.lng} as "lng"`,
    sql`${businesses.openingHours} as "openingHours"`,
    sql`${businesses.rating} as "rating"`,
    sql`${businesses.reviewCount} as "reviewCount"`,
    sql`${businesses.services} as "services"`,
    sql`floor(extract(epoch from ${businesses.updatedAt}) * 1000)::float8 as "updatedAt"`,
    sql`${businesses.temporaryClosure} as "temporaryClosure"`,
    sql`${businesses.factsStaleAfter} as "factsStaleAfter"`,
    sql`floor(extract(epoch from ${businesses.lastVerifiedAt}) * 1000)::float8 as "lastVerifiedAt"`,
    sql`${registryRecordIdOf(sql`${businesses.id}`)} as "registryRecordId"`,
  ],
  sql`, `,
);

/**
 * The public base URL inside a stored document. U+0001 never survives owner-text cleaning, and
 * JSON writes it as the escape \u0001, so `"\u0001` (a string opening on it) can only be one of
 * the URLs the builder made: owner text that spells a backslash writes it doubled.
 */
const BASE_PLACEHOLDER = "\u0001";
const STORED_BASE = `"\\u0001`;

/**
 * The stored text of a business's location: exactly the builder's JSON, base URL left open, in
 * ASCII (asciiJson: a partner's parse of a page is most of a catch-up's cost). The output contract
 * applies here, once, when it is written: every string cleaned as owner text (a no-op for values
 * the claim write path already cleaned), so reads serve it as it is. Documents stored before they
 * were written in ASCII stay as they are until their business next changes: the same JSON values.
 */
export function storedDocument(row: JsonLdSource): string {
  // The row is cleaned, not the document: cleaning would strip the placeholder too.
  return asciiJson(toJsonLd(cleanOwnerJson(row) as JsonLdSource, BASE_PLACEHOLDER));
}

/** The placeholder and what it becomes under a base URL, as text (baseBytes gives them as bytes). */
export function baseReplacement(baseUrl: string): { placeholder: string; replacement: string } {
  return { placeholder: STORED_BASE, replacement: `"${asciiJson(baseUrl).slice(1, -1)}` };
}

/**
 * A base URL and what it replaces, as bytes for documents read as the bytes PostgreSQL sent: the
 * placeholder's escape (the placeholder without its opening quote, as servedPieces seeks it) and
 * the replacement of the whole placeholder.
 */
export interface BaseBytes {
  baseUrl: string;
  placeholderEscape: Buffer;
  replacement: Buffer;
}

export function baseBytes(baseUrl: string): BaseBytes {
  const { placeholder, replacement } = baseReplacement(baseUrl);
  return { baseUrl, placeholderEscape: Buffer.from(placeholder.slice(1)), replacement: Buffer.from(replacement) };
}

/**
 * A stored document under a base URL, appended to `into` as pieces: bytes (as PostgreSQL sent
 * them) are cut around each placeholder, not copied; text (PGlite's) is replaced. In node rather
 * than in SQL: replace() over 500 documents was a third of PostgreSQL's time for a feed page.
 */
export function servedPieces(document: string | Uint8Array, base: BaseBytes, into: (string | Uint8Array)[]): void {
  if (typeof document === "string") {
    into.push(servedDocument(document, base.baseUrl));
    return;
  }
  const bytes = Buffer.isBuffer(document) ? document : Buffer.from(document.buffer, document.byteOffset, document.byteLength);
  // Sought from its escape on, then checked for its opening quote: a search that starts on `"`
  // stops at every quote of the JSON, one that starts on `\` runs at memchr's speed (backslashes
  // are rare), and a megabyte page spent a tenth of its CPU here.
  const escape = base.placeholderEscape;
  let from = 0;
  for (let hit = bytes.indexOf(escape, 1); hit >= 0; hit = bytes.indexOf(escape, hit + escape.length)) {
    if (bytes[hit - 1] !== QUOTE) continue;
    into.push(bytes.subarray(from, hit - 1), base.replacement);
    from = hit + escape.length;
  }
  into.push(bytes.subarray(from));
}

const QUOTE = 0x22;

/** A stored document ready to serve under a base URL: one string replacement, no parse. */
export function servedDocument(stored: string, baseUrl: string): string {
  return stored.replaceAll(STORED_BASE, baseReplacement(baseUrl).replacement);
}

/**
 * Verified, active, unexpired: what partners may redistribute (spec 4.4), the one test of it for
 * the feed's pages, its documents and its changes. Literals, as servableCondition's: the feed's
 * index (businesses_feed_idx) is partial on them.
 */
export function feedVisibleCondition(): SQL {
  return and(servableCondition(), eq(businesses.ownership, sql`'owner_verified'`))!;
}

/** Why a business left the feed, in the change feed's words. */
export type RemoveReason = "decommissioned" | "subscription_expired" | "no_longer_verified" | "removed_from_source" | "merged" | "closed";

interface FeedStateRow extends JsonLdSource {
  visible: boolean;
  published: boolean;
  inactiveReason: string | null;
  inactive: boolean;
  expired: boolean;
}

export interface RecordFeedChangesOptions {
  /** The reason a remove gives instead of the one read from the row (e.g. merged). */
  reason?: RemoveReason;
  /** With reason merged: the surviving business. */
  mergedInto?: string;
}

function removeReason(row: FeedStateRow): RemoveReason {
  if (row.inactive) return (row.inactiveReason as RemoveReason | null) ?? "decommissioned";
  if (row.expired) return "subscription_expired";
  return "no_longer_verified";
}

/**
 * THE way a change reaches partners. Call it in the transaction that changed the businesses, after
 * the change: for each business it reads the row as it now is and
 * - feed-visible (active, unexpired, owner-verified): stores its document and records an upsert
 *   carrying it (every call is an entry: no compaction);
 * - not visible but last published: deletes its document and records a remove, with the reason
 *   read from the row (inactive reason, expiry, ownership) unless `options.reason` says otherwise;
 * - neither: nothing (partners never saw it).
 * recordEntityUpdates calls it for every entity.updated, so the webhooks and the change feed agree.
 * Positions are given at commit (see feed_changes). Returns the number of entries recorded.
 */
export async function recordFeedChanges(tx: Db, businessIds: readonly string[], at: Date, options: RecordFeedChangesOptions = {}): Promise<number> {
  if (businessIds.length === 0) return 0;
  const rows = rowsOf<FeedStateRow>(
    await tx.execute(sql`
      select ${jsonLdColumns},
        (${feedVisibleCondition()}) as "visible",
        (d.business_id is not null) as "published",
        ${businesses.status} <> 'active' as "inactive",
        ${businesses.inactiveReason} as "inactiveReason",
        coalesce(${businesses.subscriptionExpiresAt} <= now(), false) as "expired"
      from ${businesses}
      join ${categories} on ${categories.slug} = ${businesses.categorySlug}
      join ${cities} on ${cities.id} = ${businesses.cityId}
      left join feed_documents d on d.business_id = ${businesses.id}
      where ${businesses.id} = any(${uuidList([...new Set(businessIds)])})
      order by ${businesses.id}`),
  );
  const upserts: { business_id: string; document: string }[] = [];
  const removes: { business_id: string; reason: RemoveReason; merged_into: string | null }[] = [];
  for (const row of rows) {
    if (row.visible && !options.reason) upserts.push({ business_id: row.id, document: storedDocument(row) });
    else if (row.published) {
      const reason = options.reason ?? removeReason(row);
      removes.push({ business_id: row.id, reason, merged_into: reason === "merged" ? (options.mergedInto ?? null) : null });
    }
  }
  const changedAt = at.toISOString();
  // One statement each (the documents and their entries from one parameter, read once as json,
  // not jsonb): an owner's edit pays for one round trip to the feed, not two.
  if (upserts.length > 0) {
    await tx.execute(sql`
      with u as (select business_id, document from json_to_recordset(${JSON.stringify(upserts)}::json) as u(business_id uuid, document text)),
      stored as (
        insert into feed_documents (business_id, document, changed_at) select business_id, document, ${changedAt}::timestamptz from u
        on conflict (business_id) do update set document = excluded.document, changed_at = excluded.changed_at
      )
      insert into feed_changes (business_id, action, document, changed_at) select business_id, 'upsert', document, ${changedAt}::timestamptz from u`);
  }
  if (removes.length > 0) {
    await tx.execute(sql`
      with r as (select business_id, reason, merged_into from json_to_recordset(${JSON.stringify(removes)}::json) as r(business_id uuid, reason text, merged_into uuid)),
      gone as (delete from feed_documents where business_id in (select business_id from r))
      insert into feed_changes (business_id, action, reason, merged_into, changed_at) select business_id, 'remove', reason, merged_into, ${changedAt}::timestamptz from r`);
  }
  return upserts.length + removes.length;
}

/**
 * Stores the documents of feed-visible businesses that have none: after the demo seed (which
 * writes rows directly) and after the migration that added the table, for the rows already there.
 * Idempotent; records no changes (an export taken afterwards starts from these documents).
 *
 * Written in the feed's own order, (updated_at, id), so the table lies as a partner walks it: a
 * page of 500 documents then sits on about 150 of the table's pages, not on 500 scattered ones
 * (in id order, a page read 495 pages at 1M, mostly from the disk cache, not shared buffers).
 * A document rewritten later goes to the table's end, which is where its new updated_at puts it
 * in the feed too.
 */
export async function backfillFeedDocuments(db: Db, batchSize = 2_000): Promise<number> {
  // Every server start asks: one anti-join in PostgreSQL (under 2 s at 1M) instead of every
  // feed-visible business's id read into node batch by batch to find none missing (5 s, and 70 MB
  // of garbage still held when the server began to serve).
  const [missing] = rowsOf<{ any: boolean }>(
    await db.execute(sql`select exists (
      select 1 from ${businesses} where ${feedVisibleCondition()} and not exists (select 1 from feed_documents d where d.business_id = ${businesses.id})
    ) as "any"`),
  );
  if (!missing?.any) return 0;
  let written = 0;
  // The last business of the batch before, as PostgreSQL prints its updated_at (to the microsecond).
  let after = { updatedAt: "-infinity", id: "00000000-0000-0000-0000-000000000000" };
  for (;;) {
    // The batch's ids first, alone, in the feed index's order (businesses_feed_idx): with joins or
    // the anti-join in the same query, a planner short of statistics sorts every remaining row for
    // each batch.
    const batch = rowsOf<{ id: string; updatedAt: string }>(
      await db.execute(sql`
        select ${businesses.id} as "id", ${businesses.updatedAt}::text as "updatedAt" from ${businesses}
        where (${businesses.updatedAt}, ${businesses.id}) > (${after.updatedAt}::timestamptz, ${after.id}::uuid) and ${feedVisibleCondition()}
        order by ${businesses.updatedAt}, ${businesses.id}
        limit ${batchSize}`),
    );
    const last = batch.at(-1);
    if (!last) return written;
    after = last;
    const rows = rowsOf<JsonLdSource>(
      await db.execute(sql`
        select ${jsonLdColumns}
        from ${businesses}
        join ${categories} on ${categories.slug} = ${businesses.categorySlug}
        join ${cities} on ${cities.id} = ${businesses.cityId}
        where ${businesses.id} = any(${uuidList(batch.map((row) => row.id))})
          and not exists (select 1 from feed_documents d where d.business_id = ${businesses.id})
        order by ${businesses.updatedAt}, ${businesses.id}`),
    );
    if (rows.length === 0) continue;
    const json = JSON.stringify(rows.map((row) => ({ business_id: row.id, document: storedDocument(row) })));
    await db.execute(sql`
      insert into feed_documents (business_id, document, changed_at)
      select business_id, document, now() from jsonb_to_recordset(${json}::jsonb) as u(business_id uuid, document text)
      on conflict (business_id) do nothing`);
    written += rows.length;
  }
}
