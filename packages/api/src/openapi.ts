import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { CONFIDENCE_MEANING } from "./services/claims/freshness";
import { restRouter } from "./root";
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from "./services/access/rate-limits";
import { DEFAULT_FEED_EXPORT_LIMITS, type FeedExportLimits } from "./services/feed/export-slots";
import { exportBoundsSentence, exportPartnerFeedMeta } from "./routers/feed/export-partner-feed.types";
import { API_VERSION, rateLimitSentence, SUPPORT_CONTACT } from "./services/agents/agent-facts";
import type { DirectoryMeta } from "./procedures/meta";
import {
  ERROR_SCHEMA,
  HEADERS,
  PARTNER_AUTH_ERROR_SCHEMA,
  RATE_LIMIT_ERROR_SCHEMA,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  TAG_DESCRIPTIONS,
  type Operation,
} from "./openapi-components";
import { placeholdersAsCode } from "./openapi-markdown";
import { addExample, RECORDED_EXAMPLES, unfilledOptionalExamples } from "./openapi-recorded-examples";
import { KEY_REQUIRED, operationResponses } from "./openapi-responses";
import { DATA_LICENCES_STATEMENT } from "./services/registry/attribution";

/** The licences of the data the API serves, owed wherever it is shown (one statement, llms.txt's too). */
export const DATA_ATTRIBUTION = DATA_LICENCES_STATEMENT;

/**
 * OpenAPI 3.1 of every REST operation, generated from the same procedures tRPC serves. Only paths,
 * parameters and the 200 body come from trpc-to-openapi: it names error components by status
 * (error.NOT_FOUND, ...) and keeps the first description it sees for every operation, so each
 * operation's error statuses, security and rate-limit headers are rebuilt here from its own
 * procedure: its access class (procedures/meta.ts) and its declared service-level errors.
 */
export function createOpenApiDocument(
  baseUrl: string,
  rateLimits: Partial<RateLimitSettings> = {},
  exportLimits: Partial<FeedExportLimits> = {},
): OpenAPIObject {
  const limits = { ...DEFAULT_RATE_LIMITS, ...rateLimits };
  const document = generateOpenApiDocument(restRouter, {
    title: "Business Directory API",
    description:
      "A worldwide business directory for AI agents. Every fact carries its source and confidence. " +
      `${CONFIDENCE_MEANING} ` +
      "Errors are JSON bodies { error, code }. Keys are sent as Authorization: Bearer <key>. " +
      rateLimitSentence(limits) +
      ` ${DATA_ATTRIBUTION}`,
    version: API_VERSION,
    baseUrl,
    securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "Authorization: Bearer bdk_<kind>_<key>" } },
  });

  const operations = new Map<Operation, DirectoryMeta>();
  for (const procedure of Object.values(restRouter._def.procedures as unknown as Record<string, { _def: { meta?: DirectoryMeta } }>)) {
    const meta = procedure._def.meta;
    if (!meta?.openapi) continue;
    const { path, method, operationId } = meta.openapi;
    const operation = (document.paths?.[path] as Record<string, Operation> | undefined)?.[method.toLowerCase()];
    if (!operation || operation.operationId !== operationId) throw new Error(`OpenAPI: no operation ${operationId} at ${method} ${path}`);
    operations.set(operation, meta);
  }

  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods as Record<string, Operation>)) {
      const meta = operations.get(operation);
      const operationId = operation.operationId ?? "?";
      if (!meta?.access) throw new Error(`OpenAPI: operation ${operationId} has no procedure with an access class`);
      for (const tag of operation.tags ?? []) {
        if (!(tag in TAG_DESCRIPTIONS)) throw new Error(`OpenAPI: operation ${operationId} uses undeclared tag ${tag}`);
      }
      // The partner export's bounds are this server's settings (PARTNER_EXPORT_*).
      if (operationId === exportPartnerFeedMeta.openapi?.operationId) {
        const described = operation as Operation & { description?: string };
        described.description = `${described.description ?? ""} ${exportBoundsSentence({ ...DEFAULT_FEED_EXPORT_LIMITS, ...exportLimits })}`;
      }
      const success = operation.responses?.["200"];
      // A streamed body (the partner export): its media type, with the text described by its output schema.
      if (success && meta.successContentType) {
        success.content = { [meta.successContentType]: { schema: { type: "string", description: meta.openapi?.description } } };
      }
      operation.responses = {
        ...(success ? { [meta.successStatus ?? 200]: success } : {}),
        ...operationResponses(operationId, meta, limits, operation.requestBody !== undefined),
      };
      // Every answer given after the limit was counted carries the counter, errors included.
      if (meta.access !== "admin") {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (status !== "503") response.headers = { ...RATE_LIMIT_HEADERS, ...response.headers };
        }
      }
      for (const response of Object.values(operation.responses)) response.headers = { ...response.headers, ...REQUEST_ID_HEADER };
      if (success && meta.nextPageLink) success.headers = { ...success.headers, Link: { $ref: "#/components/headers/Link" } };
      // A read whose answer may be public (http-conventions: cache scope) is validated by an ETag when anonymous.
      if (success && meta.openapi?.method === "GET" && meta.cache !== undefined && meta.cache !== "private") {
        success.headers = { ...success.headers, ETag: { $ref: "#/components/headers/ETag" } };
      }
      operation.security = KEY_REQUIRED.has(meta.access) ? [{ bearerAuth: [] }] : [{}, { bearerAuth: [] }];
      const example = RECORDED_EXAMPLES[operationId];
      if (example) addExample(operation, example);
      unfilledOptionalExamples(operation);
    }
  }

  // "/" first: Try it out in /docs calls the origin the page was opened at (127.0.0.1, a LAN address,
  // a proxy's host), which its CSP allows; the public base URL, absolute, for clients that need one.
  document.servers = [
    { url: "/", description: "The server this document was read from" },
    { url: baseUrl, description: "The public base URL (PUBLIC_BASE_URL)" },
  ];
  document.info.license = { name: "Business Directory usage rules (no open-source licence)", url: `${baseUrl}/llms.txt` };
  document.info.contact = { ...SUPPORT_CONTACT };
  document.tags = Object.entries(TAG_DESCRIPTIONS).map(([name, description]) => ({ name, description }));
  const schemas = Object.fromEntries(Object.entries(document.components?.schemas ?? {}).filter(([name]) => !name.startsWith("error.")));
  document.components = {
    ...document.components,
    schemas: { ...schemas, Error: ERROR_SCHEMA, PartnerAuthError: PARTNER_AUTH_ERROR_SCHEMA, RateLimitError: RATE_LIMIT_ERROR_SCHEMA },
    headers: HEADERS,
  };
  return placeholdersAsCode(document);
}
