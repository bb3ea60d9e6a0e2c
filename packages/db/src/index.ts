export * from "./schema/index";
export { choreDatabaseOptionsFromEnv, createDatabase, forChores, databaseOptionsFromEnv, databaseTimeoutsFromEnv, DEFAULT_DATABASE_TIMEOUTS, type Database, type DatabaseOptions, type DatabaseTimeouts, type Db } from "./client";
export { migrate } from "./migrate";
export { executePrepared, preparedQuery, rowsOf } from "./rows";
export { seedDemoWorld, isDatabaseEmpty, DEMO_BUSINESS_COUNT, type SeedOptions } from "./seed/index";
export { ingestDocuments, loadContextResolver, parseDocumentLine, contentHash, MatcherCache, type IncomingDocument, type IngestResult } from "./graph/ingest";
export { loadDictionary } from "./graph/dictionary";
export { seedDemoDocuments } from "./seed/documents";
export { MentionMatcher, foldForMatching, MIN_MENTION_CONFIDENCE, type DictionaryEntry, type DocumentContext, type ExtractedMention } from "./graph/extract";
