import { inflateSync } from "node:zlib";
import { expectWire, int64, PbfFormatError, ProtobufReader, zigzag } from "./protobuf-reader";

/* The framing of an OSM PBF file (fileformat.proto) and its header block (osmformat.proto's HeaderBlock). */

/** A blob header is at most 64 KiB, as the PBF format says. */
export const MAX_BLOB_HEADER_BYTES = 64 * 1024;
/** A blob is at most 32 MiB, compressed or inflated, as the PBF format says: a larger one is refused unread. */
export const MAX_BLOB_BYTES = 32 * 1024 * 1024;
/** What this reader understands; a file requiring anything else (history, changes...) is refused. */
export const SUPPORTED_FEATURES: readonly string[] = ["OsmSchema-V0.6", "DenseNodes"];

const UNSUPPORTED_COMPRESSIONS: Record<number, string> = { 4: "LZMA", 5: "bzip2", 6: "LZ4", 7: "Zstandard" };

export interface BlobHeader {
  type: string;
  /** The size of the blob that follows, in bytes. */
  datasize: number;
}

/** The items osm-pbf-parser-node emitted, kept as they were: the scanner reads these. */
export interface OsmHeader {
  /** Nanodegrees. */
  bbox?: { left: number; right: number; top: number; bottom: number } | null;
  required_features?: string[];
  /** Seconds since the epoch. */
  osmosis_replication_timestamp?: number;
}

export function decodeBlobHeader(bytes: Buffer): BlobHeader {
  const reader = new ProtobufReader(bytes);
  let type: string | undefined;
  let datasize: number | undefined;
  while (reader.next()) {
    if (reader.field === 1) {
      expectWire(reader, 2, "the block type");
      type = reader.bytes.toString("utf8");
    } else if (reader.field === 3) {
      expectWire(reader, 0, "the block size");
      datasize = reader.number;
    }
  }
  if (type === undefined || datasize === undefined) throw new PbfFormatError("the blob header has no type or no size");
  if (datasize > MAX_BLOB_BYTES) throw new PbfFormatError(`the blob header declares ${datasize} bytes, more than the ${MAX_BLOB_BYTES} a PBF blob may have`);
  return { type, datasize };
}

/** A blob's content: raw, or zlib-inflated to at most MAX_BLOB_BYTES whatever its declared size says. */
export function blobContent(bytes: Buffer): Buffer {
  const reader = new ProtobufReader(bytes);
  let raw: Buffer | undefined;
  let zlib: Buffer | undefined;
  let rawSize: number | undefined;
  while (reader.next()) {
    if (reader.field === 1 || reader.field === 3) {
      expectWire(reader, 2, "the blob's data");
      if (reader.field === 1) raw = reader.bytes;
      else zlib = reader.bytes;
    } else if (reader.field === 2) {
      expectWire(reader, 0, "the blob's raw size");
      rawSize = reader.number;
    } else if (UNSUPPORTED_COMPRESSIONS[reader.field]) {
      throw new PbfFormatError(`the blob is compressed with ${UNSUPPORTED_COMPRESSIONS[reader.field]}, which this reader does not support (only zlib)`);
    }
  }
  if (raw) return raw;
  if (!zlib) throw new PbfFormatError("the blob holds no data");
  if (rawSize !== undefined && rawSize > MAX_BLOB_BYTES) {
    throw new PbfFormatError(`the blob declares ${rawSize} bytes inflated, more than the ${MAX_BLOB_BYTES} a PBF blob may have`);
  }
  let inflated: Buffer;
  try {
    // The cap holds whatever the blob declares: a zlib bomb stops at it, nothing larger is allocated.
    inflated = inflateSync(zlib, { maxOutputLength: MAX_BLOB_BYTES });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
      throw new PbfFormatError(`the blob inflates to more than the ${MAX_BLOB_BYTES} bytes a PBF blob may have`);
    }
    throw new PbfFormatError(`the blob's zlib data is corrupt (${(error as Error).message})`);
  }
  if (rawSize !== undefined && inflated.length !== rawSize) {
    throw new PbfFormatError(`the blob inflates to ${inflated.length} bytes where it declares ${rawSize}`);
  }
  return inflated;
}

export function decodeHeaderBlock(bytes: Buffer): OsmHeader {
  const reader = new ProtobufReader(bytes);
  const header: OsmHeader = { bbox: null, required_features: [] };
  while (reader.next()) {
    if (reader.field === 1) {
      expectWire(reader, 2, "the bounding box");
      header.bbox = decodeBoundingBox(reader.bytes);
    } else if (reader.field === 4) {
      expectWire(reader, 2, "a required feature");
      header.required_features!.push(reader.bytes.toString("utf8"));
    } else if (reader.field === 32) {
      expectWire(reader, 0, "the replication timestamp");
      header.osmosis_replication_timestamp = int64(reader.number);
    }
  }
  const unsupported = header.required_features!.filter((feature) => !SUPPORTED_FEATURES.includes(feature));
  if (unsupported.length > 0) {
    throw new PbfFormatError(`the file requires ${unsupported.join(", ")}, which this reader does not support (it reads ${SUPPORTED_FEATURES.join(", ")})`);
  }
  return header;
}

function decodeBoundingBox(bytes: Buffer): OsmHeader["bbox"] {
  const reader = new ProtobufReader(bytes);
  const sides: Record<number, number> = {};
  while (reader.next()) {
    expectWire(reader, 0, "a side of the bounding box");
    sides[reader.field] = zigzag(reader.number);
  }
  const [left, right, top, bottom] = [sides[1], sides[2], sides[3], sides[4]];
  if (left === undefined || right === undefined || top === undefined || bottom === undefined) throw new PbfFormatError("the bounding box lacks a side");
  return { left, right, top, bottom };
}
