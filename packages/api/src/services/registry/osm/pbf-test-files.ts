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
const packedField = (field: number, values: readonly (number | bigint)[]) => bytesField(field, Buffer.concat(values.map((value) => varint(value))));

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

export interface TestWay {
  id: number;
  refs: readonly number[];
  tags?: Record<string, string>;
  /** Last edit, seconds since the epoch. */
  timestamp?: number;
}

/** A block's string table: index 0 is the empty string, as the format wants. */
function stringTable() {
  const strings = new Map<string, number>([["", 0]]);
  return {
    id: (text: string) => strings.get(text) ?? strings.set(text, strings.size).size - 1,
    encoded: () => bytesField(1, Buffer.concat([...strings.keys()].map((text) => bytesField(1, text)))),
  };
}

/** Tags (fields 2 and 3) and metadata (field 4), as nodes and ways both carry them. */
function commonFields(element: { tags?: Record<string, string>; timestamp?: number }, stringId: (text: string) => number): Buffer[] {
  const entries = Object.entries(element.tags ?? {});
  const info = element.timestamp === undefined ? [] : [bytesField(4, Buffer.concat([numberField(1, 1), numberField(2, element.timestamp)]))];
  return [
    packedField(
      2,
      entries.map(([key]) => stringId(key)),
    ),
    packedField(
      3,
      entries.map(([, value]) => stringId(value)),
    ),
    ...info,
  ];
}

/** One primitive block of plain (not dense) nodes, coordinates at the default 100-nanodegree granularity. */
export function nodesBlock(nodes: readonly TestNode[]): Buffer {
  const strings = stringTable();
  const encoded = nodes.map((node) =>
    bytesField(
      1,
      Buffer.concat([
        signedField(1, node.id),
        ...commonFields(node, strings.id),
        signedField(8, Math.round(node.lat * 1e7)),
        signedField(9, Math.round(node.lng * 1e7)),
      ]),
    ),
  );
  return Buffer.concat([strings.encoded(), bytesField(2, Buffer.concat(encoded))]);
}

/** One primitive block of ways, their node refs delta-coded as the format says. */
export function waysBlock(ways: readonly TestWay[]): Buffer {
  const strings = stringTable();
  const encoded = ways.map((way) => {
    const deltas = way.refs.map((ref, i) => zigzag(ref - (i === 0 ? 0 : way.refs[i - 1]!)));
    return bytesField(3, Buffer.concat([numberField(1, way.id), ...commonFields(way, strings.id), packedField(8, deltas)]));
  });
  return Buffer.concat([strings.encoded(), bytesField(2, Buffer.concat(encoded))]);
}

export interface TestRelation {
  id: number;
  members: readonly { type: "node" | "way" | "relation"; ref: number; role?: string }[];
  tags?: Record<string, string>;
}

const MEMBER_TYPE_CODES = { node: 0, way: 1, relation: 2 } as const;

/** One primitive block of relations: member roles by string index, member ids delta-coded. */
export function relationsBlock(relations: readonly TestRelation[]): Buffer {
  const strings = stringTable();
  const encoded = relations.map(({ id, members, tags }) => {
    const deltas = members.map((member, i) => zigzag(member.ref - (i === 0 ? 0 : members[i - 1]!.ref)));
    return bytesField(
      4,
      Buffer.concat([
        numberField(1, id),
        ...commonFields({ tags }, strings.id),
        packedField(
          8,
          members.map((member) => strings.id(member.role ?? "")),
        ),
        packedField(9, deltas),
        packedField(
          10,
          members.map((member) => MEMBER_TYPE_CODES[member.type]),
        ),
      ]),
    );
  });
  return Buffer.concat([strings.encoded(), bytesField(2, Buffer.concat(encoded))]);
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
