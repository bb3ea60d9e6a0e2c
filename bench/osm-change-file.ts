/**
 * A change file of N changes against a synthetic extract (osm-tiles.ts), as a replication server
 * would publish one: business nodes modified (a new phone and edit time), deleted, and created
 * (new ids beyond the file's), in the shares a day of OpenStreetMap edits has them roughly
 * (mostly modifications). Written as .osc.gz.
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { createGzip } from "node:zlib";
import { readOsmPbf, type OsmNode } from "../packages/api/src/services/registry/osm/pbf-reader";
import { classifyTags } from "../packages/api/src/services/registry/osm/category-map";

const SHARES = { modify: 0.6, delete: 0.2, create: 0.2 };

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function nodeXml(node: OsmNode, at: string): string {
  const tags = Object.entries(node.tags ?? {})
    .map(([k, v]) => `<tag k="${escapeXml(k)}" v="${escapeXml(v)}"/>`)
    .join("");
  return `<node id="${node.id}" version="2" timestamp="${at}" lat="${node.lat.toFixed(7)}" lon="${node.lon.toFixed(7)}">${tags}</node>\n`;
}

export async function writeChangeFile(extract: string, changes: number, out: string): Promise<{ modify: number; delete: number; create: number }> {
  const wanted = Math.ceil(changes * (SHARES.modify + SHARES.delete));
  const picked: OsmNode[] = [];
  let seen = 0;
  let maxId = 0;
  await readOsmPbf(
    extract,
    { withTags: true, withInfo: false },
    {
      element(element) {
        if (element.type !== "node") return;
        maxId = Math.max(maxId, element.id);
        if (!element.tags?.name || classifyTags(element.tags)?.kind !== "business") return;
        // Reservoir sampling: businesses spread over the whole file, not its first tiles.
        seen++;
        if (picked.length < wanted) picked.push(element);
        else {
          const slot = Math.floor(Math.random() * seen);
          if (slot < wanted) picked[slot] = element;
        }
      },
    },
  );
  const at = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  const counts = { modify: Math.round(changes * SHARES.modify), delete: 0, create: 0 };
  counts.delete = Math.min(picked.length, wanted) - counts.modify;
  counts.create = changes - counts.modify - counts.delete;
  const gzip = createGzip();
  const file = createWriteStream(out);
  gzip.pipe(file);
  const write = async (text: string) => {
    if (!gzip.write(text)) await once(gzip, "drain");
  };
  await write(`<?xml version="1.0" encoding="UTF-8"?>\n<osmChange version="0.6" generator="directory bench">\n<modify>\n`);
  for (const node of picked.slice(0, counts.modify))
    await write(nodeXml({ ...node, tags: { ...node.tags, phone: `+41 79 ${String(node.id % 1e7).padStart(7, "0")}` } }, at));
  await write(`</modify>\n<delete>\n`);
  for (const node of picked.slice(counts.modify, counts.modify + counts.delete)) await write(`<node id="${node.id}" version="2" timestamp="${at}"/>\n`);
  await write(`</delete>\n<create>\n`);
  for (let i = 0; i < counts.create; i++) {
    const model = picked[i % picked.length]!;
    await write(nodeXml({ ...model, id: maxId + 1 + i, lat: model.lat + 0.0003, tags: { ...model.tags, name: `${model.tags?.name} ${i}` } }, at));
  }
  await write(`</create>\n</osmChange>\n`);
  gzip.end();
  await once(file, "finish");
  return counts;
}
