import { createHash } from "node:crypto";
import { DomainError } from "../../errors";

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

/**
 * A page position for listings ordered in memory or by relevance, where no keyset exists: how many
 * results came before, the match count when the listing began (one traversal reports one total),
 * and a fingerprint of the query, so a cursor cannot continue another listing.
 */
export interface OffsetCursor {
  offset: number;
  total: number;
}

/** A short digest of what identifies a listing (its tool, filters and order). */
export function listingFingerprint(parts: readonly unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 16);
}

export function encodeOffsetCursor(cursor: OffsetCursor, fingerprint: string): string {
  return encodeOpaqueCursor([cursor.offset, cursor.total, fingerprint]);
}

/** The cursor's position, or a 400 when it is not one this listing made. */
export function decodeOffsetCursor(raw: string, fingerprint: string): OffsetCursor {
  const [offset, total, filters] = decodeOpaqueCursor(raw, 3);
  const count = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
  if (!count(offset) || !count(total) || filters !== fingerprint) throw invalidCursorError();
  return { offset, total };
}

/** The next page's cursor when results remain after this page, else null (no trailing empty page). */
export function nextOffsetCursor(page: { offset: number; returned: number; total: number }, fingerprint: string): string | null {
  const next = page.offset + page.returned;
  return page.returned > 0 && next < page.total ? encodeOffsetCursor({ offset: next, total: page.total }, fingerprint) : null;
}
