import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "@directory/api";

export interface DirectoryClientOptions {
  /** Origin of a running directory service, e.g. "http://localhost:3000". */
  baseUrl: string;
  /** An API key (bdk_...); omit for anonymous access. */
  apiKey?: string;
  /** Custom fetch, e.g. for tests or proxies. */
  fetch?: typeof fetch;
}

/** A typed client of every procedure, over tRPC + superjson. Types come from the routers themselves. */
export function createDirectoryClient(options: DirectoryClientOptions) {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/trpc`;
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url,
        transformer: superjson,
        fetch: options.fetch,
        headers: () => (options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      }),
    ],
  });
}

export type DirectoryClient = ReturnType<typeof createDirectoryClient>;

/** The public error body ({ error, code }) a failed call carried, when it has one. */
export function directoryErrorOf(error: unknown): { status: number; error: string; code: string } | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data = error.data as { httpStatus?: number; public?: { error: string; code: string } } | undefined;
  if (!data?.public) return null;
  return { status: data.httpStatus ?? 500, ...data.public };
}

export { TRPCClientError };
export type { AppRouter } from "@directory/api";
