import { createHash } from "node:crypto";
import { DomainError } from "../../errors";
import { isUuid } from "../shared/ids";
import { decodeOpaqueCursor, encodeOpaqueCursor, invalidCursorError } from "../shared/opaque-cursor";

/**
 * The partner feed's opaque keyset cursor: the last row's (updated_at in microseconds, id), the
 * offset the next page starts at, the total counted when the traversal began, and a fingerprint of
 * the filters so a cursor cannot be replayed against a different query.
 */
export interface FeedCursor {
  updatedAtMicros: string;
  id: string;
  offset: number;
  total: number;
  filters: string;
}

/** 9999-12-31T23:59:59Z in microseconds: anything later cannot come from a real row. */
const MAX_TIMESTAMP_MICROS = 253_402_300_799_000_000n;

export function filtersFingerprint(filters: { category?: string; updatedSince?: string }): string {
  return createHash("sha256")
    .update(JSON.stringify([filters.category?.toLowerCase() ?? null, filters.updatedSince ?? null]))
    .digest("base64url")
    .slice(0, 16);
}

export function encodeFeedCursor(cursor: FeedCursor): string {
  const { updatedAtMicros, id, offset, total, filters } = cursor;
  return encodeOpaqueCursor([updatedAtMicros, id, offset, total, filters]);
}

export function decodeFeedCursor(raw: string, expectedFilters: string): FeedCursor {
  const invalid = invalidCursorError;
  const [updatedAtMicros, id, offset, total, filters] = decodeOpaqueCursor(raw, 5);
  if (typeof updatedAtMicros !== "string" || !/^\d{1,18}$/.test(updatedAtMicros) || BigInt(updatedAtMicros) > MAX_TIMESTAMP_MICROS) throw invalid();
  // Cursors carry ids exactly as the database prints them: lower case.
  if (typeof id !== "string" || !isUuid(id) || id !== id.toLowerCase()) throw invalid();
  if (!Number.isInteger(offset) || !Number.isInteger(total) || (offset as number) < 0 || (total as number) < 0) throw invalid();
  if (filters !== expectedFilters) {
    throw new DomainError("INVALID_INPUT", "Invalid parameter cursor: it belongs to a query with other filters (category, updatedSince)");
  }
  return { updatedAtMicros, id, offset: offset as number, total: total as number, filters };
}
