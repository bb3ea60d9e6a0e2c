/** A licence notice that must travel with data shown from an open source. */
export interface DataAttribution {
  text: string;
  licence: string;
  url: string;
}

export const OPENSTREETMAP_ATTRIBUTION: DataAttribution = {
  text: "Data © OpenStreetMap contributors, available under the Open Database Licence",
  licence: "ODbL-1.0",
  url: "https://www.openstreetmap.org/copyright",
};

/**
 * The licences of the data the service serves, for the documents that describe it (the OpenAPI
 * description, llms.txt): the GeoNames gazetteer behind every city, and each source we import.
 */
export const DATA_LICENCES_STATEMENT =
  "Data: city names, regions and coordinates from GeoNames (CC BY 4.0, https://www.geonames.org); " +
  `imported listings © OpenStreetMap contributors (ODbL 1.0, ${OPENSTREETMAP_ATTRIBUTION.url}). ` +
  "Each profile, listing page, agent.json, feed page and export names the notices its facts owe in attributions.";

/** OSM element ids, whatever --source name the import ran under. */
const OSM_RECORD_ID = /^(?:node|way|relation)\/\d+$/;

/**
 * The one answer to "which notices do these facts owe": given the records they came from (a claim's
 * recordId, a registry record's id), the attributions of their sources, once each. ODbL requires
 * the OpenStreetMap line wherever its data is shown; facts with no record (the owner's, an admin's,
 * the demo world's) owe none. Every door calls this, through attribution-reads.ts for many businesses.
 */
export function attributionsFor(records: readonly { recordId: string | null }[]): DataAttribution[] {
  return records.some((record) => record.recordId !== null && OSM_RECORD_ID.test(record.recordId)) ? [OPENSTREETMAP_ATTRIBUTION] : [];
}

/**
 * The page of a fact's record at its source, so a reader can check it there: an OpenStreetMap
 * element's (https://www.openstreetmap.org/node/123); null for a record id of no known source, or none.
 */
export function recordUrlOf(recordId: string | null): string | null {
  return recordId !== null && OSM_RECORD_ID.test(recordId) ? `https://www.openstreetmap.org/${recordId}` : null;
}
