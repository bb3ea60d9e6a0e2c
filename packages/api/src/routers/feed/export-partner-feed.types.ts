import { z } from "zod";
import type { FeedExportStream } from "../../services/feed/export-bounds";
import { EXPORT_RETRY_AFTER_SECONDS, type FeedExportLimits } from "../../services/feed/export-slots";
import type { DirectoryMeta } from "../../procedures/meta";

export const ZExportPartnerFeedInput = z.object({});

const isExportStream = (value: unknown): value is FeedExportStream =>
  typeof value === "object" && value !== null && Symbol.asyncIterator in value && (value as { cut?: unknown }).cut instanceof AbortSignal;

/**
 * The export's body as NDJSON chunks (text, or its UTF-8 bytes as PostgreSQL sent them), pulled by
 * the door that writes it, with the signal of its cut. Only the REST door (apps/server's partner
 * feed door) and in-process callers take it; the SDK reads the REST route (exportPartnerFeed in
 * packages/sdk).
 */
export const ZExportPartnerFeedOutput = z
  .custom<FeedExportStream>(isExportStream, "an NDJSON stream")
  .describe(
    'NDJSON (application/x-ndjson): one schema.org JSON-LD location per line (identifier = business id, each once), then the last line {"after": <position>, "count": <locations>, "attributions": [licence notices its locations owe, e.g. the OpenStreetMap ODbL line]}',
  );

export type TExportPartnerFeedInput = z.input<typeof ZExportPartnerFeedInput>;

export const EXPORT_CONTENT_TYPE = "application/x-ndjson";

/** The bounds a server keeps exports to, as its OpenAPI document states them (openapi.ts adds it to the operation's description). */
export function exportBoundsSentence(limits: FeedExportLimits): string {
  const cuts = [
    limits.minBytesPerSecond > 0
      ? `when the client reads less than ${limits.minBytesPerSecond} bytes a second (of the NDJSON before gzip) over any of the ${limits.rateWindowMs / 1000}-second windows from its start`
      : null,
    limits.maxDurationMs > 0 ? `${limits.maxDurationMs / 1000} s after it started` : null,
  ].filter((cut) => cut !== null);
  const slots = `This server runs ${limits.slots} exports at once (one per key)`;
  return cuts.length ? `${slots}; an export is cut ${cuts.join(", or ")}: the connection closes without the last line, and the slot is freed.` : `${slots}.`;
}

export const exportPartnerFeedMeta: DirectoryMeta = {
  successContentType: EXPORT_CONTENT_TYPE,
  openapi: {
    method: "GET",
    path: "/api/v2/partner-feed/export",
    operationId: "exportPartnerFeed",
    tags: ["partners"],
    summary: "Every current feed-visible location as NDJSON, with the change-feed position it is consistent with (partner key required)",
    description:
      'Streams one JSON-LD location per line (gzip when the request accepts it); the last line is {"after": <position>, "count": <locations>, "attributions": [...]} ' +
      "(attributions: the licence notices the locations owe, e.g. OpenStreetMap's ODbL line; keep them with the data): " +
      "continue with GET /api/v2/partner-feed/changes?after=<position>, nothing lost or doubled. A stream without that last line is incomplete: take the export again. " +
      `One export per key at a time; a client that disconnects frees its key within 10 s (a second export meanwhile, or one when every slot is taken, is a 429 with Retry-After: ${EXPORT_RETRY_AFTER_SECONDS}). ` +
      "An export counts as one call against the key's monthly quota, whatever its size. Served over REST only (not over tRPC).",
    protect: true,
    errorResponses: {},
  },
};
