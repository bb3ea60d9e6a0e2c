import { and, inArray, isNull, min, sql, type SQL } from "drizzle-orm";
import { feedDocuments, registryRecords, rowsOf, type Db } from "@directory/db";
import { REFERENCE_DATA_RECHECK_MS } from "../search/reference-data";
import { heldPerDatabase } from "../shared/held-per-database";
import { attributionsFor, type DataAttribution } from "./attribution";

/**
 * Whether any registry record is in service, held a few seconds per database like the reference
 * data: an import in another process shows in searches' notices within REFERENCE_DATA_RECHECK_MS.
 */
const registryHoldsRecords = heldPerDatabase(
  async (db) => (await db.select({ recordId: registryRecords.recordId }).from(registryRecords).where(isNull(registryRecords.removedAt)).limit(1)).length > 0,
  { maxAgeMs: REFERENCE_DATA_RECHECK_MS, hardMaxAgeMs: 12 * REFERENCE_DATA_RECHECK_MS },
);

/** One record id per source: all attributionsFor needs to know which sources are present. */
const recordPerSource = { recordId: min(registryRecords.recordId) };

/**
 * The notices owed by a page of listings: the sources whose records became these businesses (a
 * registry record stays with its business while it is in service, so the list's imported facts
 * are exactly those of businesses with one). One indexed read, however many listings.
 */
export async function attributionsOfBusinesses(db: Db, businessIds: readonly string[]): Promise<DataAttribution[]> {
  if (businessIds.length === 0) return [];
  // A directory with nothing imported owes no notice: its searches stay one round trip.
  if (!(await registryHoldsRecords.get(db)).value) return [];
  const rows = await db
    .select(recordPerSource)
    .from(registryRecords)
    .where(and(inArray(registryRecords.businessId, [...new Set(businessIds)]), isNull(registryRecords.removedAt)))
    .groupBy(registryRecords.source);
  return attributionsFor(rows);
}

/**
 * A column for a page's own statement: the id of the in-service registry record the business
 * came from (null for none; the record standing for it rather than a second id), one lookup on the
 * records' business id index. Pages that must stay one statement (the partner feed's) read it
 * beside their rows and give the ids to attributionsFor.
 */
export function registryRecordIdOf(businessId: SQL): SQL {
  const inService = sql`${registryRecords.businessId} = ${businessId} and ${registryRecords.removedAt} is null`;
  // Two index lookups rather than an ordered one: the feed's page plan stays free of sorts.
  return sql`coalesce(
    (select ${registryRecords.recordId} from ${registryRecords} where ${inService} and ${registryRecords.sameAs} is null limit 1),
    (select ${registryRecords.recordId} from ${registryRecords} where ${inService} limit 1))`;
}

/** registryRecordIdOf for one business: its JSON-LD names that record's page at the source. */
export async function registryRecordIdOfBusiness(db: Db, businessId: string): Promise<string | null> {
  // A directory with nothing imported: no read added to a profile's.
  if (!(await registryHoldsRecords.get(db)).value) return null;
  const [row] = rowsOf<{ recordId: string | null }>(await db.execute(sql`select ${registryRecordIdOf(sql`${businessId}::uuid`)} as "recordId"`));
  return row?.recordId ?? null;
}

/** The notices owed by the whole feed (the export): the sources of any location it holds. */
export async function attributionsOfFeed(db: Db): Promise<DataAttribution[]> {
  const rows = await db
    .select(recordPerSource)
    .from(registryRecords)
    .where(sql`exists (select 1 from ${feedDocuments} where ${feedDocuments.businessId} = ${registryRecords.businessId})`)
    .groupBy(registryRecords.source);
  return attributionsFor(rows);
}
