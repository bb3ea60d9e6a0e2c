/*
 * The coordinates of the nodes the ways and relations among the businesses need, and only those:
 * ids in one sorted typed array, latitudes and longitudes in two more (24 bytes a node), filled as
 * the nodes go by. No node table of the whole extract, no object per node.
 */

/** Node ids collected as they are met, in any order and with repeats. */
export class NodeIdList {
  private ids = new Float64Array(1024);
  private length = 0;

  push(id: number): void {
    if (this.length === this.ids.length) {
      const grown = new Float64Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.length++] = id;
  }

  get size(): number {
    return this.length;
  }

  /** The distinct ids, sorted: what a NodeCoordinates is made of. */
  sortedDistinct(): Float64Array {
    const sorted = this.ids.slice(0, this.length).sort();
    let distinct = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i]!;
    return sorted.slice(0, distinct);
  }
}

export class NodeCoordinates {
  private readonly lats: Float64Array;
  private readonly lngs: Float64Array;
  /** Where the last offered node fell: extracts list nodes by id, so the next one is at or after it. */
  private cursor = 0;

  constructor(private readonly ids: Float64Array) {
    this.lats = new Float64Array(ids.length).fill(Number.NaN);
    this.lngs = new Float64Array(ids.length).fill(Number.NaN);
  }

  /** Keeps a node's coordinates if it is wanted. */
  offer(id: number, lat: number, lng: number): void {
    const ids = this.ids;
    if (ids.length === 0) return;
    let index = this.cursor;
    if (index === 0 || ids[index - 1]! < id) {
      while (index < ids.length && ids[index]! < id) index++;
    } else {
      index = this.lowerBound(id);
    }
    this.cursor = index;
    if (ids[index] === id) {
      this.lats[index] = lat;
      this.lngs[index] = lng;
    }
  }

  /** [lat, lng] of a wanted node that went by, else null. */
  get(id: number): [number, number] | null {
    const index = this.lowerBound(id);
    if (this.ids[index] !== id || Number.isNaN(this.lats[index]!)) return null;
    return [this.lats[index]!, this.lngs[index]!];
  }

  private lowerBound(id: number): number {
    let low = 0;
    let high = this.ids.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.ids[middle]! < id) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * The mean of the distinct nodes' coordinates (a closed way repeats its first node), looked up in
 * each table in turn. Nodes missing from a clipped extract are left out; with none left there is
 * no point. Extracts do not cross the antimeridian often enough to justify more.
 */
export function centroid(refs: Iterable<number>, tables: readonly NodeCoordinates[]): { lat: number; lng: number } | null {
  let lat = 0;
  let lng = 0;
  let n = 0;
  for (const ref of new Set(refs)) {
    for (const table of tables) {
      const point = table.get(ref);
      if (!point) continue;
      lat += point[0];
      lng += point[1];
      n++;
      break;
    }
  }
  return n === 0 ? null : { lat: lat / n, lng: lng / n };
}
