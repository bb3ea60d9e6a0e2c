import type { Db } from "@directory/db";
import { insertMissingCategories } from "@directory/db/seed";
import { slugBase } from "../claims/business-creation";
import { DomainError } from "../../errors";
import { applyBatch, COUNTED, type BatchContext } from "./import-batch";
import { BatchesInFlight, relaxedCommit, withRetryOnRace } from "./import-batches";
import { RecordIdSet } from "./record-id-set";
import { ensureCities } from "./registry-cities";
import { addCounts, SOURCE_PATTERN, type RegistryFeed, type RegistryRecord, type RegistryScan, type ScanCounts } from "./registry-record";
import { heldRecords, MovedRecords, type HeldRecords } from "./registry-matching";
import { removeRecords, unlistedInService } from "./registry-record-rows";

export const DEFAULT_BATCH_SIZE = 500;

/**
 * The share of a source's records in service inside a file's area that one import may take out
 * of service unasked: a file cut wrong, or one whose header claims far more than it holds, would
 * otherwise empty the directory of that source.
 */
export const MAX_REMOVED_SHARE = 0.2;

export interface ImportOptions {
  /** The claims' source and the records' namespace, e.g. "openstreetmap". */
  source: string;
  /** Runs every batch in one transaction that is rolled back: the exact summary, nothing written. */
  dryRun?: boolean;
  batchSize?: number;
  at?: Date;
  /**
   * Batches in flight at once, each in its own transaction (PostgreSQL: one connection each; the
   * embedded database runs them one after another whatever this says). 1 by default.
   */
  concurrency?: number;
  /** Lets the import remove more than MAX_REMOVED_SHARE of the source's records in the area (`--allow-removals`). */
  allowRemovals?: boolean;
  /** Called after each committed batch with the records done so far, and the most there can be. */
  onProgress?: (done: number, total: number) => void;
}

export interface ImportSummary {
  source: string;
  dryRun: boolean;
  elements: number;
  records: number;
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
  reactivated: number;
  skipped: Record<string, number>;
  unmappedTags: Record<string, number>;
  unparsedOpeningHours: Record<string, number>;
}

class DryRunRollback extends Error {}

/** Applies records held in memory (tests, small registries) as a diff: importFeed over them. */
export async function importRegistry(db: Db, scan: RegistryScan, options: ImportOptions): Promise<ImportSummary> {
  return importFeed(db, feedOfScan(scan, options.source, options.batchSize ?? DEFAULT_BATCH_SIZE), options);
}

/**
 * Applies a registry feed as a diff, streaming: records are written a batch at a time as the feed
 * gives them, each batch one transaction (import-batch.ts), so memory does not grow with the feed
 * and a run killed half-way leaves whole batches only. Records whose id is new but which continue
 * a held one take it over (registry-matching.ts). Only when every batch is in do records of the
 * same source inside the feed's area that it no longer lists take their businesses out of service
 * (removed_from_source), so a run that fails half-way removes nothing, and running it again (a
 * diff) finishes it. An import that would remove more than MAX_REMOVED_SHARE of them is refused
 * before anything is written, unless allowRemovals.
 */
export async function importFeed(db: Db, feed: RegistryFeed, options: ImportOptions): Promise<ImportSummary> {
  const { source, dryRun = false, batchSize = DEFAULT_BATCH_SIZE, at = new Date() } = options;
  if (!SOURCE_PATTERN.test(source)) throw new Error(`Invalid source "${source}": lower-case letters, digits, dots and dashes, at most 40 characters`);
  // The whole file is read once before anything is written: a bad one fails here.
  const survey = await feed.survey();
  const summary: ImportSummary = {
    source,
    dryRun,
    elements: survey.elements,
    records: 0,
    ...{ added: 0, changed: 0, unchanged: 0, removed: 0, reactivated: 0 },
    ...{ skipped: { ...survey.skipped }, unmappedTags: survey.unmappedTags, unparsedOpeningHours: { ...survey.unparsedOpeningHours } },
  };
  const run = async (inTransaction: <T>(work: (tx: Db) => Promise<T>) => Promise<T>, concurrency: number) => {
    const held = await inTransaction((tx) => heldRecords(tx, source, survey.area, survey.listed));
    if (!options.allowRemovals) await refuseMassRemoval(feed, held, source);
    await inTransaction((tx) => insertMissingCategories(tx));
    const citySlugs = new Map<number, string>();
    const moved = new MovedRecords(held);
    const inFlight = new BatchesInFlight(concurrency);
    const counts: ScanCounts = { skipped: {}, unmappedTags: {}, unparsedOpeningHours: {} };
    let done = 0;
    let pending: RegistryRecord[] = [];
    const basesInFlight: Set<string>[] = [];
    const send = async (records: RegistryRecord[]) => {
      const newCities = records.map((record) => record.city).filter((city) => !citySlugs.has(city.id));
      if (newCities.length > 0) {
        // New cities in a short transaction of their own before the batch that needs them starts:
        // batches side by side then never wait on each other's new cities, and the batches in
        // flight, whose cities are in already, go on meanwhile.
        for (const [id, slug] of await inTransaction((tx) => ensureCities(tx, newCities))) citySlugs.set(id, slug);
      }
      const context: BatchContext = { source, at, citySlugs, moved: moved.match(records), listed: survey.listed };
      summary.records += records.length;
      // Two batches wanting one slug ("coop-vaduz") would race for it; the second waits instead.
      const slugBases = new Set(records.map((record) => slugBase(record.facts.name, citySlugs.get(record.city.id)!)));
      if (basesInFlight.some((bases) => [...slugBases].some((base) => bases.has(base)))) await inFlight.drain();
      basesInFlight.push(slugBases);
      await inFlight.start(async () => {
        try {
          const batchCounts = await withRetryOnRace(() => inTransaction((tx) => applyBatch(tx, records, context)));
          for (const key of COUNTED) summary[key] += batchCounts[key];
          done += records.length;
          options.onProgress?.(done, survey.candidates);
        } finally {
          basesInFlight.splice(basesInFlight.indexOf(slugBases), 1);
        }
      });
    };
    await feed.stream(async (records) => {
      // A source cannot have seen a business after the import that writes it down.
      for (const record of records) pending.push(record.observedAt > at ? { ...record, observedAt: at } : record);
      while (pending.length >= batchSize) await send(pending.splice(0, batchSize));
    }, counts);
    if (pending.length > 0) await send(pending);
    pending = [];
    await inFlight.drain();
    addCounts(summary.skipped, counts.skipped);
    addCounts(summary.unparsedOpeningHours, counts.unparsedOpeningHours);
    // Last, in batches: a run killed here has removed some; run again, it removes the rest.
    const gone = await inTransaction((tx) => unlistedInService(tx, source, survey.area, survey.listed));
    for (let start = 0; start < gone.length; start += batchSize) {
      summary.removed += await inTransaction((tx) => removeRecords(tx, source, gone.slice(start, start + batchSize), at));
    }
  };
  if (!dryRun) {
    await run((work) => db.transaction((tx) => relaxedCommit(tx).then(() => work(tx))), options.concurrency ?? 1);
    return summary;
  }
  try {
    await db.transaction(async (tx) => {
      await run((work) => work(tx), 1);
      throw new DryRunRollback();
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) throw error;
  }
  return summary;
}

/**
 * The MAX_REMOVED_SHARE guard, before anything is written. Most imports list nearly every held
 * record and pass at once; only when more are unlisted does it matter how many of them records
 * with new ids continue, which one read of the feed, writing nothing, tells.
 */
async function refuseMassRemoval(feed: RegistryFeed, held: HeldRecords, source: string): Promise<void> {
  const limit = MAX_REMOVED_SHARE * held.inService;
  if (held.unlistedInService <= limit) return;
  const moved = new MovedRecords(held);
  await feed.stream(async (records) => void moved.match(records), { skipped: {}, unmappedTags: {}, unparsedOpeningHours: {} });
  const removed = held.unlistedInService - moved.continuedInService;
  if (removed > limit) throw removalsRefused(source, { removed, inService: held.inService });
}

/** Records held in memory as a feed: their ids listed, each twice-listed one refused before anything is written. */
function feedOfScan(scan: RegistryScan, source: string, batchSize: number): RegistryFeed {
  return {
    async survey() {
      const listed = new RecordIdSet();
      for (const { recordId } of scan.records) {
        if (!listed.add(recordId))
          throw new DomainError("INVALID_INPUT", `Record ${recordId} appears twice in the records of source "${source}": one record is one business`);
      }
      const { area, elements, skipped, unmappedTags, unparsedOpeningHours } = scan;
      // Records held in memory come from no file whose date a snapshot would keep.
      return { area, elements, candidates: scan.records.length, listed, currentAt: null, skipped, unmappedTags, unparsedOpeningHours };
    },
    async stream(take) {
      for (let start = 0; start < scan.records.length; start += batchSize) await take(scan.records.slice(start, start + batchSize));
    },
  };
}

function removalsRefused(source: string, planned: { removed: number; inService: number }): DomainError {
  return new DomainError(
    "CONFLICT",
    `This import would remove ${planned.removed} of the ${planned.inService} records source "${source}" has in service inside the file's area, ` +
      `more than ${MAX_REMOVED_SHARE * 100}%: is the file the whole area its header claims? Run it again with --allow-removals if these removals are meant`,
    { removed: planned.removed, inService: planned.inService },
  );
}
