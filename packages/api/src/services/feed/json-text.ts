/**
 * An answer already written as JSON, assembled from stored documents without parsing or
 * stringifying one: its parts are text, or UTF-8 bytes as PostgreSQL sent them (see rows-as-sent.ts).
 * The REST door writes `bytes()` as the body as it is (apps/server's partner-feed adapter); a door
 * that needs values (tRPC, in-process callers) reads `value()`, and JSON.stringify of it gives the
 * same JSON (toJSON), so no door can serve a different answer.
 */
export class JsonText<T> {
  constructor(readonly parts: readonly (string | Uint8Array)[]) {}

  bytes(): Buffer {
    return Buffer.concat(this.parts.map((part) => (typeof part === "string" ? Buffer.from(part) : part)));
  }

  value(): T {
    return JSON.parse(this.bytes().toString()) as T;
  }

  toJSON(): T {
    return this.value();
  }
}
