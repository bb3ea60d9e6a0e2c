import { and, count, eq, gte, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { businesses, categories, executePrepared, feedDocuments, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { servableCondition } from "../entities/servable";
import { decodeFeedCursor, encodeFeedCursor, filtersFingerprint } from "./feed-cursor";
import type { FeedLocation } from "./changes";
import { servedDocument } from "./feed-documents";

export const FEED_MAX_LIMIT = 500;
export const FEED_DEFAULT_LIMIT = 100;

export interface PartnerFeedPageParams {
  limit: number;
  offset: number;
  /** Case-insensitive substring of a category slug or name. */
  category?: string;
  /** ISO date or date-time; only locations updated on or after it. */
  updatedSince?: string;
  cursor?: string;
  /** Origin of the URLs inside each location. */
  baseUrl: string;
}

/** A page's row: the stored document and the keyset position (updated_at in microseconds, id). */
interface FeedRow {
  id: string;
  document: string;
  updatedAtMicros: string;
}

/** LIKE treats % and _ as wildcards; a partner's "%" means a percent sign. */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * An ISO 8601 date or date-time. A time without an offset is read as UTC, whatever the server's
 * time zone; impossible dates (2026-02-30) are refused rather than rolled over.
 */
function parseUpdatedSince(raw: string): Date {
  const invalid = () =>
    new DomainError("INVALID_INPUT", `Invalid parameter updatedSince: "${raw}" is not an ISO 8601 date (e.g. 2026-01-31 or 2026-01-31T12:00:00Z)`);
  const match = ISO_DATE.exec(raw);
  if (!match) throw invalid();
  const [, year, month, day, offset] = match;
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (calendar.getUTCFullYear() !== Number(year) || calendar.getUTCMonth() !== Number(month) - 1 || calendar.getUTCDate() !== Number(day)) throw invalid();
  const hasTime = raw.includes("T");
  const date = new Date(hasTime && !offset ? `${raw}Z` : raw);
  if (Number.isNaN(date.getTime())) throw invalid();
  return date;
}

/** Verified, active, unexpired businesses: what partners may redistribute (spec 4.4). */
async function feedConditions(db: Db, params: PartnerFeedPageParams): Promise<SQL[] | null> {
  const conditions: SQL[] = [
    servableCondition(),
    // A literal for the same reason as servableCondition's: businesses_feed_idx is partial on it.
    eq(businesses.ownership, sql`'owner_verified'`),
  ];
  if (params.updatedSince !== undefined) conditions.push(gte(businesses.updatedAt, parseUpdatedSince(params.updatedSince)));
  if (params.category !== undefined) {
    const pattern = `%${escapeLike(params.category.trim())}%`;
    const matching = await db
      .select({ slug: categories.slug })
      .from(categories)
      .where(or(ilike(categories.slug, pattern), ilike(categories.name, pattern)));
    if (matching.length === 0) return null;
    conditions.push(
      inArray(
        businesses.categorySlug,
        matching.map((c) => c.slug),
      ),
    );
  }
  return conditions;
}

/**
 * One page of the partner feed in (updated_at, id) order. With a cursor the page is a keyset seek
 * on businesses_feed_idx, as fast at row 900,000 as at row 0; offset paging is kept for the spec
 * but costs more with depth. The total is counted once, when a traversal starts, and carried in
 * the cursor, so deep pages never pay for a count.
 */
export async function getPartnerFeedPage(db: Db, params: PartnerFeedPageParams) {
  const fingerprint = filtersFingerprint(params);
  const cursor = params.cursor ? decodeFeedCursor(params.cursor, fingerprint) : null;
  if (cursor && params.offset !== 0) throw new DomainError("INVALID_INPUT", "Invalid parameter offset: use either offset or cursor, not both");
  const conditions = await feedConditions(db, params);
  if (!conditions) return { total: 0, limit: params.limit, offset: params.offset, nextCursor: null, locations: [] };

  const total = cursor
    ? cursor.total
    : ((
        await db
          .select({ n: count() })
          .from(businesses)
          .where(and(...conditions))
      )[0]?.n ?? 0);
  const offset = cursor ? cursor.offset : params.offset;
  const seek = cursor
    ? sql`(${businesses.updatedAt}, ${businesses.id}) > (timestamptz 'epoch' + ${cursor.updatedAtMicros}::bigint * interval '1 microsecond', ${cursor.id}::uuid)`
    : undefined;
  const rows = await executePrepared<FeedRow>(
    db,
    sql`select ${businesses.id} as "id", ${feedDocuments.document} as "document",
      (extract(epoch from ${businesses.updatedAt}) * 1000000)::bigint::text as "updatedAtMicros"
    from ${businesses}
    join ${feedDocuments} on ${feedDocuments.businessId} = ${businesses.id}
    where ${and(...conditions, seek)}
    order by ${businesses.updatedAt}, ${businesses.id}
    limit ${params.limit + 1} offset ${cursor ? 0 : params.offset}`,
  );

  const page = rows.slice(0, params.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > params.limit && last
      ? encodeFeedCursor({ updatedAtMicros: last.updatedAtMicros, id: last.id, offset: offset + page.length, total, filters: fingerprint })
      : null;
  // The stored texts, written by the write path as the builder makes them (see feed-documents.ts).
  const locations = page.map((row) => JSON.parse(servedDocument(row.document, params.baseUrl)) as FeedLocation);
  return { total, limit: params.limit, offset, nextCursor, locations };
}
