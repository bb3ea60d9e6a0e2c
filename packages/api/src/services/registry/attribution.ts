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

/** OSM element ids, whatever --source name the import ran under. */
const OSM_RECORD_ID = /^(?:node|way|relation)\/\d+$/;

/** The notices owed for a profile's facts: ODbL requires the OpenStreetMap line wherever its data is shown. */
export function attributionsFor(claims: readonly { recordId: string | null }[]): DataAttribution[] {
  return claims.some((claim) => claim.recordId !== null && OSM_RECORD_ID.test(claim.recordId)) ? [OPENSTREETMAP_ATTRIBUTION] : [];
}
