import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import OPENAPI_EXAMPLES from "./openapi-examples.json";
import { CONFIDENCE_MEANING } from "./services/claims/freshness";
import { appRouter } from "./root";
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from "./services/access/rate-limits";
import { API_VERSION, rateLimitSentence, SUPPORT_CONTACT } from "./services/agents/agent-facts";
import type { AccessClass, DirectoryMeta } from "./procedures/meta";

/** Every tag an operation may carry, with what it groups; an undeclared tag fails the build of the document. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  search: "Find businesses by category and city, ordered by plan tier, then internal score, then name",
  entities: "One business: the entity profile with provenance-tracked claims, the canonical lookup by immutable id, and the agent profile (ABO/1.0)",
  graph: "The co-citation knowledge graph: which businesses and categories AI answers and articles name together, counted from their text",
  leads: "Consent-gated leads: an agent sends one with the user's explicit agreement and follows its status",
  partners: "Bulk feed of verified business locations for partners (partner API key required)",
  agents: "Machine-readable discovery for AI agents: the manifest of every door and the per-caller handshake",
  webhooks: "Register and manage webhooks that receive entity.updated events, signed with X-Service-Signature (API key required)",
  owner: "A business's own listing, scores, citations and leads, with its business-scoped key: edits are self-reported claims",
  admin: "Admin key only: verify a value (admin-verified claim), verify a listing's owner, add a business, decide corrections",
  corrections:
    "Say a fact is wrong or a business closed: a pending proposal an admin accepts (a superseding admin-verified claim) or rejects; its status is public, its submitter never",
};

type Schema = Record<string, unknown>;
type Components = NonNullable<OpenAPIObject["components"]>;
type Header = Exclude<NonNullable<Components["headers"]>[string], { $ref: string }>;
interface Response {
  description: string;
  headers?: Record<string, Header | { $ref: string }>;
  content?: Record<string, { schema?: unknown; examples?: Record<string, Example> }>;
}
interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string };
  examples?: Record<string, Example>;
}
interface Example {
  summary: string;
  description?: string;
  value: unknown;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { examples?: Record<string, Example> }> };
  tags?: string[];
  responses?: Record<string, Response>;
  security?: Record<string, string[]>[];
}

const ERROR_SCHEMA: Schema = {
  type: "object",
  required: ["error", "code"],
  properties: {
    error: { type: "string", description: "What went wrong, in one sentence" },
    code: { type: "string", description: "Stable machine-readable code, e.g. MISSING_PARAMETER, INVALID_API_KEY, ENTITY_DECOMMISSIONED, RATE_LIMITED" },
  },
  additionalProperties: true,
};

const PARTNER_AUTH_ERROR_SCHEMA: Schema = {
  allOf: [
    { $ref: "#/components/schemas/Error" },
    {
      type: "object",
      required: ["publicAlternative"],
      properties: { publicAlternative: { type: "string", description: "Routes a caller without a partner key can use instead" } },
    },
  ],
};

const RATE_LIMIT_ERROR_SCHEMA: Schema = {
  allOf: [
    { $ref: "#/components/schemas/Error" },
    {
      type: "object",
      required: ["limit", "policy", "resetAt"],
      properties: {
        limit: { type: "integer", minimum: 1, description: "Requests the used-up policy admits per window" },
        policy: { type: "string", description: "The policy that refused the call: anonymous-minute, anonymous-daily, key-monthly, or a lead limit" },
        resetAt: { type: "string", format: "date-time", description: "When the window resets (UTC)" },
      },
    },
  ],
};

const HEADERS: Record<string, Header> = {
  RateLimit: {
    description: 'Requests left in the current window and seconds until it resets, e.g. "anonymous-daily";r=499;t=3600 (IETF RateLimit header fields draft)',
    schema: { type: "string" },
  },
  "RateLimit-Policy": {
    description: 'The limit that counted this request: "<policy>";q=<requests>;w=<window-seconds>',
    schema: { type: "string" },
  },
  "Retry-After": { description: "Seconds until the used-up limit resets", required: true, schema: { type: "integer", minimum: 1 } },
  "X-Request-Id": {
    description:
      "This request's id, in the server's logs: the client's own X-Request-Id when it sent one of 1-64 letters, digits, '_', '.' or '-', else a generated UUID. Quote it when reporting a problem",
    required: true,
    schema: { type: "string", maxLength: 64 },
  },
  Link: {
    description:
      'The next page, when there is one: <url>; rel="next" (RFC 8288), the same page as the body\'s nextCursor or nextAfter names. Sent before the body, so a client can ask for the next page while it parses this one',
    schema: { type: "string" },
  },
  ETag: {
    description:
      "Weak validator of an anonymous public read (no Authorization header): send it back as If-None-Match and an unchanged answer is 304 Not Modified with no body",
    schema: { type: "string", pattern: '^W/"' },
  },
};

const REQUEST_ID_HEADER = { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } };

const RATE_LIMIT_HEADERS: NonNullable<Response["headers"]> = {
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
};

const KEY_REQUIRED: ReadonlySet<AccessClass> = new Set(["key", "partner", "business", "admin"]);

const KEY_KIND_NEEDED: Partial<Record<AccessClass, string>> = {
  partner: "a partner key (or an admin key)",
  business: "a business-scoped key bound to a business",
  admin: "an admin key",
};

/** A call recorded from the demo world (apps/server/src/openapi-examples.generate.ts; replayed by api-reference.test.ts). */
interface RecordedExample {
  summary: string;
  request: {
    method: string;
    path: string;
    pathParams?: Record<string, string>;
    query?: Record<string, string>;
    headers?: Record<string, string>;
    body?: unknown;
  };
  status: number;
  response: unknown;
}
const RECORDED_EXAMPLES: Record<string, RecordedExample> = OPENAPI_EXAMPLES.operations;

function requestLine({ request }: RecordedExample): string {
  const path = request.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.pathParams?.[name] ?? `{${name}}`));
  const query = new URLSearchParams(request.query ?? {}).toString();
  const authorization = request.headers?.Authorization;
  const headers = [
    authorization ? `Authorization: ${authorization}` : "",
    request.method !== "GET" && request.body === undefined ? "Content-Type: application/json and the body {}" : "",
  ].filter(Boolean);
  return `${request.method} ${path}${query ? `?${query}` : ""}${headers.length > 0 ? ` with ${headers.join(", ")}` : ""}`;
}

/** A query or path value as its parameter's type: "2" is 2 for an integer. */
function typedValue(parameter: Parameter, value: string): unknown {
  const type = parameter.schema?.type;
  if (type === "integer" || type === "number") return Number(value);
  if (type === "boolean") return value === "true";
  return value;
}

/** The recorded call as examples on the operation's parameters, request body and success response. */
function addExample(operation: Operation, example: RecordedExample): void {
  const description = `Recorded from the demo world: ${requestLine(example)}`;
  for (const parameter of operation.parameters ?? []) {
    const value =
      parameter.in === "path" ? example.request.pathParams?.[parameter.name] : parameter.in === "query" ? example.request.query?.[parameter.name] : undefined;
    if (value !== undefined) parameter.examples = { demo: { summary: example.summary, value: typedValue(parameter, value) } };
  }
  const body = operation.requestBody?.content?.["application/json"];
  if (body && example.request.body !== undefined) body.examples = { demo: { summary: example.summary, description, value: example.request.body } };
  // JSON, or the one media type of a streamed body (the partner export's NDJSON).
  const content = operation.responses?.[String(example.status)]?.content;
  const success = content?.["application/json"] ?? Object.values(content ?? {})[0];
  if (success) success.examples = { demo: { summary: example.summary, description, value: example.response } };
}

const count = (n: number) => n.toLocaleString("en-US");

function errorResponse(description: string, schemaName = "Error", headers?: Response["headers"]): Response {
  return { description, ...(headers ? { headers } : {}), content: { "application/json": { schema: { $ref: `#/components/schemas/${schemaName}` } } } };
}

function rateLimitText(access: AccessClass, limits: RateLimitSettings): string {
  const monthly = `the key's monthly quota of ${count(limits.keyedPerMonth)} requests (policy key-monthly, calendar month UTC, no overage)`;
  switch (access) {
    case "open":
      return `Per-minute limit exceeded: ${count(limits.openPerMinute)} anonymous requests per minute per address (policy anonymous-minute); with an API key, ${monthly} applies instead. Wait for Retry-After`;
    case "anonymous-daily":
      return `Anonymous rate limit exceeded: ${count(limits.anonymousPerDay)} anonymous requests per day per address (policy anonymous-daily); supply an API key or wait. With a key, ${monthly} applies instead`;
    case "lead-submission":
      return (
        `Lead limit or rate limit exceeded: ${count(limits.leadsPerAddressPerHour)} leads per hour per address, ${count(limits.leadsPerKeyPerHour)} per hour per key, ` +
        `${count(limits.leadsPerBusinessPerDay)} per day per business; ${count(limits.anonymousPerDay)} anonymous requests per day per address; with a key, ${monthly}`
      );
    case "correction-submission":
      return (
        `Correction limit or rate limit exceeded: ${count(limits.correctionsPerAddressPerHour)} corrections per hour per address, ` +
        `${count(limits.correctionsPerKeyPerHour)} per hour per key; ${count(limits.anonymousPerDay)} anonymous requests per day per address; with a key, ${monthly}`
      );
    default:
      return `Monthly API quota exceeded: ${monthly} is used up. Wait for Retry-After (the start of next month)`;
  }
}

/** The statuses an access class adds to every operation made with its builder (see trpc.ts). */
function accessResponses(access: AccessClass, limits: RateLimitSettings): Record<number, Response> {
  const responses: Record<number, Response> = {
    400: errorResponse(
      "Invalid parameter: one is missing, malformed or out of range, or carries control characters; the body names it (code MISSING_PARAMETER or INVALID_INPUT)",
    ),
  };
  const partner = access === "partner";
  const alternative = partner ? "; the body carries publicAlternative, the routes usable without a partner key" : "";
  responses[401] = errorResponse(
    KEY_REQUIRED.has(access)
      ? `API key missing, or malformed, unknown or revoked${alternative}`
      : "A presented API key is malformed, unknown or revoked (a bad key is refused, never treated as anonymous; anonymous calls send no Authorization header)",
    partner ? "PartnerAuthError" : "Error",
  );
  const needed = KEY_KIND_NEEDED[access];
  if (needed) responses[403] = errorResponse(`The API key is valid but not ${needed}${alternative}`, partner ? "PartnerAuthError" : "Error");
  if (access !== "admin") {
    responses[429] = errorResponse(rateLimitText(access, limits), "RateLimitError", {
      ...RATE_LIMIT_HEADERS,
      "Retry-After": { $ref: "#/components/headers/Retry-After" },
    });
  }
  responses[503] = errorResponse("Temporarily unavailable: the database or the quota service cannot be reached; retry later", "Error", {
    "Retry-After": { description: "Seconds to wait before retrying, when the server can tell", schema: { type: "integer", minimum: 1 } },
  });
  return responses;
}

/**
 * The statuses of one operation: those of its access class, then its procedure's own service-level
 * ones (meta.openapi.errorResponses: 404, 409, 410, ...). A procedure's 400 text replaces the
 * generic one (it knows its parameters); its 401/403/503 text adds a reason of its own. 429
 * belongs to the access class alone.
 */
function operationResponses(operationId: string, meta: DirectoryMeta, limits: RateLimitSettings, hasBody: boolean): Record<string, Response> {
  const access = meta.access;
  if (!access) throw new Error(`OpenAPI: operation ${operationId} has no access class`);
  const responses = accessResponses(access, limits);
  // Refusals made before any procedure runs, whatever the operation: the request itself is unfit.
  responses[413] = errorResponse(hasBody ? "Request body too large" : "Request body too large (this operation takes none)");
  responses[415] = errorResponse("The request body is not UTF-8 JSON (unsupported content type or charset)");
  responses[431] = errorResponse("The request line or headers are too large (16 KB at most)");
  const declared = meta.openapi?.errorResponses ?? {};
  if (Array.isArray(declared)) throw new Error(`OpenAPI: operation ${operationId} must describe its errorResponses, not only list them`);
  for (const [statusText, text] of Object.entries(declared)) {
    const status = Number(statusText);
    if (status === 429) throw new Error(`OpenAPI: operation ${operationId} declares 429, which its access class (${access}) owns`);
    const derived = responses[status];
    if (!derived) responses[status] = errorResponse(text);
    else if (status === 400) derived.description = text;
    else derived.description = `${derived.description}; or ${text}`;
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

/**
 * OpenAPI 3.1 of every REST operation, generated from the same procedures tRPC serves. Only paths,
 * parameters and the 200 body come from trpc-to-openapi: it names error components by status
 * (error.NOT_FOUND, ...) and keeps the first description it sees for every operation, so each
 * operation's error statuses, security and rate-limit headers are rebuilt here from its own
 * procedure: its access class (trpc.ts) and its declared service-level errors.
 */
/** The licences of the data the API serves, owed wherever it is shown. */
export const DATA_ATTRIBUTION =
  "Data: city names, regions and coordinates from GeoNames (CC BY 4.0, https://www.geonames.org); " +
  "imported listings © OpenStreetMap contributors (ODbL 1.0, https://www.openstreetmap.org/copyright).";

export function createOpenApiDocument(baseUrl: string, rateLimits: Partial<RateLimitSettings> = {}): OpenAPIObject {
  const limits = { ...DEFAULT_RATE_LIMITS, ...rateLimits };
  const document = generateOpenApiDocument(appRouter, {
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
  for (const procedure of Object.values(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: DirectoryMeta } }>)) {
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

/** Keys whose values are data (example bodies, defaults), not Markdown to render. */
const DATA_KEYS = new Set(["value", "example", "default", "enum", "const", "pattern"]);

/**
 * OpenAPI descriptions are CommonMark, which reads <key> as an HTML tag: Swagger UI drops it and
 * shows "Bearer ." for "Bearer <key>". Every run of text holding such a placeholder becomes a code
 * span (unless it already is one), so it reads the same as plain text and as rendered Markdown.
 */
function placeholdersAsCode<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item: unknown) => placeholdersAsCode(item)) as T;
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (DATA_KEYS.has(key)) return [key, value];
      if ((key === "description" || key === "summary") && typeof value === "string") return [key, markdownPlaceholders(value)];
      return [key, placeholdersAsCode(value)];
    }),
  ) as T;
}

function markdownPlaceholders(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/[^\s`]*<[^<>\s]+>[^\s`]*?(?=[.,;:)]*(?:\s|$))/g, (run) => `\`${run}\``)))
    .join("");
}
