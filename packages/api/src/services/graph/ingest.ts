import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { categories, cities, documentMentions, documents, type Db } from "@directory/db";
import { cleanCitedSources } from "../citations/cited-sources";
import { addCoMentionEdges, refreshVisibilityScores } from "./derive";
import { invalidateGraphStatistics } from "./graph-statistics";
import { loadDictionary } from "./dictionary";
import { foldForMatching, MentionMatcher, type DocumentContext } from "./extract";

export interface IncomingDocument {
  kind: "ai_answer" | "article";
  source: string;
  engine: string | null;
  /** The engine's model, where known; absent for documents from files that do not say. */
  model?: string | null;
  query: string | null;
  fetchedAt: Date;
  language: string;
  cityId: number | null;
  categorySlug: string | null;
  body: string;
  /** The URLs the answer cited (citation checks, cleaned by cited-sources.ts); none when absent. */
  sources?: string[];
}

export interface IngestResult {
  /** Documents stored by this call. */
  stored: number;
  /** Documents already stored (same content hash), left as they were. */
  duplicates: number;
  mentions: number;
}

/** Identifies a document by everything it says and where it came from. */
export function contentHash(doc: IncomingDocument): string {
  const canonical = JSON.stringify([
    doc.kind,
    doc.source,
    doc.engine,
    doc.query,
    doc.fetchedAt.toISOString(),
    doc.language,
    doc.cityId,
    doc.categorySlug,
    doc.body,
    // Only when set, so the hashes of documents stored before models (and sources) were recorded stay the same.
    ...(doc.model ? [doc.model] : []),
    ...(doc.sources?.length ? [doc.sources] : []),
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}

/** Where a document's compiled names come from. */
export interface MatcherSource {
  get(db: Db, context: DocumentContext, text: string): Promise<MentionMatcher>;
}

/** Compiled dictionaries by context, reused across the batches of one ingest run. */
export class MatcherCache implements MatcherSource {
  private readonly matchers = new Map<string, Promise<MentionMatcher>>();

  get(db: Db, context: DocumentContext): Promise<MentionMatcher> {
    const key = `${context.cityId ?? ""}|${context.cityId === null ? (context.categorySlug ?? "") : ""}`;
    let matcher = this.matchers.get(key);
    if (!matcher) {
      matcher = loadDictionary(db, context).then((entries) => new MentionMatcher(entries));
      this.matchers.set(key, matcher);
    }
    return matcher;
  }
}

/**
 * Each document's own dictionary, narrowed to the names its text can hold (loadDictionary): for a
 * document or two, such as a citation check's answer, where compiling a large city's whole
 * dictionary would cost more than the rest of the ingest.
 */
export const matchersForEachText: MatcherSource = {
  get: async (db, context, text) => new MentionMatcher(await loadDictionary(db, context, foldForMatching(text))),
};

export interface IngestDocumentsParams {
  batch: readonly IncomingDocument[];
  /** A MatcherCache shared across the batches of a run compiles each context's dictionary once. */
  matchers?: MatcherSource;
}

/**
 * Stores new documents with their mentions and brings the graph up to date in the same
 * transaction: the edges of the new documents' business pairs are incremented and the visibility
 * scores they touch recomputed (citation checks are read from the documents when asked for). Documents already stored are
 * skipped, so ingesting a file twice changes nothing.
 */
export async function ingestDocuments(db: Db, { batch, matchers = new MatcherCache() }: IngestDocumentsParams): Promise<IngestResult> {
  if (batch.length === 0) return { stored: 0, duplicates: 0, mentions: 0 };
  const result = await db.transaction((tx) => storeDocuments(tx, { batch, matchers }));
  // Statistics held by this process count the batch from the next request on (graph-statistics.ts).
  if (result.stored > 0) invalidateGraphStatistics(db);
  return result;
}

/**
 * ingestDocuments inside the caller's transaction, for a caller that records more in it (a citation
 * check and its answer commit together); the caller invalidates the graph statistics after commit.
 * `storedIds` maps each stored document's content hash to its id.
 */
export async function storeDocuments(
  tx: Db,
  { batch, matchers = matchersForEachText }: IngestDocumentsParams,
): Promise<IngestResult & { storedIds: Map<string, string> }> {
  const byHash = new Map(batch.map((doc) => [contentHash(doc), doc]));
  // A batch's derivations may exceed the interactive statement timeout on a large world.
  await tx.execute(sql`set local statement_timeout = 0`);
  const inserted = await tx
    .insert(documents)
    .values([...byHash].map(([hash, doc]) => ({ ...doc, contentHash: hash })))
    .onConflictDoNothing({ target: documents.contentHash })
    .returning({ id: documents.id, contentHash: documents.contentHash });
  const mentionRows = [];
  for (const { id, contentHash: hash } of inserted) {
    const doc = byHash.get(hash)!;
    const matcher = await matchers.get(tx, { cityId: doc.cityId, categorySlug: doc.categorySlug }, doc.body);
    for (const mention of matcher.extract(doc.body, { cityId: doc.cityId, categorySlug: doc.categorySlug })) {
      mentionRows.push({ documentId: id, ...mention });
    }
  }
  if (mentionRows.length > 0) await tx.insert(documentMentions).values(mentionRows);
  const ids = inserted.map((row) => row.id);
  await addCoMentionEdges(tx, { documentIds: ids });
  await refreshVisibilityScores(tx, { documentIds: ids });
  return {
    stored: inserted.length,
    duplicates: batch.length - inserted.length,
    mentions: mentionRows.length,
    storedIds: new Map(inserted.map((row) => [row.contentHash, row.id])),
  };
}

/** City and category slugs as the ids documents store; read once per ingest run. */
export async function loadContextResolver(db: Db): Promise<{ cityId(slug: string): number | undefined; hasCategory(slug: string): boolean }> {
  const cityRows = await db.select({ id: cities.id, slug: cities.slug }).from(cities);
  const categoryRows = await db.select({ slug: categories.slug }).from(categories);
  const citiesBySlug = new Map(cityRows.map((row) => [row.slug, row.id]));
  const categorySlugs = new Set(categoryRows.map((row) => row.slug));
  return { cityId: (slug) => citiesBySlug.get(slug), hasCategory: (slug) => categorySlugs.has(slug) };
}

const MAX_BODY_LENGTH = 100_000;

/**
 * One line of an ingest file: {"source", "text", "fetchedAt", "language", and optionally "engine",
 * "model", "query", "city" (slug), "category" (slug), "kind", "sources" (the URLs an answer cited,
 * kept as a check's are: cleanCitedSources)}. Throws with the reason when it is not valid.
 */
export function parseDocumentLine(line: string, resolver: Awaited<ReturnType<typeof loadContextResolver>>): IncomingDocument {
  const raw = JSON.parse(line) as Record<string, unknown>;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new Error("not a JSON object");
  const text = (key: string, required: boolean): string | null => {
    const value = raw[key];
    if (value === undefined || value === null) {
      if (required) throw new Error(`missing "${key}"`);
      return null;
    }
    if (typeof value !== "string" || value.trim() === "") throw new Error(`"${key}" must be a non-empty string`);
    return value;
  };
  const body = text("text", true)!;
  if (body.length > MAX_BODY_LENGTH) throw new Error(`"text" is longer than ${MAX_BODY_LENGTH} characters`);
  const fetchedAt = new Date(text("fetchedAt", true)!);
  if (Number.isNaN(fetchedAt.getTime())) throw new Error(`"fetchedAt" is not a date`);
  const engine = text("engine", false);
  const kind = text("kind", false) ?? (engine ? "ai_answer" : "article");
  if (kind !== "ai_answer" && kind !== "article") throw new Error(`"kind" must be "ai_answer" or "article"`);
  const citySlug = text("city", false);
  const cityId = citySlug === null ? null : resolver.cityId(citySlug);
  if (cityId === undefined) throw new Error(`unknown city "${citySlug}"`);
  const categorySlug = text("category", false);
  if (categorySlug !== null && !resolver.hasCategory(categorySlug)) throw new Error(`unknown category "${categorySlug}"`);
  const sources = raw.sources ?? [];
  if (!Array.isArray(sources)) throw new Error(`"sources" must be an array of URLs`);
  return {
    kind,
    source: text("source", true)!,
    engine,
    model: text("model", false),
    query: text("query", false),
    fetchedAt,
    language: text("language", false) ?? "en",
    cityId,
    categorySlug,
    body,
    sources: cleanCitedSources(sources),
  };
}
