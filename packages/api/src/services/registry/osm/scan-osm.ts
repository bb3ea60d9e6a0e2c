import { loadGazetteer, type Gazetteer } from "@directory/db/gazetteer";
import type { ClaimProperty } from "@directory/db/enums";
import { CLAIM_VALUE_SCHEMAS } from "../../claims/claim-values";
import { SOURCE_PATTERN, type BoundingBox, type RegistryRecord, type RegistryScan } from "../registry-record";
import { classifyTags, type TagClass } from "./category-map";
import { resolveCity } from "./city-resolver";
import { osmConfidence } from "./confidence";
import { normalizeEmail, normalizePhone, normalizeWebsite, ownerLong, ownerShort, streetAddress, tagValue } from "./facts";
import { parseOpeningHours } from "./opening-hours";
import { assertOsmPbf, OsmFileError, readOsmPbf, type OsmElement, type OsmHeader } from "./pbf-reader";

export const DEFAULT_OSM_SOURCE = "openstreetmap";

export interface ScanOsmOptions {
  /** The claims' source (default "openstreetmap"); checked here so a bad one fails before the file is read. */
  source?: string;
  /** A gazetteer already loaded (tests, several files in one run); loaded once per scan otherwise. */
  gazetteer?: Gazetteer;
}

/** A named business element met in the first pass, waiting for its coordinates. */
interface Candidate {
  recordId: string;
  tags: Record<string, string>;
  category: string;
  /** Milliseconds since the epoch; undefined when the file carries no metadata. */
  timestamp: number | undefined;
  /** Known at once for a node; computed after the later passes for ways and relations. */
  point: { lat: number; lng: number } | null;
  /** Way: its nodes. Relation: its member nodes and the nodes of its member ways (after pass 2). */
  nodeRefs: number[];
  /** Relation only: member ways, whose nodes pass 2 finds. */
  wayRefs: number[];
}

/**
 * Reads an OSM PBF extract into registry records, without writing anything. Three passes at most,
 * because PBF stores nodes, then ways, then relations, and a way or relation names its nodes only
 * after they went by: pass 1 keeps the named business candidates and the ids they need; pass 2
 * reads those nodes' coordinates and the nodes of relations' member ways; pass 3 reads the latter's
 * coordinates. Memory grows with the candidates, never with the extract (no node table).
 */
export async function scanOsmExtract(file: string, options: ScanOsmOptions = {}): Promise<RegistryScan> {
  const source = options.source ?? DEFAULT_OSM_SOURCE;
  if (!SOURCE_PATTERN.test(source)) throw new Error(`Invalid source "${source}": use lowercase letters, digits, dots and dashes, at most 40 characters`);
  await assertOsmPbf(file);
  const skipped: Record<string, number> = {};
  const unmappedTags: Record<string, number> = {};
  const unparsedOpeningHours: Record<string, number> = {};
  const count = (counts: Record<string, number>, key: string) => (counts[key] = (counts[key] ?? 0) + 1);

  // An edit is never later than now: a clock gone wrong, or a forged file, does not date a claim in the future.
  const startedAt = Date.now();
  const notLater = (timestamp: number) => Math.min(timestamp, startedAt);

  // Pass 1: the header, the candidates, the newest edit.
  let header: OsmHeader | undefined;
  let elements = 0;
  let newestEdit = 0;
  const candidates: Candidate[] = [];
  const candidateIds = new Set<string>();
  await readOsmPbf(
    file,
    { withTags: true, withInfo: true },
    {
      header(item) {
        header ??= item;
      },
      element(element, offset) {
        elements++;
        const edited = element.info?.timestamp;
        const timestamp = edited === undefined ? undefined : notLater(edited);
        if (timestamp !== undefined && timestamp > newestEdit) newestEdit = timestamp;
        const tags = element.tags;
        if (!tags?.name?.trim()) return;
        const kind = classifyTags(tags);
        if (!kind) return;
        if (kind.kind !== "business") return countNotBusiness(kind);
        const candidate = candidateOf(element, tags, kind.category, timestamp);
        // Two records with one id would be one business written twice: the file is wrong, say where.
        if (candidateIds.has(candidate.recordId)) throw new OsmFileError(file, offset, `${element.type} ${element.id} appears twice`);
        candidateIds.add(candidate.recordId);
        candidates.push(candidate);
      },
    },
  );
  function countNotBusiness(kind: Exclude<TagClass, { kind: "business" }>) {
    if (kind.kind === "not-business") return void count(skipped, "not a business");
    count(skipped, "unmapped category");
    count(unmappedTags, kind.tag);
  }
  if (!header) throw new Error(`Not an OSM PBF file: ${file} (no OSMHeader block)`);

  await locateCandidates(file, candidates);

  const gazetteer = options.gazetteer ?? loadGazetteer();
  const fallbackTimestamp = header.osmosis_replication_timestamp ? notLater(header.osmosis_replication_timestamp * 1000) : newestEdit || undefined;
  const newest = new Date(newestEdit || fallbackTimestamp || 0);
  const records: RegistryRecord[] = [];
  for (const candidate of candidates) {
    const point = candidate.point;
    if (!point) {
      count(skipped, "no coordinates");
      continue;
    }
    const timestamp = candidate.timestamp ?? fallbackTimestamp;
    if (timestamp === undefined) {
      count(skipped, "no timestamp");
      continue;
    }
    const city = resolveCity(gazetteer, point.lat, point.lng, tagValue(candidate.tags, "addr:city"));
    if (!city) {
      count(skipped, "no city within 25 km");
      continue;
    }
    const name = ownerShort(candidate.tags.name ?? "");
    if (!name) {
      count(skipped, "empty name");
      continue;
    }
    const facts = contactFacts(candidate.tags, city.countryCode, skipped, unparsedOpeningHours);
    // The write path's own rules are the last gate: a value it would refuse is dropped here and
    // counted, so one odd tag cannot fail a whole import batch.
    for (const property of Object.keys(facts) as (keyof typeof facts)[]) {
      const checked = CLAIM_VALUE_SCHEMAS[property].safeParse(facts[property]);
      if (checked.success) facts[property] = checked.data;
      else {
        delete facts[property];
        count(skipped, `invalid ${property} (fact dropped)`);
      }
    }
    const required = { name, category: candidate.category, coordinates: { lat: round7(point.lat), lng: round7(point.lng) } };
    const invalid = (Object.keys(required) as (keyof typeof required)[]).find(
      (property) => !CLAIM_VALUE_SCHEMAS[property].safeParse(required[property]).success,
    );
    if (invalid) {
      count(skipped, `invalid ${invalid}`);
      continue;
    }
    const observedAt = new Date(timestamp);
    records.push({
      recordId: candidate.recordId,
      observedAt,
      confidence: osmConfidence({
        hasAddress: "address" in facts,
        hasPhone: "phone" in facts,
        hasWebsite: "website" in facts,
        hasOpeningHours: "openingHours" in facts,
        observedAt,
        newestEdit: newest,
      }),
      city,
      facts: { ...required, ...facts },
    });
  }
  return { area: areaOf(header, candidates), records, elements, skipped, unmappedTags, unparsedOpeningHours };
}

function candidateOf(element: OsmElement, tags: Record<string, string>, category: string, timestamp: number | undefined): Candidate {
  const recordId = `${element.type}/${element.id}`;
  const base = { recordId, tags, category, timestamp, point: null, nodeRefs: [], wayRefs: [] };
  if (element.type === "node") return { ...base, point: { lat: element.lat, lng: element.lon } };
  if (element.type === "way") return { ...base, nodeRefs: element.refs };
  // A multipolygon's place is its outer ring; other relations are placed by all their members.
  const outer = element.members.filter((member) => member.role === "outer");
  const members = outer.length > 0 ? outer : element.members;
  return {
    ...base,
    nodeRefs: members.filter((member) => member.type === "node").map((member) => member.ref),
    wayRefs: members.filter((member) => member.type === "way").map((member) => member.ref),
  };
}

/** Passes 2 and 3: the coordinates of the nodes the ways and relations among the candidates need. */
async function locateCandidates(file: string, candidates: Candidate[]): Promise<void> {
  const placed = candidates.filter((candidate) => !candidate.point);
  if (placed.length === 0) return;
  const wantedWays = new Map<number, number[] | null>();
  for (const candidate of placed) for (const ref of candidate.wayRefs) wantedWays.set(ref, null);
  const coordinates = new Map<number, [number, number] | null>();
  const want = (refs: readonly number[]) => refs.forEach((ref) => coordinates.has(ref) || coordinates.set(ref, null));
  for (const candidate of placed) want(candidate.nodeRefs);

  const noTags = { withTags: false, withInfo: false };
  await readOsmPbf(file, noTags, {
    element(element) {
      if (element.type === "node" && coordinates.has(element.id)) coordinates.set(element.id, [element.lat, element.lon]);
      else if (element.type === "way" && wantedWays.has(element.id)) wantedWays.set(element.id, element.refs);
    },
  });
  // The member ways' nodes went by before the ways themselves: one more pass, only when needed.
  const missing: number[] = [];
  for (const refs of wantedWays.values()) for (const ref of refs ?? []) if (!coordinates.has(ref)) missing.push(ref);
  if (missing.length > 0) {
    want(missing);
    await readOsmPbf(file, noTags, {
      element(element) {
        if (element.type === "node" && coordinates.get(element.id) === null) coordinates.set(element.id, [element.lat, element.lon]);
      },
    });
  }
  for (const candidate of placed) {
    const refs = [...candidate.nodeRefs, ...candidate.wayRefs.flatMap((ref) => wantedWays.get(ref) ?? [])];
    candidate.point = centroid(refs, coordinates);
  }
}

/**
 * The mean of the distinct nodes' coordinates (a closed way repeats its first node). Nodes missing
 * from a clipped extract are left out; with none left there is no point. Extracts do not cross the
 * antimeridian often enough to justify more.
 */
function centroid(refs: readonly number[], coordinates: ReadonlyMap<number, [number, number] | null>): { lat: number; lng: number } | null {
  let lat = 0;
  let lng = 0;
  let n = 0;
  for (const ref of new Set(refs)) {
    const point = coordinates.get(ref);
    if (!point) continue;
    lat += point[0];
    lng += point[1];
    n++;
  }
  return n === 0 ? null : { lat: lat / n, lng: lng / n };
}

/** The facts besides name, category and coordinates, and what the confidence policy counts. */
function contactFacts(tags: Record<string, string>, countryCode: string, skipped: Record<string, number>, unparsed: Record<string, number>) {
  const facts: Partial<Record<Exclude<ClaimProperty, "name" | "category" | "coordinates">, unknown>> = {};
  const dropped = (property: string) => (skipped[`invalid ${property} (fact dropped)`] = (skipped[`invalid ${property} (fact dropped)`] ?? 0) + 1);
  const phone = tagValue(tags, "phone", "contact:phone", "contact:mobile");
  if (phone) {
    const normalized = normalizePhone(phone, countryCode);
    if (normalized) facts.phone = normalized;
    else dropped("phone");
  }
  const website = tagValue(tags, "website", "contact:website");
  if (website) {
    const normalized = normalizeWebsite(website);
    if (normalized) facts.website = normalized;
    else dropped("website");
  }
  const email = tagValue(tags, "email", "contact:email");
  if (email) {
    const normalized = normalizeEmail(email);
    if (normalized) facts.email = normalized;
    else dropped("email");
  }
  const address = streetAddress(tags);
  if (address) facts.address = address;
  const postalCode = tags["addr:postcode"] ? ownerShort(tags["addr:postcode"]) : null;
  if (postalCode) facts.postalCode = postalCode;
  const description = tags.description ? ownerLong(tags.description) : null;
  if (description) facts.description = description;
  const hoursText = tags.opening_hours ? ownerShort(tags.opening_hours) : null;
  if (hoursText) {
    facts.openingHoursText = hoursText;
    const hours = parseOpeningHours(hoursText);
    if (hours === null) unparsed[hoursText] = (unparsed[hoursText] ?? 0) + 1;
    else if (hours.length > 0) facts.openingHours = hours;
  }
  return facts;
}

function round7(degrees: number): number {
  return Math.round(degrees * 1e7) / 1e7;
}

/** The header's bounding box (nanodegrees), else the extent of the candidates' points. */
function areaOf(header: OsmHeader, candidates: readonly Candidate[]): BoundingBox | null {
  const bbox = header.bbox;
  if (bbox && [bbox.left, bbox.right, bbox.top, bbox.bottom].every(Number.isFinite) && bbox.left < bbox.right && bbox.bottom < bbox.top) {
    return { minLat: round7(bbox.bottom * 1e-9), minLng: round7(bbox.left * 1e-9), maxLat: round7(bbox.top * 1e-9), maxLng: round7(bbox.right * 1e-9) };
  }
  let area: BoundingBox | null = null;
  for (const { point } of candidates) {
    if (!point) continue;
    area = area
      ? {
          minLat: Math.min(area.minLat, point.lat),
          minLng: Math.min(area.minLng, point.lng),
          maxLat: Math.max(area.maxLat, point.lat),
          maxLng: Math.max(area.maxLng, point.lng),
        }
      : { minLat: point.lat, minLng: point.lng, maxLat: point.lat, maxLng: point.lng };
  }
  return area && { minLat: round7(area.minLat), minLng: round7(area.minLng), maxLat: round7(area.maxLat), maxLng: round7(area.maxLng) };
}
