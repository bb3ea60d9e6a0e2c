import { z } from "zod";
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseOptions, type DatabaseTimeouts, type TransactionPooler } from "./client";
import { DEFAULT_READ_REPLICA_SETTINGS } from "./replicas/read-replicas";

/**
 * The pieces every process's environment schema is built from (the server's, the worker's, the
 * admin CLI's), and the database settings they share. Each process parses process.env once with
 * parseEnvironment; a bad value fails with one line naming its variable, never a stack.
 */

/** A bad environment: its message is one line naming every bad variable, for the process to print before it exits 1. */
export class EnvironmentError extends Error {
  override name = "EnvironmentError";
}

/** Parses env with the schema, or throws an EnvironmentError naming each bad variable and what it must be. */
export function parseEnvironment<Schema extends z.ZodType>(schema: Schema, env: NodeJS.ProcessEnv): z.output<Schema> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")} ${issue.message}` : issue.message));
  throw new EnvironmentError(`bad environment: ${problems.join("; ")}`);
}

/** Unset or empty: the fallback (an empty NAME= line in an env file means "the default", as it always has). */
function unsetOrEmpty(raw: string | undefined): raw is undefined | "" {
  return raw === undefined || raw === "";
}

/** A count or a duration in milliseconds: a whole number, 0 or more. */
export function nonNegativeInteger(fallback: number, unit = "") {
  return z
    .string()
    .optional()
    .transform((raw, context) => {
      if (unsetOrEmpty(raw)) return fallback;
      const value = Number(raw);
      if (Number.isInteger(value) && value >= 0) return value;
      context.addIssue({ code: "custom", message: `must be a non-negative integer${unit}, got "${raw}"` });
      return z.NEVER;
    });
}

/** Text with a default when unset or empty. */
export function text(fallback: string) {
  return z
    .string()
    .optional()
    .transform((raw) => (unsetOrEmpty(raw) ? fallback : raw));
}

/** Text that may stay unset (an empty value is unset too). */
export function optionalText() {
  return z
    .string()
    .optional()
    .transform((raw) => (unsetOrEmpty(raw) ? undefined : raw));
}

const SWITCH_VALUES: Record<string, boolean> = { on: true, true: true, "1": true, off: false, false: false, "0": false };

/** on/off (also true/false, 1/0, in any case); anything else is refused rather than read as one or the other. */
export function onOff(fallback: boolean) {
  return z
    .string()
    .optional()
    .transform((raw, context) => {
      if (unsetOrEmpty(raw)) return fallback;
      const value = SWITCH_VALUES[raw.trim().toLowerCase()];
      if (value !== undefined) return value;
      context.addIssue({ code: "custom", message: `must be on or off (or true/false, 1/0), got "${raw}"` });
      return z.NEVER;
    });
}

function isUrlWithScheme(raw: string, protocols: string[]): boolean {
  return URL.canParse(raw) && protocols.includes(new URL(raw).protocol);
}

const schemesOf = (protocols: string[]) => protocols.map((protocol) => `${protocol}//`).join(" or ");

/** One of `values`, with a default when unset or empty. */
export function oneOf<const Value extends string>(values: readonly Value[], fallback: Value) {
  return z
    .string()
    .optional()
    .transform((raw, context) => {
      if (unsetOrEmpty(raw)) return fallback;
      if ((values as readonly string[]).includes(raw)) return raw as Value;
      context.addIssue({ code: "custom", message: `must be one of ${values.join(", ")}, got "${raw}"` });
      return z.NEVER;
    });
}

/** An absolute URL whose scheme is one of protocols (e.g. "http:"), with a default when unset or empty. */
export function url(protocols: string[], fallback?: string) {
  return z
    .string()
    .optional()
    .transform((raw, context) => {
      if (unsetOrEmpty(raw)) return fallback;
      if (isUrlWithScheme(raw, protocols)) return raw;
      // A database URL carries its password: name the variable, never echo the value.
      context.addIssue({ code: "custom", message: `must be a URL starting ${schemesOf(protocols)}` });
      return z.NEVER;
    });
}

/** Comma-separated absolute URLs whose scheme is one of protocols; unset or empty: none. */
export function urlList(protocols: string[]) {
  return z
    .string()
    .optional()
    .transform((raw, context) => {
      if (unsetOrEmpty(raw)) return [];
      const urls = raw
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean);
      const bad = urls.filter((candidate) => !isUrlWithScheme(candidate, protocols));
      if (bad.length === 0) return urls;
      // Each URL carries its password: say which one by its place in the list, never echo it.
      const places = bad.map((candidate) => urls.indexOf(candidate) + 1).join(", ");
      context.addIssue({ code: "custom", message: `must be comma-separated URLs starting ${schemesOf(protocols)} (bad: entry ${places})` });
      return z.NEVER;
    });
}

/** DATABASE_URL selects PostgreSQL; otherwise embedded PGlite in DATA_DIR (default ./.data). */
export const databaseEnvironment = {
  DATABASE_URL: url(["postgres:", "postgresql:"]),
  DATA_DIR: text("./.data"),
  /** Milliseconds; 0 = off. */
  DB_CONNECT_TIMEOUT_MS: nonNegativeInteger(DEFAULT_DATABASE_TIMEOUTS.connectMs, " (milliseconds)"),
  DB_STATEMENT_TIMEOUT_MS: nonNegativeInteger(DEFAULT_DATABASE_TIMEOUTS.statementMs, " (milliseconds)"),
  DB_IDLE_TIMEOUT_MS: nonNegativeInteger(DEFAULT_DATABASE_TIMEOUTS.idleMs, " (milliseconds)"),
  /**
   * `transaction`: DATABASE_URL leads to a pooler in transaction mode (PgBouncer's pool_mode =
   * transaction), and DATABASE_DIRECT_URL to the primary itself. Said outright rather than guessed
   * from DATABASE_DIRECT_URL being set: a session-mode pooler needs a direct URL for nothing, and
   * one setting that names the mode lets a start without the direct URL be refused, where LISTEN
   * through the pooler would hear nothing without a word.
   */
  DATABASE_POOLER: oneOf(["none", "transaction"], "none"),
  DATABASE_DIRECT_URL: url(["postgres:", "postgresql:"]),
  /** Streaming replicas of DATABASE_URL that serve reads which may be a little behind (docs/operations.md). */
  DATABASE_REPLICA_URLS: urlList(["postgres:", "postgresql:"]),
  /** A replica further behind than this is skipped until it catches up. */
  REPLICA_MAX_LAG_MS: nonNegativeInteger(DEFAULT_READ_REPLICA_SETTINGS.maxLagMs, " (milliseconds)"),
};

export type DatabaseEnvironment = z.output<z.ZodObject<typeof databaseEnvironment>>;

/** PostgreSQL's connect, statement and idle timeouts, from a parsed environment. */
export function databaseTimeoutsOf(env: DatabaseEnvironment): DatabaseTimeouts {
  return { connectMs: env.DB_CONNECT_TIMEOUT_MS, statementMs: env.DB_STATEMENT_TIMEOUT_MS, idleMs: env.DB_IDLE_TIMEOUT_MS };
}

/** The transaction pooler DATABASE_URL leads to, if any; an EnvironmentError when the set is incomplete. */
export function transactionPoolerOf(env: DatabaseEnvironment): TransactionPooler | undefined {
  if (env.DATABASE_POOLER === "none") {
    if (env.DATABASE_DIRECT_URL) throw new EnvironmentError("bad environment: DATABASE_DIRECT_URL is read only with DATABASE_POOLER=transaction");
    return undefined;
  }
  if (!env.DATABASE_URL || !env.DATABASE_DIRECT_URL) {
    throw new EnvironmentError("bad environment: DATABASE_POOLER=transaction needs DATABASE_URL (the pooler) and DATABASE_DIRECT_URL (the primary)");
  }
  return { directUrl: env.DATABASE_DIRECT_URL };
}

/** The database a process opens, from its parsed environment. */
export function databaseOptionsOf(env: DatabaseEnvironment): DatabaseOptions {
  const transactionPooler = transactionPoolerOf(env);
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, timeouts: databaseTimeoutsOf(env), ...(transactionPooler && { transactionPooler }) };
  return { dataDir: `${env.DATA_DIR}/pglite` };
}
