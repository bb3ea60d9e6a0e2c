import type { Database } from "./client";

export interface WaitForDatabaseOptions {
  /** Give up when the database has not answered for this long (0: one attempt). */
  timeoutMs: number;
  /** Where the database is, for messages: host:port, never the URL (it may hold a password). */
  describeTarget: string;
  /** The setting that bounds the wait, named in the final error so an operator knows what to raise. */
  settingName: string;
  /** Called after each failed attempt that will be retried. */
  onRetry?: (retry: { attempt: number; retryInMs: number; reason: string }) => void;
}

/** The first wait; each next one doubles up to the cap. The client paces connection attempts at one a second anyway. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 5_000;

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Pings until the database answers, with exponential backoff, for at most timeoutMs. Services
 * started together (a container per service) come up in any order; a server that exits at the
 * first refused connection would need its orchestrator to restart it until PostgreSQL is up.
 */
export async function waitForDatabase(database: Database, options: WaitForDatabaseOptions): Promise<void> {
  const startedAt = performance.now();
  let retryInMs = FIRST_RETRY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      await database.ping();
      return;
    } catch (error) {
      const remainingMs = options.timeoutMs - (performance.now() - startedAt);
      if (remainingMs <= 0) {
        throw new Error(
          `${options.describeTarget} not reachable after ${Math.round((performance.now() - startedAt) / 1_000)} s ` +
            `(${options.settingName}=${options.timeoutMs}): ${reasonOf(error)}`,
          { cause: error },
        );
      }
      const waitMs = Math.min(retryInMs, remainingMs);
      options.onRetry?.({ attempt, retryInMs: Math.round(waitMs), reason: reasonOf(error) });
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      retryInMs = Math.min(retryInMs * 2, MAX_RETRY_MS);
    }
  }
}

/** host:port of a PostgreSQL URL, without its user or password. */
export function postgresTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `PostgreSQL at ${parsed.hostname || "localhost"}:${parsed.port || "5432"}`;
  } catch {
    return "PostgreSQL (DATABASE_URL is not a URL)";
  }
}
