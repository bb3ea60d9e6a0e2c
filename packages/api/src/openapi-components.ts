import type { OpenAPIObject } from "trpc-to-openapi";

/**
 * The pieces of the OpenAPI document that are not generated from the procedures: its tags, the
 * error schemas every operation shares, the response headers, and the shapes openapi.ts edits.
 */

/** Every tag an operation may carry, with what it groups; an undeclared tag fails the build of the document. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
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

export type Schema = Record<string, unknown>;
export type Components = NonNullable<OpenAPIObject["components"]>;
export type Header = Exclude<NonNullable<Components["headers"]>[string], { $ref: string }>;
export interface Response {
  description: string;
  headers?: Record<string, Header | { $ref: string }>;
  content?: Record<string, { schema?: unknown; examples?: Record<string, Example> }>;
}
export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { type?: string; description?: string; default?: unknown; example?: unknown; examples?: unknown[] };
  examples?: Record<string, Example>;
}
export interface Example {
  summary: string;
  description?: string;
  value: unknown;
}
export interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { examples?: Record<string, Example> }> };
  tags?: string[];
  responses?: Record<string, Response>;
  security?: Record<string, string[]>[];
}

export const ERROR_SCHEMA: Schema = {
  type: "object",
  required: ["error", "code"],
  properties: {
    error: { type: "string", description: "What went wrong, in one sentence" },
    code: { type: "string", description: "Stable machine-readable code, e.g. MISSING_PARAMETER, INVALID_API_KEY, ENTITY_DECOMMISSIONED, RATE_LIMITED" },
  },
  additionalProperties: true,
};

export const PARTNER_AUTH_ERROR_SCHEMA: Schema = {
  allOf: [
    { $ref: "#/components/schemas/Error" },
    {
      type: "object",
      required: ["publicAlternative"],
      properties: { publicAlternative: { type: "string", description: "Routes a caller without a partner key can use instead" } },
    },
  ],
};

export const RATE_LIMIT_ERROR_SCHEMA: Schema = {
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

export const HEADERS: Record<string, Header> = {
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

export const REQUEST_ID_HEADER = { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } };

export const RATE_LIMIT_HEADERS: NonNullable<Response["headers"]> = {
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
};
