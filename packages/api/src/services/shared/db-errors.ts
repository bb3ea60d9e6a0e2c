/** The error and what it wraps (drizzle wraps driver errors, tRPC wraps what a procedure threw). */
function* causeChain(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  for (let current: unknown = error, depth = 0; current && typeof current === "object" && depth < 8; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

/** True when the error (or what it wraps: drizzle wraps driver errors) is a unique violation. */
export function isUniqueViolation(error: unknown): boolean {
  for (const link of causeChain(error)) if (link.code === "23505") return true;
  return false;
}

/** True when PostgreSQL broke a deadlock by failing this transaction (SQLSTATE 40P01). */
export function isDeadlock(error: unknown): boolean {
  for (const link of causeChain(error)) if (link.code === "40P01") return true;
  return false;
}

/**
 * Codes that mean the database could not be reached or could not serve, not that the request was
 * wrong: the postgres driver's connection errors, the liveness guard's (packages/db/src/
 * postgres-liveness.ts, which also wraps every socket error as CONNECTION_FAILED), and SQLSTATEs
 * 57014 (statement timeout) and 57P01-57P03 (shutdown, crash, starting up). Bare socket codes
 * (ECONNREFUSED, ...) are not here: alone they may come from an outbound HTTP call (SOCKET_CODES).
 */
const UNAVAILABLE_CODES = new Set([
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECTION_FAILED",
  "QUERY_TIMEOUT",
  "DATABASE_UNREACHABLE",
  // The embedded database's folder was removed under it (packages/db/src/data-dir-guard.ts).
  "DATA_DIR_GONE",
  "57014",
  "57P01",
  "57P02",
  "57P03",
]);

/**
 * Socket codes count only beneath a failed database query (drizzle's "Failed query: ..."): a
 * write to a connection the server or a proxy dropped fails with EPIPE before the driver notices.
 */
const SOCKET_CODES = new Set(["EPIPE", "ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"]);
const FAILED_QUERY = /^Failed query: /;

/** PGlite's own refusals once it is closed or closing (no code, only a message). */
const PGLITE_UNAVAILABLE = /^PGlite is (closed|closing)$/;

/**
 * True when the error (or anything it wraps) says the database is unreachable or failing, so the
 * request may succeed later: connection refused or reset, connect or answer timeout, statement
 * timeout, server shutdown, a socket error under a failed query, SQLSTATE class 08 (connection exception) or 53 (insufficient
 * resources, e.g. too many connections), a closed PGlite.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let beneathQuery = false;
  for (const { code, message } of causeChain(error)) {
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || /^(08|53)[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof code === "string" && beneathQuery && SOCKET_CODES.has(code)) return true;
    if (typeof message === "string" && PGLITE_UNAVAILABLE.test(message)) return true;
    if (typeof message === "string" && FAILED_QUERY.test(message)) beneathQuery = true;
  }
  return false;
}
