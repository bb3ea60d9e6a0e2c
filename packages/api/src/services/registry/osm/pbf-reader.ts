import { open, stat, type FileHandle } from "node:fs/promises";
import { blobContent, decodeBlobHeader, decodeHeaderBlock, MAX_BLOB_HEADER_BYTES, type OsmHeader } from "./pbf-blocks";
import { decodePrimitiveBlock, type DecodeOptions, type OsmElement } from "./pbf-primitives";

export type { OsmHeader } from "./pbf-blocks";
export type { OsmElement, OsmNode, OsmRelation, OsmWay } from "./pbf-primitives";

/** A file that is not the OSM PBF it claims to be, or asks for what this reader does not do: the file and the block say where. */
export class OsmFileError extends Error {
  constructor(
    readonly file: string,
    /** Where the block starts (its 4-byte length), from the start of the file. */
    readonly offset: number,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`OSM PBF file ${file}, block at byte ${offset}: ${reason}`, options);
    this.name = "OsmFileError";
  }
}

/** Each item gets the offset of the block it came from, so a visitor's own complaint can say where. */
export interface OsmVisitor {
  header?(header: OsmHeader, offset: number): void;
  element(element: OsmElement, offset: number): void;
  /** After each data block's elements, awaited before the next block is read: a slow consumer holds the reading back. */
  blockDone?(offset: number): Promise<void> | void;
}

/**
 * Checks the file exists and starts like an OSM PBF (a short blob header naming "OSMHeader"),
 * so a text file or an empty file is called what it is rather than a corrupt extract.
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
 * One pass over the file, block by block, in file order (PBF: nodes, then ways, then relations).
 * Nothing in the file is trusted: a block header over 64 KiB, a blob over 32 MiB (compressed or
 * inflated), a corrupt blob or block, a file that breaks off, or a required feature this reader
 * lacks rejects with an OsmFileError naming the file and the block's offset. The visitor's own
 * errors pass through as they are.
 */
export async function readOsmPbf(file: string, options: DecodeOptions, visitor: OsmVisitor): Promise<void> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    let offset = 0;
    while (offset < size) {
      const block = offset;
      const fail = (reason: string, cause?: unknown) => new OsmFileError(file, block, reason, cause === undefined ? undefined : { cause });
      const decode = <T>(work: () => T): T => {
        try {
          return work();
        } catch (error) {
          throw fail(error instanceof Error ? error.message : String(error), error);
        }
      };
      const read = async (length: number, what: string) => {
        const bytes = await readAt(handle, offset, Math.min(length, size - offset));
        if (bytes.length < length) throw fail(`the file ends ${bytes.length} bytes into ${what} of ${length} bytes (truncated)`);
        offset += length;
        return bytes;
      };
      const headerLength = (await read(4, "the block's length")).readUInt32BE(0);
      if (headerLength > MAX_BLOB_HEADER_BYTES)
        throw fail(`the block header declares ${headerLength} bytes, more than the ${MAX_BLOB_HEADER_BYTES} a PBF block header may have`);
      const headerBytes = await read(headerLength, "the block header");
      const { type, datasize } = decode(() => decodeBlobHeader(headerBytes));
      if (block === 0 && type !== "OSMHeader") throw fail(`the first block is "${type}", not an OSMHeader`);
      const blob = await read(datasize, "the blob");
      if (type === "OSMHeader") {
        const header = decode(() => decodeHeaderBlock(blobContent(blob)));
        visitor.header?.(header, block);
      } else if (type === "OSMData") {
        const elements = decode(() => decodePrimitiveBlock(blobContent(blob), options));
        for (const element of elements) visitor.element(element, block);
        await visitor.blockDone?.(block);
      }
      // Another type is not ours to read: the format says to skip it.
    }
  } finally {
    await handle.close();
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(bytes, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return bytes.subarray(0, filled);
}
