import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { z } from "zod";
import { isDatabaseUnavailable } from "./services/shared/db-errors";

/**
 * The one table of domain errors: each maps to a tRPC code (for the typed SDK) and an HTTP status
 * (for REST, which reads it from the error's cause). Add a row here rather than a status elsewhere.
 */
const DOMAIN_ERRORS = {
  INVALID_INPUT: { trpc: "BAD_REQUEST", http: 400 },
  MISSING_PARAMETER: { trpc: "BAD_REQUEST", http: 400 },
  UNAUTHORIZED: { trpc: "UNAUTHORIZED", http: 401 },
  INVALID_API_KEY: { trpc: "UNAUTHORIZED", http: 401 },
  FORBIDDEN: { trpc: "FORBIDDEN", http: 403 },
  NOT_FOUND: { trpc: "NOT_FOUND", http: 404 },
  CONFLICT: { trpc: "CONFLICT", http: 409 },
  ENTITY_DECOMMISSIONED: { trpc: "NOT_FOUND", http: 410 },
  POSITION_EXPIRED: { trpc: "NOT_FOUND", http: 410 },
  PAYLOAD_TOO_LARGE: { trpc: "PAYLOAD_TOO_LARGE", http: 413 },
  UNSUPPORTED_MEDIA_TYPE: { trpc: "UNSUPPORTED_MEDIA_TYPE", http: 415 },
  HEADERS_TOO_LARGE: { trpc: "BAD_REQUEST", http: 431 },
  REQUEST_TIMEOUT: { trpc: "TIMEOUT", http: 408 },
  RATE_LIMITED: { trpc: "TOO_MANY_REQUESTS", http: 429 },
  UNAVAILABLE: { trpc: "INTERNAL_SERVER_ERROR", http: 503 },
  INTERNAL: { trpc: "INTERNAL_SERVER_ERROR", http: 500 },
} as const satisfies Record<string, { trpc: TRPC_ERROR_CODE_KEY; http: number }>;

export type DomainErrorCode = keyof typeof DOMAIN_ERRORS;

/** Extra public fields a spec adds to an error body, e.g. publicAlternative on the partner feed. */
export type ErrorDetails = Record<string, string | number | boolean | string[]>;

/** The body every REST error carries. */
export interface PublicErrorBody {
  error: string;
  code: string;
  [detail: string]: unknown;
}

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = "DomainError";
  }

  get httpStatus(): number {
    return DOMAIN_ERRORS[this.code].http;
  }
}

/** Wraps a domain error for tRPC; the cause keeps the domain code and HTTP status for REST. */
export function toTrpcError(error: DomainError): TRPCError {
  return new TRPCError({ code: DOMAIN_ERRORS[error.code].trpc, message: error.message, cause: error });
}

const TRPC_TO_DOMAIN: Partial<Record<TRPC_ERROR_CODE_KEY, DomainErrorCode>> = {
  BAD_REQUEST: "INVALID_INPUT",
  PARSE_ERROR: "INVALID_INPUT",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  METHOD_NOT_SUPPORTED: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  TOO_MANY_REQUESTS: "RATE_LIMITED",
};

/** The Retry-After a 503 carries: the database is retried every second, so a few seconds is plenty. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Turns any error a procedure raised into the status and body a client may see; a 503 also says when to retry. */
export function toPublicError(error: TRPCError): { status: number; body: PublicErrorBody; retryAfterSeconds?: number } {
  const result = describeError(error);
  return result.status === 503 ? { ...result, retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS } : result;
}

function describeError(error: TRPCError): { status: number; body: PublicErrorBody } {
  const cause = error.cause;
  if (cause instanceof DomainError) {
    return { status: cause.httpStatus, body: { error: cause.message, code: cause.code, ...cause.details } };
  }
  // A parse failure of the input is the caller's; one of the output (data the schema refuses) is ours.
  if (cause instanceof z.ZodError && error.code === "BAD_REQUEST") {
    const { code, message } = describeValidationError(cause);
    return { status: 400, body: { error: message, code } };
  }
  if (isDatabaseUnavailable(error)) {
    return { status: 503, body: { error: `The database is unavailable; retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS} seconds`, code: "UNAVAILABLE" } };
  }
  const code = TRPC_TO_DOMAIN[error.code] ?? "INTERNAL";
  // Internal errors never leak their message: it may name tables or carry stack details.
  const message = code === "INTERNAL" ? "Internal server error" : error.message;
  return { status: DOMAIN_ERRORS[code].http, body: { error: message, code } };
}

/** One readable sentence for a failed input, naming each bad parameter. */
function describeValidationError(error: z.ZodError): { code: DomainErrorCode; message: string } {
  const missing = error.issues.filter((issue) => issue.code === "invalid_type" && /received undefined/.test(issue.message));
  if (missing.length > 0 && missing.length === error.issues.length) {
    const names = missing.map((issue) => issue.path.join("."));
    // A schema may say why beyond zod's words (consent: the rule itself), after "received undefined; ".
    const why = missing.map((issue) => issue.message.split(/received undefined[;:]\s*/)[1]).filter(Boolean);
    return { code: "MISSING_PARAMETER", message: `Missing required parameter: ${names.join(", ")}${why.map((reason) => `: ${reason}`).join("")}` };
  }
  const parts = error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join(".") : "input";
    return `${where}: ${issue.message}`;
  });
  return { code: "INVALID_INPUT", message: `Invalid parameter ${parts.join("; ")}` };
}
