/*
 * A boundary relation's member ways joined into closed rings, and the area those rings enclose.
 * A relation of an extract is often clipped at the extract's edge (a neighbour country's border
 * beyond it is missing): its ways then do not close, and it encloses nothing we can trust.
 */

/**
 * The member ways (node refs, in either direction) joined end to end into closed rings of node
 * refs (first ref repeated last), or null when any way is left over or a ring does not close.
 */
export function assembleRings(ways: readonly ArrayLike<number>[]): number[][] | null {
  const byEnd = new Map<number, number[]>();
  const addEnd = (ref: number, way: number) => {
    const list = byEnd.get(ref);
    if (list) list.push(way);
    else byEnd.set(ref, [way]);
  };
  ways.forEach((refs, way) => {
    if (refs.length < 2) return;
    addEnd(refs[0]!, way);
    addEnd(refs[refs.length - 1]!, way);
  });
  const used = new Uint8Array(ways.length);
  const rings: number[][] = [];
  for (let start = 0; start < ways.length; start++) {
    if (used[start]) continue;
    used[start] = 1;
    const first = ways[start]!;
    if (first.length < 2) return null;
    const ring = Array.from(first);
    while (ring[0] !== ring[ring.length - 1]) {
      const end = ring[ring.length - 1]!;
      const next = byEnd.get(end)?.find((way) => !used[way]);
      if (next === undefined) return null;
      used[next] = 1;
      const refs = ways[next]!;
      const forward = refs[0] === end;
      for (let i = 1; i < refs.length; i++) ring.push(forward ? refs[i]! : refs[refs.length - 1 - i]!);
    }
    if (new Set(ring).size < 3) return null;
    rings.push(ring);
  }
  return rings.length > 0 ? rings : null;
}

/** How many latitude bands the edge index has at most: a point is tested against its band's edges only. */
const MAX_BANDS = 4096;

/**
 * The area closed rings enclose, by the even-odd rule over all rings together: an inner ring (an
 * enclave) is a hole whatever its role says. Edges are indexed by latitude band, so a test costs
 * the edges near the point's latitude, not the whole border's (a large country's has 100,000s).
 */
export class RingArea {
  readonly minLat: number;
  readonly maxLat: number;
  readonly minLng: number;
  readonly maxLng: number;
  /** Edge i runs from (lats[i], lngs[i]) to (lats[i + 1], lngs[i + 1]) unless i + 1 starts another ring. */
  private readonly lats: Float64Array;
  private readonly lngs: Float64Array;
  private readonly bands: number;
  private readonly bandHeight: number;
  /** Edges of band b: bandEdges[bandStart[b] .. bandStart[b + 1]). */
  private readonly bandStart: Uint32Array;
  private readonly bandEdges: Uint32Array;

  /** rings: each [lat, lng] pairs flattened, closed (first point repeated last). */
  constructor(rings: readonly Float64Array[]) {
    const points = rings.reduce((sum, ring) => sum + ring.length / 2, 0);
    this.lats = new Float64Array(points);
    this.lngs = new Float64Array(points);
    const edgeStarts: number[] = [];
    let at = 0;
    for (const ring of rings) {
      for (let i = 0; i < ring.length / 2; i++) {
        this.lats[at + i] = ring[2 * i]!;
        this.lngs[at + i] = ring[2 * i + 1]!;
        if (i > 0) edgeStarts.push(at + i - 1);
      }
      at += ring.length / 2;
    }
    [this.minLat, this.maxLat] = minMax(this.lats);
    [this.minLng, this.maxLng] = minMax(this.lngs);
    const bands = Math.max(1, Math.min(MAX_BANDS, edgeStarts.length));
    this.bands = bands;
    this.bandHeight = (this.maxLat - this.minLat) / bands || 1;
    const counts = new Uint32Array(bands + 1);
    const span = (edge: number): [number, number] => {
      const a = this.lats[edge]!;
      const b = this.lats[edge + 1]!;
      return [this.band(Math.min(a, b)), this.band(Math.max(a, b))];
    };
    for (const edge of edgeStarts) {
      const [low, high] = span(edge);
      for (let b = low; b <= high; b++) counts[b + 1]!++;
    }
    for (let b = 0; b < bands; b++) counts[b + 1]! += counts[b]!;
    this.bandStart = counts;
    this.bandEdges = new Uint32Array(counts[bands]!);
    const filled = counts.slice(0, bands);
    for (const edge of edgeStarts) {
      const [low, high] = span(edge);
      for (let b = low; b <= high; b++) this.bandEdges[filled[b]!++] = edge;
    }
  }

  contains(lat: number, lng: number): boolean {
    if (lat < this.minLat || lat > this.maxLat || lng < this.minLng || lng > this.maxLng) return false;
    const band = this.band(lat);
    let inside = false;
    for (let k = this.bandStart[band]!; k < this.bandStart[band + 1]!; k++) {
      const i = this.bandEdges[k]!;
      const lat1 = this.lats[i]!;
      const lat2 = this.lats[i + 1]!;
      if (lat1 > lat !== lat2 > lat) {
        const crossLng = this.lngs[i]! + ((lat - lat1) / (lat2 - lat1)) * (this.lngs[i + 1]! - this.lngs[i]!);
        if (lng < crossLng) inside = !inside;
      }
    }
    return inside;
  }

  private band(lat: number): number {
    return Math.min(this.bands - 1, Math.max(0, Math.floor((lat - this.minLat) / this.bandHeight)));
  }
}

function minMax(values: Float64Array): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return [min, max];
}
