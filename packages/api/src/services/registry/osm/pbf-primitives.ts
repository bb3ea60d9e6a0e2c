import { appendVarints, expectWire, int64, PbfFormatError, ProtobufReader, undelta, zigzag } from "./protobuf-reader";

/*
 * A PrimitiveBlock (osmformat.proto) read into elements, in the shapes osm-pbf-parser-node gave:
 * nodes (plain and dense), ways and relations, with their tags and last-edit time when asked.
 * Every array is checked against the others it goes with, and every string index against the
 * block's string table, so a hostile block fails with a reason instead of yielding odd elements.
 */

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

export interface DecodeOptions {
  withTags: boolean;
  withInfo: boolean;
}

const MEMBER_TYPES = ["node", "way", "relation"] as const;

interface Block {
  strings: string[];
  /** Divides a stored coordinate into degrees. */
  divisor: number;
  latOffset: number;
  lonOffset: number;
  /** Milliseconds per stored time unit. */
  dateGranularity: number;
  options: DecodeOptions;
}

export function decodePrimitiveBlock(bytes: Buffer, options: DecodeOptions): OsmElement[] {
  const reader = new ProtobufReader(bytes);
  const groups: Buffer[] = [];
  const block: Block = { strings: [], divisor: 1e7, latOffset: 0, lonOffset: 0, dateGranularity: 1000, options };
  while (reader.next()) {
    if (reader.field === 1) {
      expectWire(reader, 2, "the string table");
      block.strings = stringTable(reader.bytes);
    } else if (reader.field === 2) {
      expectWire(reader, 2, "a primitive group");
      groups.push(reader.bytes);
    } else if (reader.field === 17) {
      expectWire(reader, 0, "the granularity");
      block.divisor = reader.number ? 1e9 / reader.number : 1e7;
    } else if (reader.field === 18) {
      expectWire(reader, 0, "the date granularity");
      block.dateGranularity = reader.number || 1000;
    } else if (reader.field === 19 || reader.field === 20) {
      expectWire(reader, 0, "a coordinate offset");
      if (reader.field === 19) block.latOffset = int64(reader.number) * 1e-9;
      else block.lonOffset = int64(reader.number) * 1e-9;
    }
  }
  const elements: OsmElement[] = [];
  for (const group of groups) {
    const items = new ProtobufReader(group);
    while (items.next()) {
      if (items.field > 4) continue; // changesets: not elements
      expectWire(items, 2, "an element");
      if (items.field === 1) elements.push(node(items.bytes, block));
      else if (items.field === 2) for (const dense of denseNodes(items.bytes, block)) elements.push(dense);
      else if (items.field === 3) elements.push(way(items.bytes, block));
      else elements.push(relation(items.bytes, block));
    }
  }
  return elements;
}

function stringTable(bytes: Buffer): string[] {
  const reader = new ProtobufReader(bytes);
  const strings: string[] = [];
  while (reader.next()) {
    expectWire(reader, 2, "a string");
    strings.push(reader.bytes.toString("utf8"));
  }
  return strings;
}

function text(block: Block, index: number): string {
  const value = block.strings[index];
  if (value === undefined) throw new PbfFormatError(`string ${index} is beyond the block's ${block.strings.length} strings`);
  return value;
}

/** The fields every element shares: tags (keys and values as string indexes) and metadata. */
interface Common {
  keys: number[];
  vals: number[];
  timestamp: number;
}

function readCommon(reader: ProtobufReader, common: Common): boolean {
  if (reader.field === 2) appendVarints(reader, common.keys);
  else if (reader.field === 3) appendVarints(reader, common.vals);
  else if (reader.field === 4) {
    expectWire(reader, 2, "an element's metadata");
    const info = new ProtobufReader(reader.bytes);
    while (info.next()) if (info.field === 2 && info.wire === 0) common.timestamp = int64(info.number);
  } else return false;
  return true;
}

function finish<T extends OsmElement>(element: T, common: Common, block: Block): T {
  if (common.keys.length !== common.vals.length)
    throw new PbfFormatError(`${element.type} ${element.id} has ${common.keys.length} tag keys for ${common.vals.length} values`);
  if (block.options.withTags && common.keys.length > 0) {
    const tags: Record<string, string> = {};
    common.keys.forEach((key, i) => (tags[text(block, key)] = text(block, common.vals[i]!)));
    element.tags = tags;
  }
  if (block.options.withInfo && common.timestamp !== 0) element.info = { timestamp: common.timestamp * block.dateGranularity };
  return element;
}

function node(bytes: Buffer, block: Block): OsmNode {
  const reader = new ProtobufReader(bytes);
  const common: Common = { keys: [], vals: [], timestamp: 0 };
  let [id, lat, lon] = [0, 0, 0];
  while (reader.next()) {
    if (readCommon(reader, common)) continue;
    if (reader.wire !== 0) continue;
    if (reader.field === 1) id = zigzag(reader.number);
    else if (reader.field === 8) lat = zigzag(reader.number);
    else if (reader.field === 9) lon = zigzag(reader.number);
  }
  return finish({ type: "node", id, lat: block.latOffset + lat / block.divisor, lon: block.lonOffset + lon / block.divisor }, common, block);
}

function denseNodes(bytes: Buffer, block: Block): OsmNode[] {
  const reader = new ProtobufReader(bytes);
  const [ids, lats, lons, keysVals, timestamps]: [number[], number[], number[], number[], number[]] = [[], [], [], [], []];
  while (reader.next()) {
    if (reader.field === 1) appendVarints(reader, ids, zigzag);
    else if (reader.field === 8) appendVarints(reader, lats, zigzag);
    else if (reader.field === 9) appendVarints(reader, lons, zigzag);
    else if (reader.field === 10) appendVarints(reader, keysVals);
    else if (reader.field === 5 && block.options.withInfo) {
      expectWire(reader, 2, "the dense nodes' metadata");
      const info = new ProtobufReader(reader.bytes);
      while (info.next()) if (info.field === 2) appendVarints(info, timestamps, zigzag);
    }
  }
  if (lats.length !== ids.length || lons.length !== ids.length)
    throw new PbfFormatError(`dense nodes with ${ids.length} ids, ${lats.length} latitudes and ${lons.length} longitudes`);
  if (timestamps.length > 0 && timestamps.length !== ids.length)
    throw new PbfFormatError(`dense nodes with ${ids.length} ids and ${timestamps.length} timestamps`);
  const [wholeIds, wholeLats, wholeLons, wholeTimes] = [undelta(ids), undelta(lats), undelta(lons), undelta(timestamps)];
  let next = 0;
  return wholeIds.map((id, i) => {
    const common: Common = { keys: [], vals: [], timestamp: wholeTimes[i] ?? 0 };
    // keys_vals: each node's key and value indexes in pairs, then a 0; empty when no node has tags.
    if (keysVals.length > 0) {
      while (keysVals[next] !== 0) {
        if (next + 1 >= keysVals.length) throw new PbfFormatError(`dense node ${id}'s tags run past the end of their list`);
        common.keys.push(keysVals[next]!);
        common.vals.push(keysVals[next + 1]!);
        next += 2;
      }
      next++;
    }
    return finish(
      { type: "node", id, lat: block.latOffset + wholeLats[i]! / block.divisor, lon: block.lonOffset + wholeLons[i]! / block.divisor },
      common,
      block,
    );
  });
}

function way(bytes: Buffer, block: Block): OsmWay {
  const reader = new ProtobufReader(bytes);
  const common: Common = { keys: [], vals: [], timestamp: 0 };
  let id = 0;
  const refs: number[] = [];
  while (reader.next()) {
    if (readCommon(reader, common)) continue;
    if (reader.field === 1 && reader.wire === 0) id = int64(reader.number);
    else if (reader.field === 8) appendVarints(reader, refs, zigzag);
  }
  return finish({ type: "way", id, refs: undelta(refs) }, common, block);
}

function relation(bytes: Buffer, block: Block): OsmRelation {
  const reader = new ProtobufReader(bytes);
  const common: Common = { keys: [], vals: [], timestamp: 0 };
  let id = 0;
  const [roles, memberIds, types]: [number[], number[], number[]] = [[], [], []];
  while (reader.next()) {
    if (readCommon(reader, common)) continue;
    if (reader.field === 1 && reader.wire === 0) id = int64(reader.number);
    else if (reader.field === 8) appendVarints(reader, roles);
    else if (reader.field === 9) appendVarints(reader, memberIds, zigzag);
    else if (reader.field === 10) appendVarints(reader, types);
  }
  if (roles.length !== memberIds.length || types.length !== memberIds.length) {
    throw new PbfFormatError(`relation ${id} has ${memberIds.length} members, ${types.length} member types and ${roles.length} roles`);
  }
  const refs = undelta(memberIds);
  const members = refs.map((ref, i) => {
    const type = MEMBER_TYPES[types[i]!];
    if (!type) throw new PbfFormatError(`relation ${id} has a member of unknown type ${types[i]}`);
    return { type, ref, role: text(block, roles[i]!) };
  });
  return finish({ type: "relation", id, members }, common, block);
}
