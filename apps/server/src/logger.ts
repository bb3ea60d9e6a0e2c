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
 * Takes an Error, or the plain object pino-http's own serializer already made of one.
 */
export function serializeError(error: unknown, depth = 0): unknown {
  if (error === null || typeof error !== "object" || typeof (error as { message?: unknown }).message !== "string") return error;
  const source = error as Record<string, unknown> & { message: string; stack?: string; cause?: unknown };
  const fields: Record<string, unknown> = {
    type: typeof source.type === "string" ? source.type : error.constructor.name,
    message: withoutParams(source.message),
    stack: withoutParams(source.stack),
  };
  for (const [key, value] of Object.entries(source)) {
    if (key in fields || key === "cause" || VALUE_CARRYING_FIELDS.has(key)) continue;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") fields[key] = value;
  }
  if (source.cause !== undefined && depth < MAX_CAUSE_DEPTH) fields.cause = serializeError(source.cause, depth + 1);
  return fields;
}

/**
 * Routes whose query string may hold what a person wrote: a lead or a correction sent by mistake as
 * a GET (its contact details in the URL), and tRPC calls, whose input is the query.
 */
const PERSONAL_QUERY_ROUTES = /^\/(?:api\/v2\/(?:leads|lead-status|corrections|owner)\b|trpc\/)/;

/** The request line as logged: on those routes, the path without its query string. */
function loggedUrl(url: string | undefined): string | undefined {
  const query = url?.indexOf("?") ?? -1;
  return url && query >= 0 && PERSONAL_QUERY_ROUTES.test(url) ? `${url.slice(0, query)}?[redacted]` : url;
}

interface SerializedRequest {
  id?: unknown;
  method?: string;
  url?: string;
  remoteAddress?: string;
}

/**
 * Serializers for the logger and for pino-http, which otherwise brings its own for `err` and logs
 * every request and response header on every line: that serialising, redacting and writing was a
 * tenth of a search request's CPU. A request line names the request; the rest is not needed.
 */
export const LOG_SERIALIZERS = {
  err: serializeError,
  req: (req: SerializedRequest) => ({ id: req.id, method: req.method, url: loggedUrl(req.url), remoteAddress: req.remoteAddress }),
  res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
};

/**
 * The one logger configuration: JSON lines, keys and personal data redacted. By default lines go
 * to stdout asynchronously (what gathers during one write goes in the next): a synchronous write
 * per request blocked the event loop (6% of the CPU under load). pino flushes the rest at exit.
 */
export function createLogger(level: string, destination: DestinationStream = pino.destination({ dest: 1, sync: false })): Logger {
  const options = {
    level,
    base: { service: "directory" },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    serializers: LOG_SERIALIZERS,
  };
  return pino(options, destination);
}

export type { Logger };
