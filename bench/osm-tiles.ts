/**
 * A synthetic OSM extract of at least N businesses, built by tiling the real extracts in
 * fixtures/osm: their business nodes and ways (with the nodes those ways need, tags and edit
 * times as they are) are copied again and again, each copy renumbered (ids + k * 10^10, so the
 * file stays sorted by type then id) and moved onto another city of the gazetteer, so that each
 * copy's businesses resolve to a city of their own. Written with the repository's own PBF writer
 * (pbf-test-files.ts); the file is cached under bench/results/ by its size.
 */
import { createWriteStream, existsSync, renameSync } from "node:fs";
import { join } from "node:path";
import { once } from "node:events";
import { loadDatasets } from "@directory/db/gazetteer";
import { fileBlock, headerBlock, nodesBlock, waysBlock, zlibBlob, type TestNode, type TestWay } from "../packages/api/src/services/registry/osm/pbf-test-files";
import { readOsmPbf } from "../packages/api/src/services/registry/osm/pbf-reader";
import { classifyTags } from "../packages/api/src/services/registry/osm/category-map";

const ID_STRIDE = 1e10;
const BLOCK_ELEMENTS = 8_000;

interface Tile {
  nodes: TestNode[];
  ways: TestWay[];
  /** Where the tile's businesses are centred: what is moved onto a city. */
  centre: { lat: number; lng: number };
  businesses: number;
}

const isBusiness = (tags: Record<string, string> | undefined) => !!tags?.name?.trim() && classifyTags(tags)?.kind === "business";

/** The business nodes and ways of one extract, with the nodes the ways need. */
async function tileOf(file: string): Promise<Tile> {
  const wanted = new Set<number>();
  const ways: TestWay[] = [];
  await readOsmPbf(
    file,
    { withTags: true, withInfo: true },
    {
      element(element) {
        if (element.type === "way" && isBusiness(element.tags)) {
          ways.push({ id: element.id, refs: element.refs, tags: element.tags, timestamp: (element.info?.timestamp ?? 0) / 1000 });
          for (const ref of element.refs) wanted.add(ref);
        }
      },
    },
  );
  const nodes: TestNode[] = [];
  let businesses = ways.length;
  await readOsmPbf(
    file,
    { withTags: true, withInfo: true },
    {
      element(element) {
        if (element.type !== "node") return;
        const business = isBusiness(element.tags);
        if (!business && !wanted.has(element.id)) return;
        if (business) businesses++;
        nodes.push({
          id: element.id,
          lat: element.lat,
          lng: element.lon,
          tags: business ? element.tags : undefined,
          timestamp: (element.info?.timestamp ?? 0) / 1000,
        });
      },
    },
  );
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return { nodes, ways, centre: { lat: mean(nodes.map((node) => node.lat)), lng: mean(nodes.map((node) => node.lng)) }, businesses };
}

/** Builds (or reuses) an extract of at least `businesses` businesses; returns its path and how many it has. */
export async function tiledExtract(sources: readonly string[], businesses: number, dir: string): Promise<{ file: string; businesses: number; tiles: number }> {
  const tiles = await Promise.all(sources.map(tileOf));
  const perRound = tiles.reduce((sum, tile) => sum + tile.businesses, 0);
  const rounds = Math.ceil(businesses / perRound);
  const copies = rounds * tiles.length;
  const file = join(dir, `osm-tiles-${rounds * perRound}.osm.pbf`);
  if (existsSync(file)) return { file, businesses: rounds * perRound, tiles: copies };
  // The largest cities first, one a cell of a 0.4-degree grid with its neighbours free: one tile each.
  const places: { lat: number; lng: number }[] = [];
  const taken = new Set<string>();
  const cell = (lat: number, lng: number) => `${Math.floor(lat / 0.4)},${Math.floor(lng / 0.4)}`;
  for (const { loc, population } of [...loadDatasets().cities].sort((a, b) => b.population - a.population)) {
    if (places.length === copies) break;
    const city = { lat: loc.coordinates[1], lng: loc.coordinates[0], population };
    const [row, column] = [Math.floor(city.lat / 0.4), Math.floor(city.lng / 0.4)];
    const around = [-1, 0, 1].flatMap((dr) => [-1, 0, 1].map((dc) => `${row + dr},${column + dc}`));
    if (Math.abs(city.lat) > 70 || around.some((key) => taken.has(key))) continue;
    taken.add(cell(city.lat, city.lng));
    places.push(city);
  }
  if (places.length < copies) throw new Error(`only ${places.length} cities for ${copies} tiles`);
  const partial = `${file}.partial`;
  const out = createWriteStream(partial);
  const write = async (type: string, payload: Buffer) => {
    if (!out.write(fileBlock(type, zlibBlob(payload)))) await once(out, "drain");
  };
  await write("OSMHeader", headerBlock({}));
  const copy = (k: number) => {
    const tile = tiles[k % tiles.length]!;
    const place = places[k]!;
    return { tile, offset: k * ID_STRIDE, dLat: place.lat - tile.centre.lat, dLng: place.lng - tile.centre.lng };
  };
  let block: TestNode[] = [];
  for (let k = 0; k < copies; k++) {
    const { tile, offset, dLat, dLng } = copy(k);
    for (const node of tile.nodes) {
      block.push({ ...node, id: node.id + offset, lat: node.lat + dLat, lng: node.lng + dLng });
      if (block.length === BLOCK_ELEMENTS) await write("OSMData", nodesBlock(block.splice(0)));
    }
  }
  if (block.length > 0) await write("OSMData", nodesBlock(block));
  let ways: TestWay[] = [];
  for (let k = 0; k < copies; k++) {
    const { tile, offset } = copy(k);
    for (const way of tile.ways) {
      ways.push({ ...way, id: way.id + offset, refs: way.refs.map((ref) => ref + offset) });
      if (ways.length === BLOCK_ELEMENTS) await write("OSMData", waysBlock(ways.splice(0)));
    }
  }
  if (ways.length > 0) await write("OSMData", waysBlock(ways));
  block = [];
  ways = [];
  out.end();
  await once(out, "finish");
  renameSync(partial, file);
  return { file, businesses: rounds * perRound, tiles: copies };
}
