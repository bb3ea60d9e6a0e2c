export { appRouter, createCaller, createRestCaller, restRouter, type AppRouter } from "./root";
export type { AccessClass, CacheScope, DirectoryMeta } from "./procedures/meta";
/** The caps of the lists the services return, for the GraphQL door's cost analysis. */
export { CLAIM_PROPERTIES } from "./services/claims/claim-writes";
export { MAX_CLAIMS } from "./services/claims/claims";
export { MAX_OFFERS, MAX_QUESTIONS } from "./services/entities/business-extras";
export { GRAPH_LIMITS } from "./services/graph/graph-sql";
export { OWNER_TEXT_LIMITS } from "./services/shared/owner-text";
export { createContext, bearerTokenFrom, type Context, type ContextLogger, type CreateContextOptions } from "./context";
export { DomainError, toPublicError, type DomainErrorCode, type PublicErrorBody } from "./errors";
export { assertSafeInput } from "./input-gate";
export { createOpenApiDocument } from "./openapi";
export { OPERATION_PAGES_PATH, documentedOperations, operationLines, operationPage } from "./openapi-operation-pages";
export { provisionApiKey, createApiKey, hasActiveApiKey } from "./services/access/api-keys";
export { generateApiKey, parseApiKey, hashApiKey } from "./services/access/api-key-format";
/**
 * The bench's reference server for the machine's limit (bench/bare-server.ts) runs the category
 * search's own SQL text, resolution and listing shape without the HTTP stack: what it measures is
 * what the machine allows that query, beside which the real server's figures are read.
 */
export { categorySearchQuery } from "./services/search/category-search";
export { findCategory, findCity, indexReferenceData } from "./services/search/reference-data";
export { toListing } from "./services/search/listing";
/** The per-address bucket (IPv6: its /64) every per-client cap counts by. */
export { clientBucketOf } from "./services/access/client-ip";
export { DEFAULT_RATE_LIMITS, deleteExpiredRateLimitWindows, type RateLimitSettings } from "./services/access/rate-limits";
export { deleteOldWritePositions } from "./services/access/write-positions";
export { pruneFeedChanges, sweepExpiredSubscriptions } from "./services/feed/changes";
export { backfillFeedDocuments, recordFeedChanges, type RemoveReason } from "./services/feed/feed-documents";
/** An owner's edit as PATCH /api/v2/my/listing writes it: the bench's write cost of the partner feed goes through it. */
export { ownerEditSource, updateOwnListing } from "./services/owner/owner-edits";
export { EXPORT_CHUNK_ROWS } from "./services/feed/export";
export { DEFAULT_FEED_EXPORT_LIMITS, FeedExportSlots, type FeedExportLimits } from "./services/feed/export-slots";
export type { FeedExportStream } from "./services/feed/export-bounds";
export { JsonText } from "./services/shared/json-text";
export { ZGetPartnerFeedInput } from "./routers/feed/get-partner-feed.types";
export { ZGetPartnerFeedChangesInput } from "./routers/feed/get-partner-feed-changes.types";
export { createSecretBox, parseSecretKey, type SecretBox } from "./services/webhooks/secrets";
export { signatureHeaders } from "./services/webhooks/signing";
export { checkWebhookUrl, guardedLookup, outboundPolicyFromEnv, type OutboundPolicy } from "./services/webhooks/outbound-address";
export {
  claimDueDeliveries,
  DEFAULT_DELIVERY_SETTINGS,
  fanOutOutbox,
  pruneDeliveryLog,
  recordAttempt,
  type AttemptOutcome,
  type ClaimedDelivery,
  type DeliverySettings,
} from "./services/webhooks/dispatch";
export type { WebhookConfig } from "./context";
/** The demo world (data seed, then documents through the extractor) and the graph's ingest, for the server's first start, the admin CLI and the bench. */
export { seedDemoWorld } from "./seed-demo-world";
export { isDatabaseEmpty, type SeedOptions } from "@directory/db/seed";
/** Registry imports (OpenStreetMap first), for the admin CLI and the bench. */
export { importFeed, importRegistry, type ImportSummary } from "./services/registry/import-registry";
export { SOURCE_PATTERN as IMPORT_SOURCE_PATTERN } from "./services/registry/registry-record";
export { scanOsmExtract } from "./services/registry/osm/scan-osm";
export { osmRegistryFeed } from "./services/registry/osm/osm-feed";
export { applyOsmChanges, OsmChangesRefused, type OsmChangesSummary } from "./services/registry/osm-changes";
export { keepImportedSnapshot } from "./services/registry/osm-snapshots";
export type { RegistryFeed, RegistryScan } from "./services/registry/registry-record";
export { seedDemoDocuments } from "./services/graph/demo-documents";
export {
  contentHash,
  ingestDocuments,
  loadContextResolver,
  MatcherCache,
  parseDocumentLine,
  storeDocuments,
  type IncomingDocument,
  type IngestDocumentsParams,
  type IngestResult,
} from "./services/graph/ingest";
/** Citation checks (AI engines asked about a category in a city), for the worker and the admin CLI. */
export { citationSettingsOf, citationVariables, type CitationSettings } from "./services/citations/env";
export { parseCitationEngines, type CitationEngine } from "./services/citations/engines";
export { citationStatus, enqueueChecks, resolvePair, type CitationCheck } from "./services/citations/check-queue";
export { runDueChecks, type RunDueChecksResult } from "./services/citations/run-checks";
export { runCitationCheck, type CitationRunRequest } from "./services/citations/run-pair";
export { scheduleChecks } from "./services/citations/schedule";
export { createMailer, type ServiceMailer } from "./services/mail/mailer";
export type { Mailer, OutgoingMail } from "./services/mail/mailer.types";
export { createStripeProvider, type StripeSettings } from "./services/billing/stripe-provider";
export type { PaymentProvider } from "./services/billing/payment-provider.types";
