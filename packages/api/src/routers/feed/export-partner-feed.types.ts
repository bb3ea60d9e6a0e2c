import { z } from "zod";
import { EXPORT_RETRY_AFTER_SECONDS } from "../../services/feed/export";
import type { DirectoryMeta } from "../../procedures/meta";

export const ZExportPartnerFeedInput = z.object({});

const isAsyncIterable = (value: unknown): value is AsyncIterableIterator<string | Uint8Array> =>
  typeof value === "object" && value !== null && Symbol.asyncIterator in value;

/**
 * The export's body as NDJSON chunks (text, or its UTF-8 bytes as PostgreSQL sent them), pulled by the door that writes it. Only the REST door
 * (apps/server's partner feed door) and in-process callers can take a stream; the SDK reads
 * the REST route (exportPartnerFeed in packages/sdk).
 */
export const ZExportPartnerFeedOutput = z
  .custom<AsyncIterableIterator<string | Uint8Array>>(isAsyncIterable, "an NDJSON stream")
  .describe(
    'NDJSON (application/x-ndjson): one schema.org JSON-LD location per line (identifier = business id, each once), then the last line {"after": <position>, "count": <locations>}',
  );

export type TExportPartnerFeedInput = z.input<typeof ZExportPartnerFeedInput>;

export const EXPORT_CONTENT_TYPE = "application/x-ndjson";

export const exportPartnerFeedMeta: DirectoryMeta = {
  successContentType: EXPORT_CONTENT_TYPE,
  openapi: {
    method: "GET",
    path: "/api/v2/partner-feed/export",
    operationId: "exportPartnerFeed",
    tags: ["partners"],
    summary: "Every current feed-visible location as NDJSON, with the change-feed position it is consistent with (partner key required)",
    description:
      'Streams one JSON-LD location per line (gzip when the request accepts it); the last line is {"after": <position>, "count": <locations>}: ' +
      "continue with GET /api/v2/partner-feed/changes?after=<position>, nothing lost or doubled. One export per key at a time; a client that " +
      `disconnects frees its key within 10 s (a second export meanwhile is a 429 with Retry-After: ${EXPORT_RETRY_AFTER_SECONDS}). ` +
      "An export counts as one call against the key's monthly quota, whatever its size.",
    protect: true,
    errorResponses: {},
  },
};
