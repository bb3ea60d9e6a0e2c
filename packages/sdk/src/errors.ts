import { TRPCClientError } from "@trpc/client";
import type { AppRouter, DomainErrorCode } from "@directory/api";

/** Every error code the service answers with (the `code` of its error bodies). */
export type DirectoryErrorCode = DomainErrorCode;

/** The public error body ({ error, code }, plus what the spec adds) a failed call carried. */
export interface DirectoryErrorBody {
  error: string;
  code: DirectoryErrorCode;
  [detail: string]: unknown;
}

interface ErrorData {
  httpStatus?: number;
  public?: DirectoryErrorBody;
}

/**
 * A failed call, typed: the HTTP status, the service's error code and the extra fields a spec
 * adds (publicAlternative on the partner feed; limit, policy and resetAt when a quota is used up).
 * Every error the client throws is one (it is also a TRPCClientError).
 */
export class DirectoryError extends TRPCClientError<AppRouter> {
  override readonly name = "DirectoryError";
  /** HTTP status of the failed call (0 when no response arrived, e.g. a network failure). */
  readonly status: number;
  /** The service's error code; "NETWORK_ERROR" when no response arrived. */
  readonly code: DirectoryErrorCode | "NETWORK_ERROR";
  /** The full public body, when the service sent one. */
  readonly body: DirectoryErrorBody | null;
  /** Where to get the same data without a key (the partner feed's auth failures). */
  readonly publicAlternative: string | undefined;
  /** The request limit that was used up (429). */
  readonly limit: number | undefined;
  /** When the used-up quota resets (429). */
  readonly resetAt: Date | undefined;
  /** Seconds the service asked to wait before retrying (Retry-After on 429 and 503). */
  readonly retryAfterSeconds: number | undefined;

  constructor(cause: TRPCClientError<AppRouter>) {
    super(cause.message, { cause, result: cause.shape ? { error: cause.shape } : undefined, meta: cause.meta });
    // TRPCClientError resets its own prototype; keep this subclass's so instanceof works.
    Object.setPrototypeOf(this, new.target.prototype);
    const data = cause.data as ErrorData | undefined;
    const response = responseOf(cause) ?? foreignResponseOf(cause);
    this.body = data?.public ?? null;
    this.status = data?.httpStatus ?? response?.status ?? 0;
    this.code = this.body?.code ?? codeOfStatus(this.status);
    this.publicAlternative = typeof this.body?.publicAlternative === "string" ? this.body.publicAlternative : undefined;
    this.limit = typeof this.body?.limit === "number" ? this.body.limit : undefined;
    this.resetAt = typeof this.body?.resetAt === "string" ? new Date(this.body.resetAt) : undefined;
    this.retryAfterSeconds = retryAfterOf(response?.headers.get("retry-after") ?? null);
  }
}

/**
 * The code of a failure that carried no body of the service's: what a proxy, gateway or load
 * balancer in front of it means by the status (its own 429 or 503 page), so callers and the
 * retries treat it as the service's own 429 or 503.
 */
export function codeOfStatus(status: number): DirectoryErrorCode | "NETWORK_ERROR" {
  if (status === 0) return "NETWORK_ERROR";
  if (status === 429) return "RATE_LIMITED";
  if (status === 502 || status === 503 || status === 504) return "UNAVAILABLE";
  return "INTERNAL";
}

/** An error answer that is not the service's (no tRPC body): thrown by the client's fetch so its status is not lost to a JSON parse error. */
export class ForeignResponseError extends Error {
  override readonly name = "ForeignResponseError";
  constructor(readonly response: Response) {
    super(`HTTP ${response.status} from something in front of the directory service (no answer of the service's)`);
  }
}

/** Whether a failed response's text is a tRPC answer (batched or not) that the tRPC client can read. */
export function isTrpcErrorBody(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as unknown;
    const items = Array.isArray(parsed) ? parsed : [parsed];
    return items.length > 0 && items.every((item) => typeof item === "object" && item !== null && ("error" in item || "result" in item));
  } catch {
    return false;
  }
}

function foreignResponseOf(error: Error): Response | undefined {
  for (let cause: unknown = error.cause, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof ForeignResponseError) return cause.response;
  }
  return undefined;
}

/** Wraps any error the transport raised as a DirectoryError (kept as is when it already is one). */
export function toDirectoryError(error: unknown): DirectoryError {
  if (error instanceof DirectoryError) return error;
  return new DirectoryError(error instanceof TRPCClientError ? (error as TRPCClientError<AppRouter>) : TRPCClientError.from(toError(error)));
}

/** The public error body ({ status, error, code }) a failed call carried, when it has one. */
export function directoryErrorOf(error: unknown): { status: number; error: string; code: DirectoryErrorCode } | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data = error.data as ErrorData | undefined;
  if (!data?.public) return null;
  return { status: data.httpStatus ?? 500, ...data.public };
}

function responseOf(error: TRPCClientError<AppRouter>): Response | undefined {
  const response = (error.meta as { response?: unknown } | undefined)?.response;
  return typeof Response !== "undefined" && response instanceof Response ? response : undefined;
}

/** Retry-After as seconds: either a number of seconds or an HTTP date. */
export function retryAfterOf(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
