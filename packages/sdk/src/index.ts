import { createTRPCClient, httpBatchLink, TRPCClientError, type TRPCLink } from "@trpc/client";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { observable, type Unsubscribable } from "@trpc/server/observable";
import superjson from "superjson";
import type { AppRouter } from "@directory/api";
import { ForeignResponseError, isTrpcErrorBody, toDirectoryError } from "./errors.js";
import { rateLimitFrom, type RateLimitState } from "./rate-limit.js";

export interface RetryOptions {
  /** Retries after the first attempt (default 2; 0 turns retrying off). */
  retries?: number | undefined;
  /** First backoff when the service sends no Retry-After, in ms (default 500; doubles each retry). */
  baseDelayMs?: number | undefined;
  /** Longest wait before a retry, in ms (default 30,000): a longer Retry-After fails at once. */
  maxDelayMs?: number | undefined;
}

export interface DirectoryClientOptions {
  /** Origin of a running directory service, e.g. "http://localhost:3000". */
  baseUrl: string;
  /** An API key (bdk_...); omit it, or pass undefined (e.g. an unset environment variable), for anonymous access. */
  apiKey?: string | undefined;
  /** Custom fetch, e.g. for tests or proxies. Defaults to the global fetch. */
  fetch?: typeof fetch | undefined;
  /**
   * Retries of calls the service refused with 429 or 503, honouring Retry-After. Queries are
   * retried; mutations only when their input carries an idempotencyKey. `false` turns it off.
   */
  retry?: RetryOptions | false | undefined;
  /** Called with the quota state whenever a response carries RateLimit headers. */
  onRateLimit?: ((state: RateLimitState) => void) | undefined;
}

/** A typed client of every procedure, over tRPC + superjson. */
export type DirectoryClient = ReturnType<typeof createTRPCClient<AppRouter>>;
/** Inputs of every procedure, by path: `RouterInputs["search"]["searchBusinesses"]`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** Outputs of every procedure, by path: `RouterOutputs["entities"]["getEntityProfile"]`. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

const quotas = new WeakMap<object, { current: RateLimitState | null }>();

/** A typed client of every procedure. Every error it throws is a DirectoryError. */
export function createDirectoryClient(options: DirectoryClientOptions): DirectoryClient {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/trpc`;
  const quota: { current: RateLimitState | null } = { current: null };
  const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const trackingFetch: typeof fetch = async (input, init) => {
    const response = await baseFetch(input, init);
    const state = rateLimitFrom(response.headers);
    if (state) {
      quota.current = state;
      options.onRateLimit?.(state);
    }
    if (!response.ok && !isTrpcErrorBody(await response.clone().text())) throw new ForeignResponseError(response);
    return response;
  };
  const client = createTRPCClient<AppRouter>({
    links: [
      retryLink(options.retry === false ? { retries: 0 } : (options.retry ?? {})),
      httpBatchLink({
        url,
        transformer: superjson,
        fetch: trackingFetch,
        headers: () => (options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      }),
    ],
  });
  quotas.set(client, quota);
  return client;
}

/** The quota state the last response with RateLimit headers reported, or null before any. */
export function rateLimitOf(client: DirectoryClient): RateLimitState | null {
  return quotas.get(client)?.current ?? null;
}

/** Whether a call may safely run twice: queries, and mutations carrying an idempotency key. */
function isRetrySafe(type: string, input: unknown): boolean {
  if (type === "query") return true;
  if (type !== "mutation" || typeof input !== "object" || input === null) return false;
  const key = (input as { idempotencyKey?: unknown }).idempotencyKey;
  return typeof key === "string" && key.length > 0;
}

/** Wraps every error as a DirectoryError and retries 429/503 with backoff, within bounds. */
function retryLink(retry: RetryOptions): TRPCLink<AppRouter> {
  const retries = Math.max(0, retry.retries ?? 2);
  const baseDelayMs = retry.baseDelayMs ?? 500;
  const maxDelayMs = retry.maxDelayMs ?? 30_000;
  return () =>
    ({ op, next }) =>
      observable((observer) => {
        let subscription: Unsubscribable | undefined;
        let timer: ReturnType<typeof setTimeout> | undefined;
        let stopped = false;
        const attempt = (number: number) => {
          subscription = next(op).subscribe({
            next: (value) => observer.next(value),
            complete: () => observer.complete(),
            error: (cause) => {
              const error = toDirectoryError(cause);
              const retryable = (error.status === 429 || error.status === 503) && isRetrySafe(op.type, op.input);
              const delay = error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : baseDelayMs * 2 ** number;
              if (stopped || !retryable || number >= retries || delay > maxDelayMs) {
                observer.error(error);
                return;
              }
              timer = setTimeout(() => attempt(number + 1), delay);
            },
          });
        };
        attempt(0);
        return () => {
          stopped = true;
          if (timer) clearTimeout(timer);
          subscription?.unsubscribe();
        };
      });
}

export { DirectoryError, directoryErrorOf, toDirectoryError, type DirectoryErrorBody, type DirectoryErrorCode } from "./errors.js";
export type { RateLimitState } from "./rate-limit.js";
export { exportPartnerFeed, type PartnerExport, type PartnerExportOptions, type PartnerFeedLocation } from "./partner-export.js";
export { TRPCClientError };
export type { AppRouter };
