import type { Db, ReadReplicas } from "@directory/db";
import type { AuthenticatedKey } from "./services/access/api-keys";
import { FeedExportSlots } from "./services/feed/export-slots";
import type { PaymentProvider } from "./services/billing/payment-provider.types";
import type { Mailer } from "./services/mail/mailer.types";
import type { OutboundPolicy } from "./services/webhooks/outbound-address";
import type { SecretBox } from "./services/webhooks/secrets";
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from "./services/access/rate-limits";
import type { CitationEngine } from "./services/citations/engines";

/** What every procedure may rely on; built once per request by the server (or a test). */
export interface Context {
  /** The primary: every write, every limit, and every read that must see a write. */
  db: Db;
  /** Streaming replicas for reads that may be a little behind (procedures/read-routing.ts); null without DATABASE_REPLICA_URLS. */
  readReplicas: ReadReplicas | null;
  /** Full origin used to build public URLs, e.g. "https://directory.example". No trailing slash. */
  publicBaseUrl: string;
  /** The raw bearer token, if the request presented one; checked by the procedure builders. */
  bearerToken: string | null;
  /** The request's Cookie header (a person's session), read only by the session procedure builder; null in-process. */
  cookieHeader: string | null;
  /** The request's Origin header: a session's state changes must come from the service's own pages. */
  requestOrigin: string | null;
  /** The CSRF token the request presented (a form's csrfToken field, or the X-CSRF-Token header). */
  csrfToken: string | null;
  /** The browser's User-Agent, shown beside each of a person's sessions. */
  userAgent: string | null;
  /** Set by the procedure builders once the bearer token is authenticated. */
  apiKey: AuthenticatedKey | null;
  /** The client address as the server determined it (socket, or TRUST_PROXY hops); null in-process. */
  clientIp: string | null;
  rateLimits: RateLimitSettings;
  /** Sets a response header on transports that have one (REST, tRPC over HTTP); no-op in-process. */
  setHeader(name: string, value: string | string[]): void;
  /** Records facts worth an operator's attention (legacy score requests, limiter failures, ...). */
  log: ContextLogger;
  /** How webhook secrets are sealed and where deliveries may go; null where webhooks are not served. */
  webhookConfig: WebhookConfig | null;
  /**
   * The door writes a JSON text answer (JsonText) as it is: a procedure that has its answer as text
   * hands it over unread (procedures/json-text-output.ts). False for the doors that need values.
   */
  writesJsonText: boolean;
  /** The partner exports' slots and bounds: the server's own; in-process callers share one table. */
  feedExports: FeedExportSlots;
  /** Sends the service's mail (sign-in links); null where no mail is sent (in-process callers, the worker). */
  mailer: Mailer | null;
  /** The payment provider of the developer plan; null when none is configured (operators grant plans). */
  paymentProvider: PaymentProvider | null;
  /** Where the service may fetch a site to verify a claim of ownership (OUTBOUND_ALLOW_LOOPBACK); public addresses only by default. */
  siteOutbound: OutboundPolicy;
  /**
   * The AI engines citation checks ask (CITATION_ENGINES, read once when the server starts): owner
   * answers say whether any is configured, and an owner's recheck queues one check per engine.
   * Empty (the embedded default, and in-process callers): no check runs.
   */
  citationEngines: readonly CitationEngine[];
}

export interface WebhookConfig {
  secretBox: SecretBox;
  outbound: OutboundPolicy;
}

export interface ContextLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface CreateContextOptions {
  db: Db;
  readReplicas?: ReadReplicas | null;
  publicBaseUrl: string;
  authorizationHeader?: string | undefined;
  cookieHeader?: string | undefined;
  requestOrigin?: string | undefined;
  csrfToken?: string | undefined;
  userAgent?: string | undefined;
  clientIp?: string | null;
  rateLimits?: Partial<RateLimitSettings>;
  setHeader?: (name: string, value: string | string[]) => void;
  log?: ContextLogger;
  webhookConfig?: WebhookConfig | null;
  writesJsonText?: boolean;
  feedExports?: FeedExportSlots;
  mailer?: Mailer | null;
  paymentProvider?: PaymentProvider | null;
  siteOutbound?: OutboundPolicy;
  citationEngines?: readonly CitationEngine[];
}

const silentLogger: ContextLogger = { info() {}, warn() {} };

/** The export slots of in-process callers that bring none (a server brings its own). */
const sharedFeedExports = new FeedExportSlots();

/**
 * Reads `Authorization: Bearer <key>` (the scheme in any case), the one rule of every door. Any
 * other value, a bare key included, is an empty token: refused as malformed, never anonymous.
 */
export function bearerTokenFrom(header: string | undefined): string | null {
  if (!header) return null;
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? "";
}

export function createContext(options: CreateContextOptions): Context {
  return {
    db: options.db,
    readReplicas: options.readReplicas ?? null,
    publicBaseUrl: options.publicBaseUrl.replace(/\/+$/, ""),
    bearerToken: bearerTokenFrom(options.authorizationHeader),
    cookieHeader: options.cookieHeader || null,
    requestOrigin: options.requestOrigin || null,
    csrfToken: options.csrfToken || null,
    userAgent: options.userAgent || null,
    apiKey: null,
    clientIp: options.clientIp ?? null,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    setHeader: options.setHeader ?? (() => {}),
    log: options.log ?? silentLogger,
    webhookConfig: options.webhookConfig ?? null,
    writesJsonText: options.writesJsonText ?? false,
    feedExports: options.feedExports ?? sharedFeedExports,
    mailer: options.mailer ?? null,
    paymentProvider: options.paymentProvider ?? null,
    siteOutbound: options.siteOutbound ?? { allowLoopback: false },
    citationEngines: options.citationEngines ?? [],
  };
}
