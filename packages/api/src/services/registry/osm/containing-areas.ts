import type { RecordIdSet } from "../record-id-set";
import { addressTagsOf, hasAddressTags, type FactSource } from "./borrowed-facts";
import { NodeCoordinates } from "./node-coordinates";
import { emptyCounts, osmCategory } from "./osm-record";
import { readOsmPbf } from "./pbf-reader";

/*
 * OpenStreetMap often puts a shop's address on the building around its node, and often draws the
 * same business twice: as a node (its entrance) and as its building way. Before the stream pass,
 * one pass finds, for each business node, the closed way with addr:* tags around it and the
 * business way around it with the same name and category. Memory stays bounded: the survey keeps
 * only the business nodes' positions (typed arrays); this pass keeps the coordinates of the
 * business ways' nodes (as the stream pass does) and of the nodes in the grid cells around the
 * business nodes without an address, and the answers only for the nodes that have one.
 */

/** Grid cells of this many degrees; a building is found when its outline lies in a node's cell or the next ones. */
const CELL_DEGREES = 0.002;
const COLUMNS = Math.ceil(360 / CELL_DEGREES);
/**
 * A business node this close to a business way of the same name and category is its twin even
 * outside it: mappers often put the entrance's node just in front of the building.
 */
export const TWIN_METRES = 30;
const METRES_PER_DEGREE = 111_320;

const rowOf = (lat: number) => Math.floor((lat + 90) / CELL_DEGREES);
const columnOf = (lng: number) => Math.floor((lng + 180) / CELL_DEGREES);
const cellOf = (lat: number, lng: number) => rowOf(lat) * COLUMNS + columnOf(lng);

/** What the area pass found for one business node. */
export interface Container {
  /** The innermost closed way with addr:* tags around the node (for a node without addr:* tags). */
  address?: FactSource;
  /** The business way around the node with the same name and category: the same business. */
  twin?: FactSource;
}

export interface Containers {
  byNode: Map<number, Container>;
  /** Business ways that are a node's twin: the node's record stands for them. */
  absorbedWays: Set<number>;
}

/** Name (case, accents and spaces aside) and category as one number: FNV-1a, 32 bits. */
export function sameBusinessKey(name: string, category: string): number {
  const text = `${name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/gu, "")}|${category}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/** Columns of numbers that grow by doubling. */
class Columns<K extends string> {
  readonly data: Record<K, Float64Array>;
  length = 0;

  constructor(private readonly names: readonly K[]) {
    this.data = Object.fromEntries(names.map((name) => [name, new Float64Array(1024)])) as Record<K, Float64Array>;
  }

  push(values: Record<K, number>): void {
    if (this.length === this.data[this.names[0]!].length) {
      for (const name of this.names) {
        const grown = new Float64Array(this.length * 2);
        grown.set(this.data[name]);
        this.data[name] = grown;
      }
    }
    for (const name of this.names) this.data[name][this.length] = values[name];
    this.length++;
  }
}

/** The survey's business nodes: id, position, name-and-category key, and whether they lack an address. */
export class BusinessNodes {
  private readonly columns = new Columns(["id", "lat", "lng", "key", "lacksAddress"] as const);
  lackingAddress = 0;

  get size(): number {
    return this.columns.length;
  }

  push(id: number, lat: number, lng: number, tags: Readonly<Record<string, string>>, category: string): void {
    const lacksAddress = !hasAddressTags(tags);
    if (lacksAddress) this.lackingAddress++;
    this.columns.push({ id, lat, lng, key: sameBusinessKey(tags.name ?? "", category), lacksAddress: lacksAddress ? 1 : 0 });
  }

  /** The columns, and the nodes' indices sorted by grid cell with their cells. */
  indexed() {
    const { id, lat, lng, key, lacksAddress } = this.columns.data;
    const n = this.columns.length;
    const cells = new Float64Array(n);
    for (let i = 0; i < n; i++) cells[i] = cellOf(lat[i]!, lng[i]!);
    const order = new Uint32Array(n).map((_, i) => i).sort((a, b) => cells[a]! - cells[b]!);
    const sortedCells = Float64Array.from(order, (i) => cells[i]!);
    return { id, lat, lng, key, lacksAddress, order, sortedCells };
  }
}

function lowerBound(sorted: Float64Array, value: number, length = sorted.length): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The cells of the business nodes without an address and the eight around each, sorted and distinct. */
function wantedCells(index: ReturnType<BusinessNodes["indexed"]>): Float64Array {
  const { sortedCells, order, lacksAddress } = index;
  const all = new Float64Array(sortedCells.length * 9);
  let n = 0;
  for (let k = 0; k < sortedCells.length; k++) {
    if (lacksAddress[order[k]!] !== 1 || (n > 0 && all[n - 5] === sortedCells[k])) continue;
    for (const row of [-COLUMNS, 0, COLUMNS]) for (const column of [-1, 0, 1]) all[n++] = sortedCells[k]! + row + column;
  }
  const sorted = all.subarray(0, n).sort();
  let distinct = 0;
  for (let i = 0; i < n; i++) if (distinct === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i]!;
  return sorted.slice(0, distinct);
}

/** Ray casting; a node on the outline's own vertices is inside (a shop drawn on its building's wall). */
function contains(lats: number[], lngs: number[], lat: number, lng: number): boolean {
  let inside = false;
  for (let i = 0, j = lats.length - 1; i < lats.length; j = i++) {
    if (lats[i] === lat && lngs[i] === lng) return true;
    if (lats[i]! > lat !== lats[j]! > lat && lng < ((lngs[j]! - lngs[i]!) * (lat - lats[i]!)) / (lats[j]! - lats[i]!) + lngs[i]!) inside = !inside;
  }
  return inside;
}

/** Metres from a point to the nearest side of a ring (flat: the sides are a building's). */
function metresToRing(lats: number[], lngs: number[], lat: number, lng: number): number {
  const scale = Math.cos((lat * Math.PI) / 180);
  let best = Infinity;
  for (let i = 1; i < lats.length; i++) {
    const [ax, ay, bx, by] = [(lngs[i - 1]! - lng) * scale, lats[i - 1]! - lat, (lngs[i]! - lng) * scale, lats[i]! - lat];
    const [dx, dy] = [bx - ax, by - ay];
    const t = dx === 0 && dy === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy)));
    best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
  }
  return best * METRES_PER_DEGREE;
}

function area(lats: number[], lngs: number[]): number {
  let sum = 0;
  for (let i = 0, j = lats.length - 1; i < lats.length; j = i++) sum += (lngs[j]! + lngs[i]!) * (lats[j]! - lats[i]!);
  return Math.abs(sum / 2);
}

/**
 * The pass: for each business node, its container and its twin, if the extract has them. The
 * business ways' outlines come from their nodes (`businessWayNodes`, the survey's list, sorted),
 * the addressed ways' from the nodes kept in the cells around the nodes without an address.
 */
export async function findContainers(file: string, nodes: BusinessNodes, listed: RecordIdSet, businessWayNodes: Float64Array): Promise<Containers> {
  const found: Containers = { byNode: new Map(), absorbedWays: new Set() };
  const index = nodes.indexed();
  const cells = wantedCells(index);
  const wayCoordinates = new NodeCoordinates(businessWayNodes);
  const kept = new Columns(["id", "lat", "lng"] as const);
  let keptSorted = true;
  let keptIndex: { ids: Float64Array; lats: Float64Array; lngs: Float64Array } | null = null;
  const addressArea = new Map<number, number>();
  const scratch = emptyCounts();

  const point = (ref: number): number => {
    if (!keptIndex) {
      const { id, lat, lng } = kept.data;
      const n = kept.length;
      if (keptSorted) keptIndex = { ids: id.subarray(0, n), lats: lat.subarray(0, n), lngs: lng.subarray(0, n) };
      else {
        const order = new Uint32Array(n).map((_, i) => i).sort((a, b) => id[a]! - id[b]!);
        keptIndex = {
          ids: Float64Array.from(order, (i) => id[i]!),
          lats: Float64Array.from(order, (i) => lat[i]!),
          lngs: Float64Array.from(order, (i) => lng[i]!),
        };
      }
    }
    const at = lowerBound(keptIndex.ids, ref);
    return keptIndex.ids[at] === ref ? at : -1;
  };

  await readOsmPbf(
    file,
    { withTags: true, withInfo: false },
    {
      element(element) {
        if (element.type === "node") {
          wayCoordinates.offer(element.id, element.lat, element.lon);
          const at = lowerBound(cells, cellOf(element.lat, element.lon));
          if (cells[at] !== cellOf(element.lat, element.lon)) return;
          if (kept.length > 0 && kept.data.id[kept.length - 1]! > element.id) keptSorted = false;
          keptIndex = null; // a node after a way (an unsorted file): index again
          kept.push({ id: element.id, lat: element.lat, lng: element.lon });
          return;
        }
        if (element.type !== "way" || element.refs.length < 4 || element.refs[0] !== element.refs[element.refs.length - 1]) return;
        const tags = element.tags ?? {};
        const addressed = nodes.lackingAddress > 0 && hasAddressTags(tags);
        const category = listed.hasNumbered("way", element.id) ? osmCategory(tags, scratch) : null;
        if (!addressed && category === null) return;
        const lats: number[] = [];
        const lngs: number[] = [];
        for (const ref of element.refs) {
          const known = category === null ? null : wayCoordinates.get(ref);
          if (known) {
            lats.push(known[0]);
            lngs.push(known[1]);
            continue;
          }
          const at = point(ref);
          if (at < 0) return; // part of the outline is beyond the cells kept: not this way
          lats.push(keptIndex!.lats[at]!);
          lngs.push(keptIndex!.lngs[at]!);
        }
        const key = category === null ? -1 : sameBusinessKey(tags.name ?? "", category);
        const recordId = `way/${element.id}`;
        const size = area(lats, lngs);
        let addressSource: FactSource | undefined;
        // Around the outline by TWIN_METRES when a twin is looked for.
        const margin = category === null ? 0 : TWIN_METRES / METRES_PER_DEGREE;
        const lngMargin = margin / Math.max(0.1, Math.cos((lats[0]! * Math.PI) / 180));
        const [minLat, maxLat] = [Math.min(...lats) - margin, Math.max(...lats) + margin];
        const [minLng, maxLng] = [Math.min(...lngs) - lngMargin, Math.max(...lngs) + lngMargin];
        for (let row = rowOf(minLat); row <= rowOf(maxLat); row++) {
          const from = lowerBound(index.sortedCells, row * COLUMNS + columnOf(minLng));
          const to = lowerBound(index.sortedCells, row * COLUMNS + columnOf(maxLng) + 1);
          for (let k = from; k < to; k++) {
            const i = index.order[k]!;
            const lat = index.lat[i]!;
            const lng = index.lng[i]!;
            if (lat < minLat || lat > maxLat || lng < minLng || lng > maxLng) continue;
            const inside = contains(lats, lngs, lat, lng);
            const twin = key === index.key[i] && (inside || metresToRing(lats, lngs, lat, lng) <= TWIN_METRES);
            if (!inside && !twin) continue;
            const nodeId = index.id[i]!;
            const container = found.byNode.get(nodeId) ?? {};
            if (twin && !container.twin && !found.absorbedWays.has(element.id)) {
              container.twin = { recordId, tags };
              found.absorbedWays.add(element.id);
            }
            // The innermost building gives the address: a shop in a mall takes the shop's unit.
            if (inside && addressed && index.lacksAddress[i] === 1 && size < (addressArea.get(nodeId) ?? Infinity)) {
              addressSource ??= { recordId, tags: addressTagsOf(tags) };
              container.address = addressSource;
              addressArea.set(nodeId, size);
            }
            if (container.address || container.twin) found.byNode.set(nodeId, container);
          }
        }
      },
    },
  );
  return found;
}
