import { loadGazetteer, type Gazetteer } from "@directory/db/gazetteer";
import { RecordIdSet } from "../record-id-set";
import { SOURCE_PATTERN, type BoundingBox, type RegistryFeed, type RegistryRecord, type RegistrySurvey, type ScanCounts } from "../registry-record";
import { BusinessNodes, findContainers, type Containers } from "./containing-areas";
import { countryBoundaryRelation, readCountryBoundaries, type BoundaryRelation, type CountryBoundaries } from "./country-boundaries";
import { centroid, NodeCoordinates, NodeIdList } from "./node-coordinates";
import { emptyCounts, osmCategory, osmRecord, round7, type OsmRecordContext } from "./osm-record";
import { assertOsmPbf, OsmFileError, readOsmPbf, type OsmHeader, type OsmRelation } from "./pbf-reader";

export const DEFAULT_OSM_SOURCE = "openstreetmap";

export interface ScanOsmOptions {
  /** The claims' source (default "openstreetmap"); checked here so a bad one fails before the file is read. */
  source?: string;
  /** A gazetteer already loaded (tests, several files in one run); loaded once per feed otherwise. */
  gazetteer?: Gazetteer;
}

/** A relation among the businesses: few, so held whole until the pass that places it. */
interface RelationCandidate {
  id: number;
  tags: Record<string, string>;
  category: string;
  timestamp: number | undefined;
  nodeRefs: number[];
  wayRefs: number[];
}

/**
 * An OSM PBF extract as a registry feed. PBF stores nodes, then ways, then relations, and a way or
 * relation names its nodes only after they went by, so:
 * - the survey (one pass) reads the header, counts, checks the whole file, lists the business
 *   candidates' ids, the newest edit, and the node ids the candidate ways and relations need
 *   (one number each) — nothing is written before a bad file has failed;
 * - when a business node lacks an address or a business way could be its twin, one pass finds the
 *   buildings around the business nodes (containing-areas.ts), once per feed;
 * - each stream is one pass giving every node candidate's record as its block goes by, keeping the
 *   wanted nodes' coordinates, and every way candidate's record when the way comes; then, only when
 *   relations are among the businesses, one pass more for the nodes of their member ways.
 * Memory grows with the ways' and relations' nodes (24 bytes a node), the candidate ids (8
 * bytes each) and, for the buildings pass, the business nodes' positions and the nodes near them
 * (containing-areas.ts), never with the extract's size or its records.
 */
export function osmRegistryFeed(file: string, options: ScanOsmOptions = {}): RegistryFeed {
  const source = options.source ?? DEFAULT_OSM_SOURCE;
  let surveyed: Surveyed | undefined;
  let surveying: Promise<RegistrySurvey> | undefined;
  return {
    // Read once: the CLI reports it before the import itself asks again.
    survey() {
      surveying ??= (async () => {
        if (!SOURCE_PATTERN.test(source)) throw new Error(`Invalid source "${source}": use lowercase letters, digits, dots and dashes, at most 40 characters`);
        await assertOsmPbf(file);
        surveyed = await surveyExtract(file);
        return surveyed.survey;
      })();
      return surveying;
    },
    async stream(take, counts) {
      if (!surveyed) throw new Error("osmRegistryFeed: survey() comes before stream()");
      if (surveyed.businessNodes) {
        surveyed.containers = await findContainers(file, surveyed.businessNodes, surveyed.survey.listed, surveyed.wayNodes);
        surveyed.businessNodes = undefined;
      }
      // The extract's own borders, when it holds whole ones, file a business by the side it is on.
      surveyed.boundaries ??= await readCountryBoundaries(file, surveyed.boundaryRelations);
      await streamRecords(file, surveyed, options.gazetteer ?? loadGazetteer(), take, counts);
    },
  };
}

interface Surveyed {
  survey: RegistrySurvey;
  context: Omit<OsmRecordContext, "gazetteer">;
  /** When the survey began: no edit is dated later. */
  startedAt: number;
  /** Nodes of the candidate ways and the candidate relations' own node members, sorted. */
  wayNodes: Float64Array;
  /** Member ways of the candidate relations. */
  relationWays: Set<number>;
  relations: RelationCandidate[];
  /** The business nodes' positions, until the pass that finds the buildings around them; none when it is not needed. */
  businessNodes: BusinessNodes | undefined;
  containers: Containers | undefined;
  /** Country boundary relations (admin_level=2), whole or not: readCountryBoundaries keeps the whole ones. */
  boundaryRelations: BoundaryRelation[];
  boundaries?: CountryBoundaries;
}

async function surveyExtract(file: string): Promise<Surveyed> {
  const counts = emptyCounts();
  // An edit is never later than now: a clock gone wrong, or a forged file, does not date a claim in the future.
  const startedAt = Date.now();
  const notLater = (timestamp: number) => Math.min(timestamp, startedAt);
  let header: OsmHeader | undefined;
  let elements = 0;
  let candidates = 0;
  let newestEdit = 0;
  const extent = { minLat: Infinity, minLng: Infinity, maxLat: -Infinity, maxLng: -Infinity };
  const listed = new RecordIdSet();
  const wayNodes = new NodeIdList();
  const relationWays = new Set<number>();
  const relations: RelationCandidate[] = [];
  const businessNodes = new BusinessNodes();
  const boundaryRelations: BoundaryRelation[] = [];
  let businessWays = 0;
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
        if (element.type === "node") {
          extent.minLat = Math.min(extent.minLat, element.lat);
          extent.maxLat = Math.max(extent.maxLat, element.lat);
          extent.minLng = Math.min(extent.minLng, element.lon);
          extent.maxLng = Math.max(extent.maxLng, element.lon);
        }
        if (element.type === "relation") {
          const boundary = countryBoundaryRelation(element);
          if (boundary) boundaryRelations.push(boundary);
        }
        const category = osmCategory(element.tags, counts);
        if (category === null) return;
        // Two records with one id would be one business written twice: the file is wrong, say where.
        if (!listed.addNumbered(element.type, element.id)) throw new OsmFileError(file, offset, `${element.type} ${element.id} appears twice`);
        candidates++;
        if (element.type === "node") businessNodes.push(element.id, element.lat, element.lon, element.tags!, category);
        else if (element.type === "way") {
          businessWays++;
          for (const ref of element.refs) wayNodes.push(ref);
        } else if (element.type === "relation") {
          const { nodeRefs, wayRefs } = placingMembers(element);
          for (const ref of nodeRefs) wayNodes.push(ref);
          for (const ref of wayRefs) relationWays.add(ref);
          relations.push({ id: element.id, tags: element.tags!, category, timestamp, nodeRefs, wayRefs });
        }
      },
    },
  );
  if (!header) throw new Error(`Not an OSM PBF file: ${file} (no OSMHeader block)`);
  const fallbackTimestamp = header.osmosis_replication_timestamp ? notLater(header.osmosis_replication_timestamp * 1000) : newestEdit || undefined;
  const newest = new Date(newestEdit || fallbackTimestamp || 0);
  const area = headerArea(header) ?? (elements > 0 && extent.minLat <= extent.maxLat ? roundedArea(extent) : null);
  return {
    survey: {
      area,
      elements,
      candidates,
      listed,
      currentAt: fallbackTimestamp === undefined ? null : new Date(fallbackTimestamp),
      skipped: counts.skipped,
      unmappedTags: counts.unmappedTags,
      unparsedOpeningHours: {},
    },
    context: { fallbackTimestamp, newestEdit: newest },
    startedAt,
    wayNodes: wayNodes.sortedDistinct(),
    relationWays,
    relations,
    businessNodes: businessNodes.size > 0 && (businessNodes.lackingAddress > 0 || businessWays > 0) ? businessNodes : undefined,
    containers: undefined,
    boundaryRelations,
  };
}

/** A multipolygon's place is its outer ring; other relations are placed by all their members. */
function placingMembers(relation: OsmRelation): { nodeRefs: number[]; wayRefs: number[] } {
  const outer = relation.members.filter((member) => member.role === "outer");
  const members = outer.length > 0 ? outer : relation.members;
  return {
    nodeRefs: members.filter((member) => member.type === "node").map((member) => member.ref),
    wayRefs: members.filter((member) => member.type === "way").map((member) => member.ref),
  };
}

async function streamRecords(
  file: string,
  surveyed: Surveyed,
  gazetteer: Gazetteer,
  take: (records: RegistryRecord[]) => Promise<void>,
  counts: ScanCounts,
): Promise<void> {
  const { listed } = surveyed.survey;
  const context: OsmRecordContext = { ...surveyed.context, gazetteer, countryCodesAt: surveyed.boundaries?.countryCodesAt };
  const scratch = emptyCounts(); // the survey counted what is not a business
  const wayCoordinates = new NodeCoordinates(surveyed.wayNodes);
  const memberWays = new Map<number, Float64Array>();
  let pending: RegistryRecord[] = [];
  const add = (record: RegistryRecord | null) => record && pending.push(record);
  const flush = async () => {
    if (pending.length === 0) return;
    const records = pending;
    pending = [];
    await take(records);
  };
  const candidate = (type: string, id: number, tags: Record<string, string> | undefined): string | null =>
    tags?.name !== undefined && listed.hasNumbered(type, id) ? osmCategory(tags, scratch) : null;

  await readOsmPbf(
    file,
    { withTags: true, withInfo: true },
    {
      element(element) {
        if (element.type === "relation") return;
        const timestamp = element.info?.timestamp === undefined ? undefined : Math.min(element.info.timestamp, surveyed.startedAt);
        if (element.type === "node") {
          wayCoordinates.offer(element.id, element.lat, element.lon);
          const category = candidate("node", element.id, element.tags);
          if (category === null) return;
          const point = { lat: element.lat, lng: element.lon };
          const { twin, address: inheritedAddress } = surveyed.containers?.byNode.get(element.id) ?? {};
          add(osmRecord({ recordId: `node/${element.id}`, tags: element.tags!, category, timestamp, point, twin, inheritedAddress }, context, counts));
          return;
        }
        if (surveyed.relationWays.has(element.id)) memberWays.set(element.id, Float64Array.from(element.refs));
        // A node inside it stands for the same business: the node's record carries its id and facts.
        if (surveyed.containers?.absorbedWays.has(element.id)) return;
        const category = candidate("way", element.id, element.tags);
        if (category === null) return;
        const point = centroid(element.refs, [wayCoordinates]);
        add(osmRecord({ recordId: `way/${element.id}`, tags: element.tags!, category, timestamp, point }, context, counts));
      },
      blockDone: flush,
    },
  );
  await flush();
  if (surveyed.relations.length === 0) return;

  // The member ways' nodes went by before the ways themselves: one more pass, for their coordinates only.
  const memberNodes = new NodeIdList();
  for (const refs of memberWays.values()) for (const ref of refs) memberNodes.push(ref);
  const memberCoordinates = new NodeCoordinates(memberNodes.sortedDistinct());
  await readOsmPbf(
    file,
    { withTags: false, withInfo: false },
    {
      element(element) {
        if (element.type === "node") memberCoordinates.offer(element.id, element.lat, element.lon);
      },
    },
  );
  for (const relation of surveyed.relations) {
    const refs = [...relation.nodeRefs, ...relation.wayRefs.flatMap((ref) => [...(memberWays.get(ref) ?? [])])];
    const point = centroid(refs, [wayCoordinates, memberCoordinates]);
    add(osmRecord({ recordId: `relation/${relation.id}`, ...relation, point }, context, counts));
    if (pending.length >= 500) await flush();
  }
  await flush();
}

function roundedArea(area: BoundingBox): BoundingBox {
  return { minLat: round7(area.minLat), minLng: round7(area.minLng), maxLat: round7(area.maxLat), maxLng: round7(area.maxLng) };
}

/** The header's bounding box (nanodegrees), when it has a sane one. */
function headerArea(header: OsmHeader): BoundingBox | null {
  const bbox = header.bbox;
  if (!bbox || ![bbox.left, bbox.right, bbox.top, bbox.bottom].every(Number.isFinite) || bbox.left >= bbox.right || bbox.bottom >= bbox.top) return null;
  return roundedArea({ minLat: bbox.bottom * 1e-9, minLng: bbox.left * 1e-9, maxLat: bbox.top * 1e-9, maxLng: bbox.right * 1e-9 });
}
