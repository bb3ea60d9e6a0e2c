import { and, count, gte, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { businesses, categories, feedDocuments, rowsAsSent, sentText, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { decodeFeedCursor, encodeFeedCursor, feedCursorKey, filtersFingerprint } from "./feed-cursor";
import type { FeedLocation } from "./changes";
import { baseBytes, feedVisibleCondition, servedPieces, type BaseBytes } from "./feed-documents";
import { JsonText } from "../shared/json-text";
import { asciiJson } from "./ascii-json";
import { attributionsFor, type DataAttribution } from "../registry/attribution";
import { registryRecordIdOf } from "../registry/attribution-reads";

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

/** Verified, active, unexpired businesses (feedVisibleCondition), with the request's filters. */
async function feedConditions(db: Db, params: PartnerFeedPageParams): Promise<SQL[] | null> {
  const conditions: SQL[] = [feedVisibleCondition()];
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

export interface PartnerFeedPage {
  total: number;
  limit: number;
  offset: number;
  nextCursor: string | null;
  locations: FeedLocation[];
  attributions: DataAttribution[];
}

/**
 * One page of the partner feed in (updated_at, id) order. With a cursor the page is a keyset seek
 * on businesses_feed_idx, as fast at row 900,000 as at row 0; offset paging is kept for the spec
 * but costs more with depth. The total is counted once, when a traversal starts, and carried in
 * the cursor, so deep pages never pay for a count; the cursor is signed (feed-cursor.ts), so the
 * total and offset a page writes back are the ones this server put there.
 *
 * The page is its JSON text: the stored documents (given their base URL: servedPieces) joined
 * into the body, none parsed or stringified (see feed-documents.ts for why they are ready).
 * A page with a next one carries its query (nextQuery), which the REST door names in a Link
 * header: a partner asks for the next page while it parses this one. `db` may be a read replica.
 */
export async function partnerFeedPageText(db: Db, params: PartnerFeedPageParams, primary: Db = db): Promise<JsonText<PartnerFeedPage>> {
  const fingerprint = filtersFingerprint(params);
  // From the primary: the first page ever served makes the key, which a read replica cannot.
  const cursorKey = await feedCursorKey(primary);
  const cursor = params.cursor ? decodeFeedCursor(params.cursor, fingerprint, cursorKey) : null;
  if (cursor && params.offset !== 0) throw new DomainError("INVALID_INPUT", "Invalid parameter offset: use either offset or cursor, not both");
  const conditions = await feedConditions(db, params);
  if (!conditions) return pageText({ total: 0, limit: params.limit, offset: params.offset, nextCursor: null, attributions: [] }, baseBytes(params.baseUrl), []);

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
  // The page's rows are chosen first, by the index alone, then joined to their documents: as one
  // join, PostgreSQL planned a parallel scan for the LIMIT, 17 ms a page where this takes 4.
  const rows = await rowsAsSent(
    db,
    sql`select p.id::text, ${feedDocuments.document},
      (extract(epoch from p.updated_at) * 1000000)::bigint::text, ${registryRecordIdOf(sql`p.id`)}
    from (
      select ${businesses.id} as id, ${businesses.updatedAt} as updated_at from ${businesses}
      where ${and(...conditions, seek)}
      order by ${businesses.updatedAt}, ${businesses.id}
      limit ${params.limit + 1} offset ${cursor ? 0 : params.offset}
    ) p
    join ${feedDocuments} on ${feedDocuments.businessId} = p.id
    order by p.updated_at, p.id`,
  );

  const page = rows.slice(0, params.limit);
  const lastOnPage = page.at(-1);
  const nextCursor =
    rows.length > params.limit && lastOnPage
      ? encodeFeedCursor(
          {
            updatedAtMicros: sentText(lastOnPage[2] ?? null) ?? "",
            id: sentText(lastOnPage[0] ?? null) ?? "",
            offset: offset + page.length,
            total,
            filters: fingerprint,
          },
          cursorKey,
        )
      : null;
  // Read in the page's own statement (one per page): the records its locations came from.
  const attributions = attributionsFor(page.map((row) => ({ recordId: sentText(row[3] ?? null) })));
  return pageText(
    { total, limit: params.limit, offset, nextCursor, attributions },
    baseBytes(params.baseUrl),
    page.map((row) => row[1] ?? ""),
    nextCursor === null ? null : nextPageQuery(params, nextCursor),
  );
}

/** The query of the page after this one: the next cursor with the same limit and filters (the cursor is bound to them). */
function nextPageQuery(params: PartnerFeedPageParams, cursor: string): Record<string, string> {
  return {
    limit: String(params.limit),
    ...(params.category !== undefined ? { category: params.category } : {}),
    ...(params.updatedSince !== undefined ? { updatedSince: params.updatedSince } : {}),
    cursor,
  };
}

/** The page's JSON, keys in the order its schema lists them (as a stringified page had them). */
function pageText(
  head: Omit<PartnerFeedPage, "locations">,
  base: BaseBytes,
  documents: (string | Uint8Array)[],
  nextQuery: Record<string, string> | null = null,
): JsonText<PartnerFeedPage> {
  const parts: (string | Uint8Array)[] = [
    `{"total":${head.total},"limit":${head.limit},"offset":${head.offset},"nextCursor":${JSON.stringify(head.nextCursor)},"locations":[`,
  ];
  for (const [index, document] of documents.entries()) {
    if (index > 0) parts.push(",");
    servedPieces(document, base, parts);
  }
  parts.push(`],"attributions":${asciiJson(head.attributions)}}`);
  return new JsonText(parts, nextQuery);
}
