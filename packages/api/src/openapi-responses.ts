import type { RateLimitSettings } from "./services/access/rate-limits";
import type { AccessClass, DirectoryMeta } from "./procedures/meta";
import { RATE_LIMIT_HEADERS, type Response } from "./openapi-components";

/** Each operation's error statuses, from its access class (procedures/meta.ts) and its procedure's declared service-level errors. */

export const KEY_REQUIRED: ReadonlySet<AccessClass> = new Set(["key", "partner", "business", "admin"]);

const KEY_KIND_NEEDED: Partial<Record<AccessClass, string>> = {
  partner: "a partner key (or an admin key)",
  business: "a business-scoped key bound to a business",
  admin: "an admin key",
};

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

/** The statuses an access class adds to every operation made with its builder (see procedures/builders.ts). */
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
export function operationResponses(operationId: string, meta: DirectoryMeta, limits: RateLimitSettings, hasBody: boolean): Record<string, Response> {
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
