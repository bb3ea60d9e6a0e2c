import { promisify } from "node:util";
import { gzip } from "node:zlib";

const gzipAsync = promisify(gzip);

/**
 * An answer already written as JSON, assembled from stored documents without parsing or
 * stringifying one: its parts are text, or UTF-8 bytes as PostgreSQL sent them (see rows-as-sent.ts).
 * The REST door writes `bytes()` as the body as it is (apps/server's partner-feed adapter); a door
 * that needs values (tRPC, in-process callers) reads `value()`, and JSON.stringify of it gives the
 * same JSON (toJSON), so no door can serve a different answer.
 */
export class JsonText<T> {
  private compressed: Promise<Buffer> | undefined;
  private compressedAt: number | undefined;

  constructor(readonly parts: readonly (string | Uint8Array)[]) {}

  /**
   * The bytes gzipped, in one call on zlib's thread pool: the event loop is free meanwhile, and a
   * megabyte is one job, not the sixty 16 KB chunks a compressing stream makes of it (16 ms against
   * 4 for a 500-location page). Computed once, however often asked.
   */
  gzipped(level: number): Promise<Buffer> {
    this.compressedAt = level;
    this.compressed ??= gzipAsync(this.bytes(), { level });
    return this.compressed;
  }

  /** Gzips this ahead when `previous` was served gzipped: a partner walking the feed asks for every page alike. */
  compressLike(previous: JsonText<unknown>): void {
    if (previous.compressedAt !== undefined) this.gzipped(previous.compressedAt).catch(() => undefined);
  }

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
