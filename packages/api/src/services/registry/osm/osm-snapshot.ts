import type { OsmChange, OsmChangeFile } from "./osm-change-file";
import { osmElementKey } from "./osm-change-file";
import { emptyCounts, osmCategory } from "./osm-record";
import { readOsmPbf, type OsmElement, type OsmHeader } from "./pbf-reader";
import { OsmPbfWriter } from "./pbf-writer";

/*
 * A source's snapshot with change files applied, written as a new snapshot: every element of the
 * old one, replaced where a file modifies it, left out where one deletes it, and the created ones
 * put in their place in the order (type, then id). Importing the new snapshot is then exactly a
 * re-import of the newer data, so what an element's change means for businesses (a node moved
 * under a shop's building, an address on a building, a duplicate pair split) is decided by the one
 * import, not by a second set of rules here.
 */

export interface SnapshotChangeCounts {
  /** Changes of elements that neither were nor are a business (a road, a moved node of a building...). */
  ignored: number;
  /** Changes of elements that were or are businesses. */
  businessElements: number;
}

const TYPE_ORDER: Record<OsmElement["type"], number> = { node: 0, way: 1, relation: 2 };

/** The changes of several files as one: a later file's change of an element wins. */
export function mergedChanges(files: readonly OsmChangeFile[]): Map<string, OsmChange> {
  const merged = new Map<string, OsmChange>();
  for (const file of files) for (const [key, change] of file.changes) merged.set(key, change);
  return merged;
}

export async function writeChangedSnapshot(
  base: string,
  changes: ReadonlyMap<string, OsmChange>,
  newestChangeAt: number | undefined,
  out: string,
): Promise<SnapshotChangeCounts> {
  const scratch = emptyCounts();
  const isBusiness = (element: OsmElement | null | undefined) => !!element && osmCategory(element.tags, scratch) !== null;
  // Created elements (and modified ones the snapshot did not hold), in file order.
  const created = [...changes.values()]
    .map((change) => change.element)
    .filter((element): element is OsmElement => element !== null)
    .sort((a, b) => TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || a.id - b.id);
  const inBase = new Set<string>();
  let header: OsmHeader | undefined;
  let writer: OsmPbfWriter | undefined;
  let next = 0;
  let businessElements = 0;
  let queue: OsmElement[] = [];
  let previous: OsmElement | undefined;
  const writeCreatedBefore = async (element: OsmElement | null) => {
    while (next < created.length) {
      const candidate = created[next]!;
      const order = element ? TYPE_ORDER[candidate.type] - TYPE_ORDER[element.type] || candidate.id - element.id : -1;
      if (order >= 0) return;
      next++;
      if (!inBase.has(osmElementKey(candidate.type, candidate.id))) await writer!.write(candidate);
    }
  };
  const drain = async () => {
    const elements = queue;
    queue = [];
    for (const element of elements) {
      // Created elements go in by id: that needs the snapshot in order, as extracts are published.
      if (previous && (TYPE_ORDER[element.type] - TYPE_ORDER[previous.type] || element.id - previous.id) <= 0) {
        throw new Error(
          `OSM snapshot ${base} is not sorted by type then id (${element.type} ${element.id} after ${previous.type} ${previous.id}): sort it with \`osmium sort\` and import it again`,
        );
      }
      previous = element;
      await writeCreatedBefore(element);
      const key = osmElementKey(element.type, element.id);
      const change = changes.get(key);
      if (!change) {
        await writer!.write(element);
        continue;
      }
      inBase.add(key);
      if (isBusiness(element) || isBusiness(change.element)) businessElements++;
      if (change.element) await writer!.write(change.element);
    }
  };
  try {
    await readOsmPbf(
      base,
      { withTags: true, withInfo: true },
      {
        header(item) {
          header ??= item;
          writer ??= new OsmPbfWriter(out, { bbox: headerBbox(item), replicationTimestamp: newerOf(item.osmosis_replication_timestamp, newestChangeAt) });
        },
        element(element) {
          queue.push(element);
        },
        blockDone: drain,
      },
    );
    if (!writer || !header) throw new Error(`OSM snapshot ${base} has no header block`);
    await drain();
    await writeCreatedBefore(null);
    await writer.close();
  } catch (error) {
    writer?.destroy();
    throw error;
  }
  for (const [key, change] of changes) if (!inBase.has(key) && isBusiness(change.element)) businessElements++;
  return { ignored: changes.size - businessElements, businessElements };
}

function headerBbox(header: OsmHeader) {
  const bbox = header.bbox;
  if (!bbox) return null;
  return { minLat: bbox.bottom * 1e-9, minLng: bbox.left * 1e-9, maxLat: bbox.top * 1e-9, maxLng: bbox.right * 1e-9 };
}

/** The snapshot is as current as the newer of its own time and its newest change (seconds). */
function newerOf(replicationSeconds: number | undefined, newestChangeAt: number | undefined): number | undefined {
  const changeSeconds = newestChangeAt === undefined ? undefined : Math.floor(newestChangeAt / 1000);
  if (replicationSeconds === undefined) return changeSeconds;
  if (changeSeconds === undefined) return replicationSeconds;
  return Math.max(replicationSeconds, changeSeconds);
}
