import { createHash } from "node:crypto";
import { DomainError } from "../../errors";
import { isUuid } from "../shared/ids";

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

/**
 * Every keyset cursor of the API is opaque the same way: a JSON array of the last row's sort keys
 * (and whatever the listing needs), base64url. A cursor that does not decode is one 400.
 */
export function encodeOpaqueCursor(parts: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

export function invalidCursorError(): DomainError {
  return new DomainError("INVALID_INPUT", "Invalid parameter cursor: pass back a nextCursor value unchanged");
}

/** The parts of a cursor made by encodeOpaqueCursor with `length` parts; a 400 for anything else. */
export function decodeOpaqueCursor(raw: string, length: number): unknown[] {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw invalidCursorError();
  }
  if (!Array.isArray(parts) || parts.length !== length) throw invalidCursorError();
  return parts as unknown[];
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
