import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { deflateSync } from "node:zlib";
import type { BoundingBox } from "../registry-record";
import type { OsmElement, OsmNode, OsmRelation, OsmWay } from "./pbf-reader";

/*
 * Writes an OSM PBF file that pbf-reader.ts (and osmium) read back element for element: dense
 * nodes, ways and relations with their tags and edit times, in blocks of BLOCK_ELEMENTS of one
 * type. Elements must come as the format wants them: nodes, then ways, then relations. Used to
 * keep a source's snapshot with its change files applied (osm-snapshot.ts).
 */

const BLOCK_ELEMENTS = 8_000;
const MEMBER_TYPE = { node: 0, way: 1, relation: 2 } as const;

/** Protobuf wire encoding into a growing list of chunks; numbers up to 2^53. */
class Encoder {
  private bytes: number[] = [];

  varint(value: number): this {
    let n = value;
    while (n >= 0x80) {
      this.bytes.push((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    this.bytes.push(n);
    return this;
  }

  key(field: number, wire: number): this {
    return this.varint(field * 8 + wire);
  }

  number(field: number, value: number): this {
    return this.key(field, 0).varint(value);
  }

  message(field: number, payload: Buffer | Encoder): this {
    const bytes = payload instanceof Encoder ? payload.done() : payload;
    this.key(field, 2).varint(bytes.length);
    for (const byte of bytes) this.bytes.push(byte);
    return this;
  }

  packed(field: number, values: readonly number[]): this {
    if (values.length === 0) return this;
    const inner = new Encoder();
    for (const value of values) inner.varint(value);
    return this.message(field, inner);
  }

  done(): Buffer {
    return Buffer.from(this.bytes);
  }
}

const zigzag = (value: number) => (value >= 0 ? value * 2 : -value * 2 - 1);
const deltas = (values: readonly number[]) => values.map((value, i) => zigzag(value - (i === 0 ? 0 : values[i - 1]!)));
const seconds = (element: OsmElement) => Math.round((element.info?.timestamp ?? 0) / 1000);

function fileBlock(type: "OSMHeader" | "OSMData", payload: Buffer): Buffer {
  const blob = new Encoder().number(2, payload.length).message(3, deflateSync(payload)).done();
  const header = new Encoder().message(1, Buffer.from(type)).number(3, blob.length).done();
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header, blob]);
}

export interface PbfHeaderFields {
  bbox: BoundingBox | null;
  /** Seconds since the epoch: how current the file is. */
  replicationTimestamp?: number;
}

export class OsmPbfWriter {
  private readonly out: WriteStream;
  private pending: OsmElement[] = [];
  private lastType: OsmElement["type"] = "node";

  constructor(file: string, header: PbfHeaderFields) {
    this.out = createWriteStream(file, { mode: 0o600 });
    const block = new Encoder();
    if (header.bbox) {
      const nano = (degrees: number) => zigzag(Math.round(degrees * 1e9));
      const { minLat, minLng, maxLat, maxLng } = header.bbox;
      block.message(1, new Encoder().number(1, nano(minLng)).number(2, nano(maxLng)).number(3, nano(maxLat)).number(4, nano(minLat)));
    }
    for (const feature of ["OsmSchema-V0.6", "DenseNodes"]) block.message(4, Buffer.from(feature));
    block.message(16, Buffer.from("directory osm-snapshot"));
    if (header.replicationTimestamp !== undefined) block.number(32, header.replicationTimestamp);
    this.out.write(fileBlock("OSMHeader", block.done()));
  }

  async write(element: OsmElement): Promise<void> {
    if (MEMBER_TYPE[element.type] < MEMBER_TYPE[this.lastType]) throw new Error(`OsmPbfWriter: a ${element.type} after a ${this.lastType}`);
    if (element.type !== this.lastType || this.pending.length >= BLOCK_ELEMENTS) await this.flush();
    this.lastType = element.type;
    this.pending.push(element);
  }

  async close(): Promise<void> {
    await this.flush();
    this.out.end();
    await once(this.out, "finish");
  }

  /** Stops writing without finishing the file (the caller removes it). */
  destroy(): void {
    this.out.destroy();
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const elements = this.pending;
    this.pending = [];
    const strings = new Map<string, number>([["", 0]]);
    const index = (text: string) => strings.get(text) ?? strings.set(text, strings.size).size - 1;
    const group = new Encoder();
    if (this.lastType === "node") group.message(2, denseNodes(elements as OsmNode[], index));
    else if (this.lastType === "way") for (const way of elements as OsmWay[]) group.message(3, wayMessage(way, index));
    else for (const relation of elements as OsmRelation[]) group.message(4, relationMessage(relation, index));
    const table = new Encoder();
    for (const text of strings.keys()) table.message(1, Buffer.from(text, "utf8"));
    const block = new Encoder().message(1, table).message(2, group).done();
    if (!this.out.write(fileBlock("OSMData", block))) await once(this.out, "drain");
  }
}

function denseNodes(nodes: readonly OsmNode[], index: (text: string) => number): Encoder {
  const keysVals: number[] = [];
  for (const node of nodes) {
    for (const [key, value] of Object.entries(node.tags ?? {})) keysVals.push(index(key), index(value));
    keysVals.push(0);
  }
  const dense = new Encoder()
    .packed(1, deltas(nodes.map((node) => node.id)))
    .message(5, new Encoder().packed(2, deltas(nodes.map(seconds))))
    .packed(8, deltas(nodes.map((node) => Math.round(node.lat * 1e7))))
    .packed(9, deltas(nodes.map((node) => Math.round(node.lon * 1e7))));
  return keysVals.length > nodes.length ? dense.packed(10, keysVals) : dense;
}

/** Tags (fields 2 and 3) and the edit time (field 4), as ways and relations carry them. */
function common(message: Encoder, element: OsmElement, index: (text: string) => number): Encoder {
  const entries = Object.entries(element.tags ?? {});
  message.packed(
    2,
    entries.map(([key]) => index(key)),
  );
  message.packed(
    3,
    entries.map(([, value]) => index(value)),
  );
  return seconds(element) === 0 ? message : message.message(4, new Encoder().number(2, seconds(element)));
}

function wayMessage(way: OsmWay, index: (text: string) => number): Encoder {
  return common(new Encoder().number(1, way.id), way, index).packed(8, deltas(way.refs));
}

function relationMessage(relation: OsmRelation, index: (text: string) => number): Encoder {
  const message = common(new Encoder().number(1, relation.id), relation, index);
  return message
    .packed(
      8,
      relation.members.map((member) => index(member.role)),
    )
    .packed(9, deltas(relation.members.map((member) => member.ref)))
    .packed(
      10,
      relation.members.map((member) => MEMBER_TYPE[member.type]),
    );
}
