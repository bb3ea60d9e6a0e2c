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
    this.body = data?.public ?? null;
    this.status = data?.httpStatus ?? responseOf(cause)?.status ?? 0;
    this.code = this.body?.code ?? (this.status === 0 ? "NETWORK_ERROR" : "INTERNAL");
    this.publicAlternative = typeof this.body?.publicAlternative === "string" ? this.body.publicAlternative : undefined;
    this.limit = typeof this.body?.limit === "number" ? this.body.limit : undefined;
    this.resetAt = typeof this.body?.resetAt === "string" ? new Date(this.body.resetAt) : undefined;
    this.retryAfterSeconds = retryAfterOf(responseOf(cause)?.headers.get("retry-after") ?? null);
  }
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
