/**
 * An answer already written as JSON text, assembled from stored documents without parsing or
 * stringifying one. The REST door writes `text` as the body as it is (apps/server's partner-feed
 * adapter); a door that needs values (tRPC, in-process callers) reads `value()`, and JSON.stringify
 * of it gives the same JSON (toJSON), so no door can serve a different answer.
 */
export class JsonText<T> {
  constructor(readonly text: string) {}

  value(): T {
    return JSON.parse(this.text) as T;
  }

  toJSON(): T {
    return this.value();
  }
}
