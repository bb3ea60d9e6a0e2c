import type { Db } from "@directory/db";
import type { AuthenticatedKey } from "./services/api-keys";

/** What every procedure may rely on; built once per request by the server (or a test). */
export interface Context {
  db: Db;
  /** Full origin used to build public URLs, e.g. "https://directory.example". No trailing slash. */
  publicBaseUrl: string;
  /** The raw bearer token, if the request presented one; checked by the procedure builders. */
  bearerToken: string | null;
  /** Set by the procedure builders once the bearer token is authenticated. */
  apiKey: AuthenticatedKey | null;
  /** Records facts worth an operator's attention (legacy score requests, ...). */
  log: ContextLogger;
}

export interface ContextLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface CreateContextOptions {
  db: Db;
  publicBaseUrl: string;
  authorizationHeader?: string | undefined;
  log?: ContextLogger;
}

const silentLogger: ContextLogger = { info() {}, warn() {} };

/** Reads `Authorization: Bearer <key>`; any other scheme counts as a malformed key. */
export function bearerTokenFrom(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? header;
}

export function createContext(options: CreateContextOptions): Context {
  return {
    db: options.db,
    publicBaseUrl: options.publicBaseUrl.replace(/\/+$/, ""),
    bearerToken: bearerTokenFrom(options.authorizationHeader),
    apiKey: null,
    log: options.log ?? silentLogger,
  };
}
