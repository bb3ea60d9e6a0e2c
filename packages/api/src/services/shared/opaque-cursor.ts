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
