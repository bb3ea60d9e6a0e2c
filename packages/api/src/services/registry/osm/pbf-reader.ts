import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { OSMTransform, type OSMOptions } from "osm-pbf-parser-node";

/** The items osm-pbf-parser-node emits (its typings say only `object`). */
export interface OsmHeader {
  bbox?: { left: number; right: number; top: number; bottom: number } | null;
  required_features?: string[];
  osmosis_replication_timestamp?: number;
}
interface OsmInfo {
  /** Milliseconds since the epoch. */
  timestamp?: number;
}
export interface OsmNode {
  type: "node";
  id: number;
  lat: number;
  lon: number;
  tags?: Record<string, string>;
  info?: OsmInfo;
}
export interface OsmWay {
  type: "way";
  id: number;
  refs: number[];
  tags?: Record<string, string>;
  info?: OsmInfo;
}
export interface OsmRelation {
  type: "relation";
  id: number;
  members: { type: "node" | "way" | "relation"; ref: number; role: string }[];
  tags?: Record<string, string>;
  info?: OsmInfo;
}
export type OsmElement = OsmNode | OsmWay | OsmRelation;

export interface OsmVisitor {
  header?(header: OsmHeader): void;
  element(element: OsmElement): void;
}

/** A blob header is at most 64 KiB (PBF format); a first "length" above it means another format. */
const MAX_BLOB_HEADER_BYTES = 64 * 1024;

/**
 * Checks the file exists and starts like an OSM PBF (a short blob header naming "OSMHeader"),
 * so a text file or an empty file gets a clear error instead of the parser's "input format error".
 */
export async function assertOsmPbf(file: string): Promise<void> {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error(`OSM extract is not a file: ${file}`);
    size = info.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new Error(`OSM extract not found: ${file}`);
    if (error instanceof Error && error.message.startsWith("OSM extract")) throw error;
    throw new Error(`OSM extract cannot be read: ${file} (${(error as Error).message})`);
  }
  if (size === 0) throw new Error(`Not an OSM PBF file: ${file} (the file is empty)`);
  const handle = await open(file, "r");
  try {
    const start = Buffer.alloc(Math.min(size, 4 + MAX_BLOB_HEADER_BYTES));
    await handle.read(start, 0, start.length, 0);
    const headerLength = start.length >= 4 ? start.readUInt32BE(0) : Number.POSITIVE_INFINITY;
    if (headerLength === 0 || headerLength > MAX_BLOB_HEADER_BYTES || 4 + headerLength > start.length) {
      throw new Error(`Not an OSM PBF file: ${file} (it does not start with a PBF blob header)`);
    }
    if (!start.subarray(4, 4 + headerLength).includes("OSMHeader")) {
      throw new Error(`Not an OSM PBF file: ${file} (its first block is not an OSMHeader)`);
    }
  } finally {
    await handle.close();
  }
}

/**
 * One pass over the file, item by item, in file order (PBF: nodes, then ways, then relations).
 * A file that breaks off or is corrupt further on rejects with an error naming it.
 */
export async function readOsmPbf(file: string, options: OSMOptions, visitor: OsmVisitor): Promise<void> {
  const source = createReadStream(file);
  const parser = new OSMTransform(options);
  // pipe() does not forward the source's errors: without this a read error would hang the loop.
  source.on("error", (error) => parser.destroy(error));
  source.pipe(parser);
  // The visitor's own errors are not the file's fault: they pass through unwrapped.
  let visitorFailed = false;
  try {
    for await (const batch of parser as AsyncIterable<unknown[]>) {
      for (const item of batch) {
        const element = item as OsmElement | OsmHeader;
        try {
          if ("type" in element) visitor.element(element);
          else visitor.header?.(element);
        } catch (error) {
          visitorFailed = true;
          throw error;
        }
      }
    }
  } catch (error) {
    source.destroy();
    parser.destroy();
    if (visitorFailed) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Truncated or corrupt OSM PBF file: ${file} (${reason})`, { cause: error });
  }
}
