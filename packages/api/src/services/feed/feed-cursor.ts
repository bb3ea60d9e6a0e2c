import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "@directory/db";
import { DomainError } from "../../errors";
import { isUuid } from "../shared/ids";
import { decodeOpaqueCursor, encodeOpaqueCursor, invalidCursorError, isCursorCount } from "../shared/opaque-cursor";
import { serviceSecret } from "../shared/service-secrets";

/**
 * The partner feed's opaque keyset cursor: the last row's (updated_at in microseconds, id), the
 * offset the next page starts at, the total counted when the traversal began, and a fingerprint of
 * the filters so a cursor cannot be replayed against a different query.
 *
 * A page echoes the cursor's offset and total (counting on every page would cost a deep walk a
 * count each), so the cursor is signed: an HMAC of its parts under a key kept in the database
 * (serviceSecret), which every instance shares and no client sees. A cursor whose signature does
 * not verify, one edited by its client or issued by another database, is refused.
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
/** The signature's length: 128 bits of HMAC-SHA256, as much as a forger must guess, in fewer URL characters than all 256. */
const SIGNATURE_BYTES = 16;

/** The key feed cursors are signed with, the same on every instance sharing the database. */
export function feedCursorKey(db: Db): Promise<Buffer> {
  return serviceSecret(db, "partner-feed-cursor");
}

export function filtersFingerprint(filters: { category?: string; updatedSince?: string }): string {
  return createHash("sha256")
    .update(JSON.stringify([filters.category?.toLowerCase() ?? null, filters.updatedSince ?? null]))
    .digest("base64url")
    .slice(0, 16);
}

function signature(parts: readonly unknown[], key: Buffer): string {
  return createHmac("sha256", key).update(JSON.stringify(parts)).digest().subarray(0, SIGNATURE_BYTES).toString("base64url");
}

/** Whether `given` is the parts' signature, compared in constant time (its text exactly: no other spelling of the bytes). */
function isSignatureOf(given: unknown, parts: readonly unknown[], key: Buffer): boolean {
  if (typeof given !== "string") return false;
  const expected = Buffer.from(signature(parts, key));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function encodeFeedCursor(cursor: FeedCursor, key: Buffer): string {
  const { updatedAtMicros, id, offset, total, filters } = cursor;
  const parts = [updatedAtMicros, id, offset, total, filters];
  return encodeOpaqueCursor([...parts, signature(parts, key)]);
}

/** The cursor this server issued for a query with these filters; a 400 for anything else. */
export function decodeFeedCursor(raw: string, expectedFilters: string, key: Buffer): FeedCursor {
  const invalid = invalidCursorError;
  const parts = decodeOpaqueCursor(raw, 6);
  const [updatedAtMicros, id, offset, total, filters, signed] = parts;
  if (!isSignatureOf(signed, parts.slice(0, 5), key)) throw invalid();
  if (typeof updatedAtMicros !== "string" || !/^\d{1,18}$/.test(updatedAtMicros) || BigInt(updatedAtMicros) > MAX_TIMESTAMP_MICROS) throw invalid();
  // Cursors carry ids exactly as the database prints them: lower case.
  if (typeof id !== "string" || !isUuid(id) || id !== id.toLowerCase()) throw invalid();
  // Signed, so these are numbers this server wrote; checked still, as a page writes them back.
  if (!isCursorCount(offset) || !isCursorCount(total)) throw invalid();
  if (filters !== expectedFilters) {
    throw new DomainError("INVALID_INPUT", "Invalid parameter cursor: it belongs to a query with other filters (category, updatedSince)");
  }
  return { updatedAtMicros, id, offset, total, filters };
}
