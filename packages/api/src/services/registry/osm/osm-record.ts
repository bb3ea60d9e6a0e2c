import type { Gazetteer } from "@directory/db/gazetteer";
import type { ClaimProperty } from "@directory/db/enums";
import { CLAIM_VALUE_SCHEMAS } from "../../claims/claim-values";
import type { RegistryRecord, ScanCounts } from "../registry-record";
import { addressTags, borrowFacts, type FactSource } from "./borrowed-facts";
import { classifyTags } from "./category-map";
import { resolveCity } from "./city-resolver";
import { osmConfidence } from "./confidence";
import { normalizeEmail, normalizePhone, normalizeWebsite, ownerLong, ownerShort, streetAddress, tagValue } from "./facts";
import { parseOpeningHours } from "./opening-hours";

/*
 * One OpenStreetMap element into one registry record: THE conversion, shared by the extract import
 * (osm-feed.ts) and whatever else reads OSM elements (change files), so a business reads the same
 * whichever way it came.
 */

/** A named business element, with its place once known. */
export interface OsmCandidate {
  recordId: string;
  tags: Readonly<Record<string, string>>;
  /** A category slug (osmCategory). */
  category: string;
  /** Milliseconds since the epoch, never later than the read began; undefined when the file carries no metadata. */
  timestamp: number | undefined;
  /** A node's own point; a way's or relation's centroid (null when none of its nodes is known). */
  point: { lat: number; lng: number } | null;
  /** The same business drawn again as the way around it (containing-areas.ts): its facts fill what this one lacks, its id becomes a second record id. */
  twin?: FactSource;
  /** For an element without addr:* tags, the building or area around it that has some: its address becomes this one's. */
  inheritedAddress?: FactSource;
}

/** What a conversion needs beyond the element: the same for every element of one file. */
export interface OsmRecordContext {
  gazetteer: Gazetteer;
  /** The timestamp of an element without one: the file's replication time, else its newest edit. */
  fallbackTimestamp: number | undefined;
  /** The newest edit in the file: "now" for the confidence policy (confidence.ts). */
  newestEdit: Date;
  /** The country codes of a point (countryCodesAt's shape), when the extract's own borders say better (CountryBoundaries). */
  countryCodesAt?: (lat: number, lng: number) => string[];
}

export function emptyCounts(): ScanCounts {
  return { skipped: {}, unmappedTags: {}, unparsedOpeningHours: {} };
}

export function countOne(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/**
 * The category of a named business element, or null (counted: "not a business", or an unmapped
 * category with its tag). Elements without a name are not counted: they are not candidates at all.
 */
export function osmCategory(tags: Readonly<Record<string, string>> | undefined, counts: ScanCounts): string | null {
  if (!tags?.name?.trim()) return null;
  const kind = classifyTags(tags);
  if (!kind) return null;
  if (kind.kind === "business") return kind.category;
  if (kind.kind === "not-business") countOne(counts.skipped, "not a business");
  else {
    countOne(counts.skipped, "unmapped category");
    countOne(counts.unmappedTags, kind.tag);
  }
  return null;
}

/** The record of a candidate, or null when it cannot be one (the reason counted in counts.skipped). */
export function osmRecord(candidate: OsmCandidate, context: OsmRecordContext, counts: ScanCounts): RegistryRecord | null {
  const { skipped } = counts;
  const skip = (reason: string) => {
    countOne(skipped, reason);
    return null;
  };
  const point = candidate.point;
  if (!point) return skip("no coordinates");
  const timestamp = candidate.timestamp ?? context.fallbackTimestamp;
  if (timestamp === undefined) return skip("no timestamp");
  const city = resolveCity(
    context.gazetteer,
    point.lat,
    point.lng,
    tagValue(addressTags(candidate.tags, candidate.twin, candidate.inheritedAddress), "addr:city"),
    context.countryCodesAt,
  );
  if (!city) return skip("no city within 25 km");
  const name = ownerShort(candidate.tags.name ?? "");
  if (!name) return skip("empty name");
  const facts = contactFacts(candidate.tags, city.countryCode, counts);
  const borrowed = borrowFacts(facts, (tags) => contactFacts(tags, city.countryCode, counts), candidate.twin, candidate.inheritedAddress);
  // The write path's own rules are the last gate: a value it would refuse is dropped here and
  // counted, so one odd tag cannot fail a whole import batch.
  for (const property of Object.keys(facts) as (keyof typeof facts)[]) {
    const checked = CLAIM_VALUE_SCHEMAS[property].safeParse(facts[property]);
    if (checked.success) facts[property] = checked.data;
    else {
      delete facts[property];
      countOne(skipped, `invalid ${property} (fact dropped)`);
    }
  }
  const required = { name, category: candidate.category, coordinates: { lat: round7(point.lat), lng: round7(point.lng) } };
  const invalid = (Object.keys(required) as (keyof typeof required)[]).find((property) => !CLAIM_VALUE_SCHEMAS[property].safeParse(required[property]).success);
  if (invalid) return skip(`invalid ${invalid}`);
  const observedAt = new Date(timestamp);
  return {
    recordId: candidate.recordId,
    observedAt,
    confidence: osmConfidence({
      hasAddress: "address" in facts,
      hasPhone: "phone" in facts,
      hasWebsite: "website" in facts,
      hasOpeningHours: "openingHours" in facts,
      observedAt,
      newestEdit: context.newestEdit,
    }),
    city,
    facts: { ...required, ...facts },
    ...(Object.keys(borrowed).length > 0 ? { factRecordIds: borrowed } : {}),
    ...(candidate.twin ? { alsoRecordIds: [candidate.twin.recordId] } : {}),
  };
}

/** The facts besides name, category and coordinates, and what the confidence policy counts. */
function contactFacts(tags: Readonly<Record<string, string>>, countryCode: string, counts: ScanCounts) {
  const facts: Partial<Record<Exclude<ClaimProperty, "name" | "category" | "coordinates">, unknown>> = {};
  const dropped = (property: string) => countOne(counts.skipped, `invalid ${property} (fact dropped)`);
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
  const address = streetAddress(tags, countryCode);
  if (address) facts.address = address;
  const postalCode = tags["addr:postcode"] ? ownerShort(tags["addr:postcode"]) : null;
  if (postalCode) facts.postalCode = postalCode;
  const description = tags.description ? ownerLong(tags.description) : null;
  if (description) facts.description = description;
  const hoursText = tags.opening_hours ? ownerShort(tags.opening_hours) : null;
  if (hoursText) {
    facts.openingHoursText = hoursText;
    const hours = parseOpeningHours(hoursText);
    if (hours === null) countOne(counts.unparsedOpeningHours, hoursText);
    else if (hours.length > 0) facts.openingHours = hours;
  }
  return facts;
}

export function round7(degrees: number): number {
  return Math.round(degrees * 1e7) / 1e7;
}
