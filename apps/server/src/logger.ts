import { pino, type DestinationStream, type Logger } from "pino";

/** Fields that carry keys or personal data (lead contacts, consent statements) wherever they appear. */
const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "req.body",
  "input",
  "*.contactName",
  "*.contactEmail",
  "*.contactPhone",
  "*.statementShownToUser",
];

/** Error fields that echo a query's values (drizzle's params, PostgreSQL's detail) rather than code. */
const VALUE_CARRYING_FIELDS = new Set(["params", "parameters", "detail", "where", "input"]);
const MAX_CAUSE_DEPTH = 5;

/** Drizzle puts every bound value into its message ("Failed query: ...\nparams: a,b"): cut them off. */
function withoutParams(text: string | undefined): string | undefined {
  return text?.replace(/\nparams: [^\n]*/g, "\nparams: [redacted]");
}

/**
 * Logs an error with its type, message, code, SQL text and causes, but never the values a query
 * carried: a failed lead insert would otherwise write the lead's name, email and phone to the log.
 */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const fields: Record<string, unknown> = { type: error.constructor.name, message: withoutParams(error.message), stack: withoutParams(error.stack) };
  for (const [key, value] of Object.entries(error)) {
    if (VALUE_CARRYING_FIELDS.has(key) || key === "cause") continue;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") fields[key] = value;
  }
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) fields.cause = serializeError(error.cause, depth + 1);
  return fields;
}

/** The one logger configuration: JSON lines, keys and personal data redacted. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: "directory" },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    serializers: { err: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
