import { deflateSync } from "node:zlib";

/*
 * Small OSM PBF files built in code for tests: well-formed ones with chosen nodes, header and
 * timestamps, and hostile ones (a corrupt or oversized blob, a garbage header) that the reader
 * must refuse by name. The protobuf encoding is written out here so a test can break it on purpose.
 */

export function varint(value: number | bigint): Buffer {
  let n = BigInt(value);
  if (n < 0n) n += 1n << 64n;
  const bytes: number[] = [];
  do {
    const low = Number(n & 0x7fn);
    n >>= 7n;
    bytes.push(n > 0n ? low | 0x80 : low);
  } while (n > 0n);
  return Buffer.from(bytes);
}

const zigzag = (value: number) => (value >= 0 ? BigInt(value) * 2n : BigInt(-value) * 2n - 1n);
const numberField = (field: number, value: number | bigint) => Buffer.concat([varint(field << 3), varint(value)]);
const signedField = (field: number, value: number) => numberField(field, zigzag(value));
const bytesField = (field: number, bytes: Buffer | string) => {
  const payload = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes;
  return Buffer.concat([varint((field << 3) | 2), varint(payload.length), payload]);
};
const packedField = (field: number, values: readonly number[]) => bytesField(field, Buffer.concat(values.map((value) => varint(value))));

export interface TestHeader {
  /** Degrees; omitted means no bounding box in the header. */
  bbox?: { minLat: number; minLng: number; maxLat: number; maxLng: number };
  requiredFeatures?: string[];
  /** Seconds since the epoch. */
  replicationTimestamp?: number;
}

export interface TestNode {
  id: number;
  lat: number;
  lng: number;
  tags?: Record<string, string>;
  /** Last edit, seconds since the epoch. */
  timestamp?: number;
}

export function headerBlock(header: TestHeader = {}): Buffer {
  const parts: Buffer[] = [];
  const { bbox } = header;
  if (bbox) {
    const nano = (degrees: number) => Math.round(degrees * 1e9);
    parts.push(
      bytesField(
        1,
        Buffer.concat([
          signedField(1, nano(bbox.minLng)),
          signedField(2, nano(bbox.maxLng)),
          signedField(3, nano(bbox.maxLat)),
          signedField(4, nano(bbox.minLat)),
        ]),
      ),
    );
  }
  for (const feature of header.requiredFeatures ?? ["OsmSchema-V0.6", "DenseNodes"]) parts.push(bytesField(4, feature));
  parts.push(bytesField(16, "directory tests"));
  if (header.replicationTimestamp !== undefined) parts.push(numberField(32, header.replicationTimestamp));
  return Buffer.concat(parts);
}

/** One primitive block of plain (not dense) nodes, coordinates at the default 100-nanodegree granularity. */
export function nodesBlock(nodes: readonly TestNode[]): Buffer {
  const strings = [""];
  const stringId = (text: string) => {
    const found = strings.indexOf(text);
    return found > 0 ? found : strings.push(text) - 1;
  };
  const encoded = nodes.map((node) => {
    const entries = Object.entries(node.tags ?? {});
    const keys = entries.map(([key]) => stringId(key));
    const vals = entries.map(([, value]) => stringId(value));
    const info = node.timestamp === undefined ? [] : [bytesField(4, Buffer.concat([numberField(1, 1), numberField(2, node.timestamp)]))];
    return bytesField(
      1,
      Buffer.concat([
        signedField(1, node.id),
        packedField(2, keys),
        packedField(3, vals),
        ...info,
        signedField(8, Math.round(node.lat * 1e7)),
        signedField(9, Math.round(node.lng * 1e7)),
      ]),
    );
  });
  const stringTable = bytesField(1, Buffer.concat(strings.map((text) => bytesField(1, text))));
  return Buffer.concat([stringTable, bytesField(2, Buffer.concat(encoded))]);
}

/** A Blob message holding the payload zlib-compressed; rawSize overrides the declared size. */
export function zlibBlob(payload: Buffer, rawSize = payload.length): Buffer {
  return Buffer.concat([numberField(2, rawSize), bytesField(3, deflateSync(payload))]);
}

/** A Blob message whose zlib data is the given bytes as they are (corrupt ones, say). */
export function rawZlibBlob(zlibBytes: Buffer, rawSize: number): Buffer {
  return Buffer.concat([numberField(2, rawSize), bytesField(3, zlibBytes)]);
}

export function blobHeader(type: string, datasize: number): Buffer {
  return Buffer.concat([bytesField(1, type), numberField(3, datasize)]);
}

/** A file block: the header's length (4 bytes, big-endian), the BlobHeader, then the Blob. */
export function fileBlock(type: string, blob: Buffer): Buffer {
  const header = blobHeader(type, blob.length);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header, blob]);
}

/** A whole, well-formed file: the header block, then one block of the nodes. */
export function osmPbfFile(header: TestHeader, nodes: readonly TestNode[]): Buffer {
  return Buffer.concat([fileBlock("OSMHeader", zlibBlob(headerBlock(header))), fileBlock("OSMData", zlibBlob(nodesBlock(nodes)))]);
}
