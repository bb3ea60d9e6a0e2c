import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { createGunzip } from "node:zlib";
import { SaxesParser, type SaxesTag } from "saxes";
import type { OsmElement } from "./pbf-reader";

/*
 * An osmChange file (.osc, or .osc.gz as the replication servers publish them) read into the
 * elements it creates, modifies and deletes. The file is streamed through a non-validating parser
 * (saxes resolves no external entity); what is held is the changed elements themselves.
 */

export type OsmChangeAction = "create" | "modify" | "delete";

/** The state an element is left in: its new version, or null when deleted. */
export interface OsmChange {
  action: OsmChangeAction;
  element: OsmElement | null;
}

export interface OsmChangeFile {
  file: string;
  /** SHA-256 of the file's bytes as given (compressed or not): how a file applied before is known again. */
  sha256: string;
  /** By element key (osmElementKey): the last change of each element in the file. */
  changes: Map<string, OsmChange>;
  /** Changes read, by action (an element changed twice counts twice). */
  counts: Record<OsmChangeAction, number>;
  /** Milliseconds since the epoch of the newest change in the file; undefined when none is dated. */
  newestChangeAt: number | undefined;
}

export class OsmChangeFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`osmChange file ${file}: ${reason}`);
    this.name = "OsmChangeFileError";
  }
}

export const osmElementKey = (type: OsmElement["type"], id: number): string => `${type}/${id}`;

const ACTIONS = new Set<string>(["create", "modify", "delete"]);
const ELEMENTS = new Set<string>(["node", "way", "relation"]);
const MEMBER_TYPES = new Set<string>(["node", "way", "relation"]);

export async function readOsmChangeFile(file: string): Promise<OsmChangeFile> {
  const gzipped = await startsWithGzipMagic(file);
  const hash = createHash("sha256");
  // Not namespace-aware: attributes come as plain strings.
  const parser = new SaxesParser({ position: true, xmlns: false });
  const changes = new Map<string, OsmChange>();
  const counts: Record<OsmChangeAction, number> = { create: 0, modify: 0, delete: 0 };
  let newestChangeAt: number | undefined;
  let rootSeen = false;
  let action: OsmChangeAction | undefined;
  let current: OsmElement | undefined;
  let failure: Error | undefined;
  const fail = (reason: string) => new OsmChangeFileError(file, `line ${parser.line}: ${reason}`);

  parser.on("opentag", (tag: SaxesTag) => {
    const { name } = tag;
    const attributes = tag.attributes as Record<string, string>;
    if (!rootSeen) {
      if (name !== "osmChange") throw fail(`the root element is <${name}>, not <osmChange>`);
      rootSeen = true;
    } else if (ACTIONS.has(name)) {
      action = name as OsmChangeAction;
    } else if (ELEMENTS.has(name)) {
      if (!action) throw fail(`<${name}> outside <create>, <modify> or <delete>`);
      current = elementOf(name as OsmElement["type"], attributes, action === "delete", fail);
      const timestamp = dateOf(attributes.timestamp, fail);
      if (timestamp !== undefined) {
        current.info = { timestamp };
        if (newestChangeAt === undefined || timestamp > newestChangeAt) newestChangeAt = timestamp;
      }
    } else if (current && name === "tag") {
      const key = attributes.k;
      if (typeof key !== "string" || typeof attributes.v !== "string") throw fail("a <tag> without k and v");
      (current.tags ??= {})[key] = attributes.v;
    } else if (current?.type === "way" && name === "nd") {
      current.refs.push(idOf(attributes.ref, "nd ref", fail));
    } else if (current?.type === "relation" && name === "member") {
      const type = String(attributes.type);
      if (!MEMBER_TYPES.has(type)) throw fail(`a member of type "${type}"`);
      current.members.push({ type: type as "node", ref: idOf(attributes.ref, "member ref", fail), role: String(attributes.role ?? "") });
    }
  });
  parser.on("closetag", ({ name }) => {
    if (ACTIONS.has(name)) action = undefined;
    else if (current?.type === name) {
      counts[action!]++;
      changes.set(osmElementKey(current.type, current.id), { action: action!, element: action === "delete" ? null : current });
      current = undefined;
    }
  });
  parser.on("error", (error) => {
    throw fail(error.message.replace(/^.*?:\d+:\d+: /, ""));
  });

  const raw = createReadStream(file);
  raw.on("data", (chunk) => hash.update(chunk));
  const text = gzipped ? raw.pipe(createGunzip()) : raw;
  text.setEncoding("utf8");
  try {
    for await (const chunk of text) parser.write(chunk as string);
    parser.close();
  } catch (error) {
    failure = error instanceof OsmChangeFileError ? error : new OsmChangeFileError(file, (error as Error).message);
  } finally {
    raw.destroy();
  }
  if (failure) throw failure;
  if (!rootSeen) throw new OsmChangeFileError(file, "the file holds no <osmChange> element");
  return { file, sha256: hash.digest("hex"), changes, counts, newestChangeAt };
}

function elementOf(type: OsmElement["type"], attributes: Record<string, string>, deleted: boolean, fail: (reason: string) => Error): OsmElement {
  const id = idOf(attributes.id, `${type} id`, fail);
  if (type === "way") return { type, id, refs: [] };
  if (type === "relation") return { type, id, members: [] };
  // A deleted node may come without its position: it is not placed again.
  if (deleted && attributes.lat === undefined) return { type, id, lat: 0, lon: 0 };
  const lat = Number(attributes.lat);
  const lon = Number(attributes.lon);
  if (!(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) throw fail(`node ${id} has no valid lat/lon`);
  return { type, id, lat, lon };
}

function idOf(value: string | undefined, what: string, fail: (reason: string) => Error): number {
  const id = Number(value);
  if (value === undefined || !Number.isSafeInteger(id)) throw fail(`${what} "${value ?? ""}" is not an integer`);
  return id;
}

function dateOf(value: string | undefined, fail: (reason: string) => Error): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw fail(`timestamp "${value}" is not a date`);
  return time;
}

async function startsWithGzipMagic(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new OsmChangeFileError(file, code === "ENOENT" ? "not found" : code === "EISDIR" ? "is a directory" : `cannot be read (${code})`);
  }
  try {
    const start = Buffer.alloc(2);
    const { bytesRead } = await handle.read(start, 0, 2, 0);
    if (bytesRead === 0) throw new OsmChangeFileError(file, "the file is empty");
    return bytesRead === 2 && start[0] === 0x1f && start[1] === 0x8b;
  } finally {
    await handle.close();
  }
}
