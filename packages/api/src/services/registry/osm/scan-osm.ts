import { addCounts, type RegistryScan } from "../registry-record";
import { osmRegistryFeed, type ScanOsmOptions } from "./osm-feed";
import { emptyCounts } from "./osm-record";

export { DEFAULT_OSM_SOURCE, type ScanOsmOptions } from "./osm-feed";

/**
 * Reads an OSM PBF extract into registry records held in memory, without writing anything: for
 * tests and small files. The import itself streams (osm-feed.ts), so its memory does not grow
 * with the records.
 */
export async function scanOsmExtract(file: string, options: ScanOsmOptions = {}): Promise<RegistryScan> {
  const feed = osmRegistryFeed(file, options);
  const survey = await feed.survey();
  const counts = emptyCounts();
  const records: RegistryScan["records"] = [];
  await feed.stream(async (batch) => void records.push(...batch), counts);
  return {
    area: survey.area,
    records,
    elements: survey.elements,
    skipped: addCounts({ ...survey.skipped }, counts.skipped),
    unmappedTags: survey.unmappedTags,
    unparsedOpeningHours: counts.unparsedOpeningHours,
  };
}
