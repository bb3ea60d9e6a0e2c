import { assembleRings, RingArea } from "./boundary-rings";
import { countryCodesAt } from "./country-of-point";
import { NodeCoordinates, NodeIdList } from "./node-coordinates";
import type { DecodeOptions } from "./pbf-primitives";
import { readOsmPbf, type OsmElement, type OsmRelation } from "./pbf-reader";

/*
 * The country a business is in, from the extract's own borders where it has them whole. The
 * country-coder borders (country-of-point.ts) are simplified: near a border a point can fall on
 * the wrong side (the Pfälzer Hütte, on Liechtenstein's ridge with Austria, reads as Austria).
 * An extract of a country carries that country's boundary relation as mapped, and the clipped
 * remains of its neighbours'; a boundary is used only when its rings close.
 */

/** A country's boundary relation (admin_level=2 with an ISO 3166-1 code): its code and area ways. */
export interface BoundaryRelation {
  id: number;
  /** ISO 3166-1 alpha-2, upper case. */
  code: string;
  wayRefs: number[];
}

/** The roles of a boundary's way members that draw its area (an exclave's ring is an outer one). */
const AREA_ROLES = new Set(["outer", "inner", "", "exclave", "enclave"]);

/** The relation as a country's boundary, or null when it is not one. */
export function countryBoundaryRelation(relation: OsmRelation): BoundaryRelation | null {
  const tags = relation.tags;
  if (tags?.boundary !== "administrative" || tags.admin_level !== "2") return null;
  const code = [tags["ISO3166-1:alpha2"], tags["ISO3166-1"]].map((value) => value?.trim().toUpperCase()).find((value) => value && /^[A-Z]{2}$/.test(value));
  if (!code) return null;
  const wayRefs = [...new Set(relation.members.filter((member) => member.type === "way" && AREA_ROLES.has(member.role)).map((member) => member.ref))];
  return wayRefs.length > 0 ? { id: relation.id, code, wayRefs } : null;
}

/** How far from a point the neighbouring country is looked for, nearest first (km). */
const NEIGHBOUR_SEARCH_KM = [0.25, 0.5, 1, 2, 4, 8];
const NEIGHBOUR_SEARCH_BEARINGS = 16;
const KM_PER_DEGREE = 111.32;

/**
 * Where a point is, with the extract's complete boundaries drawn over the country-coder's:
 * - inside a complete boundary of country X: X;
 * - outside every complete boundary, where country-coder says one of those countries: the point
 *   is across the real border, in the country country-coder finds nearest around it (rings of
 *   samples out to a few km) among those without a complete boundary;
 * - elsewhere, country-coder's answer as it is.
 * The answer has countryCodesAt's shape (a territory's code first), for resolveCity.
 */
export class CountryBoundaries {
  constructor(private readonly areas: readonly { code: string; area: RingArea }[]) {}

  /** The countries whose boundary the extract has whole. */
  get codes(): string[] {
    return [...new Set(this.areas.map(({ code }) => code))].sort();
  }

  countryCodesAt = (lat: number, lng: number): string[] => {
    const drawn = countryCodesAt(lat, lng);
    if (this.areas.length === 0) return drawn;
    const inside = this.areas.find(({ area }) => area.contains(lat, lng))?.code;
    if (inside) return drawn.includes(inside) ? drawn : [inside];
    if (!drawn.some((code) => this.isComplete(code))) return drawn;
    return this.neighbourAt(lat, lng) ?? drawn;
  };

  private isComplete(code: string): boolean {
    return this.areas.some((area) => area.code === code);
  }

  /** The codes country-coder gives most often on the nearest ring of samples that reaches a country without a complete boundary. */
  private neighbourAt(lat: number, lng: number): string[] | null {
    const kmPerLngDegree = KM_PER_DEGREE * Math.max(0.01, Math.cos((lat * Math.PI) / 180));
    for (const km of NEIGHBOUR_SEARCH_KM) {
      const tally = new Map<string, { codes: string[]; count: number }>();
      for (let i = 0; i < NEIGHBOUR_SEARCH_BEARINGS; i++) {
        const bearing = (2 * Math.PI * i) / NEIGHBOUR_SEARCH_BEARINGS;
        const codes = countryCodesAt(lat + (km * Math.cos(bearing)) / KM_PER_DEGREE, lng + (km * Math.sin(bearing)) / kmPerLngDegree);
        if (codes.length === 0 || codes.some((code) => this.isComplete(code))) continue;
        const key = codes.join(" ");
        const entry = tally.get(key) ?? { codes, count: 0 };
        entry.count++;
        tally.set(key, entry);
      }
      let best: { codes: string[]; count: number } | undefined;
      for (const entry of tally.values()) if (!best || entry.count > best.count) best = entry;
      if (best) return best.codes;
    }
    return null;
  }
}

/**
 * The extract's complete country boundaries. `relations` are the boundary relations when the
 * caller already read them (countryBoundaryRelation over the file's relations); without them one
 * pass finds them. With none, nothing more is read; else a pass for their ways (up to the first
 * relation) and one for those ways' nodes (up to the first way). Memory: the boundaries' own ways
 * and nodes, nothing of the rest of the file.
 */
export async function readCountryBoundaries(file: string, relations?: readonly BoundaryRelation[]): Promise<CountryBoundaries> {
  const found = relations ?? (await boundaryRelationsOf(file));
  if (found.length === 0) return new CountryBoundaries([]);
  const wanted = new Set(found.flatMap((relation) => relation.wayRefs));
  const wayNodes = new Map<number, Float64Array>();
  await readWhile(file, { withTags: false, withInfo: false }, (element) => {
    if (element.type === "relation") return false;
    if (element.type === "way" && wanted.has(element.id)) wayNodes.set(element.id, Float64Array.from(element.refs));
    return true;
  });
  const nodeIds = new NodeIdList();
  for (const refs of wayNodes.values()) for (const ref of refs) nodeIds.push(ref);
  const coordinates = new NodeCoordinates(nodeIds.sortedDistinct());
  await readWhile(file, { withTags: false, withInfo: false }, (element) => {
    if (element.type !== "node") return false;
    coordinates.offer(element.id, element.lat, element.lon);
    return true;
  });
  const areas: { code: string; area: RingArea }[] = [];
  for (const relation of found) {
    const area = relationArea(relation, wayNodes, coordinates);
    if (area) areas.push({ code: relation.code, area });
  }
  return new CountryBoundaries(areas);
}

async function boundaryRelationsOf(file: string): Promise<BoundaryRelation[]> {
  const found: BoundaryRelation[] = [];
  await readOsmPbf(
    file,
    { withTags: true, withInfo: false },
    {
      element(element) {
        if (element.type !== "relation") return;
        const boundary = countryBoundaryRelation(element);
        if (boundary) found.push(boundary);
      },
    },
  );
  return found;
}

/** The area a relation's rings enclose, or null when a way or node is missing or a ring does not close. */
function relationArea(relation: BoundaryRelation, wayNodes: ReadonlyMap<number, Float64Array>, coordinates: NodeCoordinates): RingArea | null {
  const ways: Float64Array[] = [];
  for (const ref of relation.wayRefs) {
    const refs = wayNodes.get(ref);
    if (!refs) return null;
    ways.push(refs);
  }
  const rings = assembleRings(ways);
  if (!rings) return null;
  const points: Float64Array[] = [];
  for (const ring of rings) {
    const flat = new Float64Array(ring.length * 2);
    for (let i = 0; i < ring.length; i++) {
      const point = coordinates.get(ring[i]!);
      if (!point) return null;
      flat[2 * i] = point[0];
      flat[2 * i + 1] = point[1];
    }
    points.push(flat);
  }
  return new RingArea(points);
}

/** Stops a pass once the elements it wants are behind it (PBF: nodes, then ways, then relations). */
class EnoughRead extends Error {}

async function readWhile(file: string, options: DecodeOptions, keepReading: (element: OsmElement) => boolean): Promise<void> {
  try {
    await readOsmPbf(file, options, {
      element(element) {
        if (!keepReading(element)) throw new EnoughRead();
      },
    });
  } catch (error) {
    if (!(error instanceof EnoughRead)) throw error;
  }
}
