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
 * Offset cursors page listings ordered in memory or by relevance, where no keyset exists:
 * [offset, count, fingerprint], how many results came before, the match count when the cursor was
 * issued and a fingerprint of the query, so a cursor cannot continue another listing. The count is
 * kept so cursors already issued still decode, and never read back: every page counts its own
 * matches, as a count a caller can edit must not be echoed.
 *
 * An OffsetListing is what such a cursor continues: the listing's fingerprint, and how deep it may
 * go (the most results the listing ever holds). The depth keeps a forged offset from reaching SQL (a LIMIT or
 * OFFSET of 2^63 is a database error) or making a listing read past its cap.
 */
export interface OffsetListing {
  fingerprint: string;
  maxOffset: number;
}

/** A short digest of what identifies a listing (its tool, filters and order). */
export function listingFingerprint(parts: readonly unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 16);
}

/** A count a cursor may carry: a safe integer from 0 (JSON numbers past 2^53 are not exact). */
export function isCursorCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** The cursor's offset, or a 400 when it is not one this listing made (or lies deeper than it goes). */
export function decodeOffsetCursor(raw: string, listing: OffsetListing): number {
  const [offset, total, filters] = decodeOpaqueCursor(raw, 3);
  if (!isCursorCount(offset) || offset > listing.maxOffset || !isCursorCount(total) || filters !== listing.fingerprint) throw invalidCursorError();
  return offset;
}

/** The next page's cursor when results remain after this page (within the listing's depth), else null (no trailing empty page). */
export function nextOffsetCursor(page: { offset: number; returned: number; total: number }, listing: OffsetListing): string | null {
  const next = page.offset + page.returned;
  return page.returned > 0 && next < page.total && next <= listing.maxOffset ? encodeOpaqueCursor([next, page.total, listing.fingerprint]) : null;
}
