/**
 * An answer already written as JSON, assembled from stored documents without parsing or
 * stringifying one: its parts are text, or UTF-8 bytes as PostgreSQL sent them (rowsAsSent in @directory/db).
 * The REST door writes `bytes()` as the body as it is (apps/server's partner feed door); a door
 * that needs values (tRPC, in-process callers) reads `value()`, and JSON.stringify of it gives the
 * same JSON (toJSON), so no door can serve a different answer.
 */
export class JsonText<T> {
  /**
   * The body in one buffer, assembled at once: held as parts (thousands of views of the rows
   * PostgreSQL sent) while the door gzips or writes it, they lived on across young-generation
   * collections and were promoted; assembled, they die young.
   */
  private readonly body: Buffer;

  /**
   * `nextQuery`: for a page that has a next one, the query that asks for it (the REST door sends it
   * as a Link header, rel="next", so a partner can ask for the next page while it parses this one).
   */
  constructor(
    parts: readonly (string | Uint8Array)[],
    readonly nextQuery: Readonly<Record<string, string>> | null = null,
  ) {
    this.body = assemble(parts);
  }

  /** The body: the same buffer at every call, for writing out, never into. */
  bytes(): Buffer {
    return this.body;
  }

  value(): T {
    return JSON.parse(this.bytes().toString()) as T;
  }

  toJSON(): T {
    return this.value();
  }
}

/**
 * Parts in one buffer, written in place: a page has thousands of short text parts, and a buffer
 * made of each, then concatenated, was a tenth of a page's CPU.
 */
function assemble(parts: readonly (string | Uint8Array)[]): Buffer {
  let length = 0;
  for (const part of parts) length += typeof part === "string" ? Buffer.byteLength(part) : part.byteLength;
  const body = Buffer.allocUnsafe(length);
  let offset = 0;
  for (const part of parts) {
    if (typeof part === "string") offset += body.write(part, offset);
    else {
      body.set(part, offset);
      offset += part.byteLength;
    }
  }
  return body;
}
