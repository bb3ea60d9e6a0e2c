import {
  citationSettingsOf,
  type CitationSettings,
  type DeliverySettings,
  type FeedExportLimits,
  type OutboundPolicy,
  type RateLimitSettings,
} from "@directory/api";
import { databaseTimeoutsOf, parseEnvironment, transactionPoolerOf, type DatabaseTimeouts, type TransactionPooler } from "@directory/db";
import { serverEnvironmentSchema, workerEnvironmentSchema, type ServerEnvironment, type WorkerEnvironment } from "./env";

export { DEFAULT_CONNECTION_TIMEOUTS } from "./env";

/** Everything the server reads from the environment, read once, with the defaults a newcomer needs. */
export interface ServerConfig {
  port: number;
  host: string;
  /** Origin for public URLs in responses; defaults to the server's own address. */
  publicBaseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** DATABASE_POOLER=transaction: databaseUrl is a transaction pooler, and this the primary's direct URL (DATABASE_DIRECT_URL). */
  databasePooler: TransactionPooler | undefined;
  /** PostgreSQL connect, statement and idle timeouts (DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS, DB_IDLE_TIMEOUT_MS). */
  databaseTimeouts: DatabaseTimeouts;
  /** DATABASE_REPLICA_URLS and REPLICA_MAX_LAG_MS: streaming replicas serving the reads that may be a little behind. */
  readReplicas: { urls: string[]; maxLagMs: number };
  /** DB_STARTUP_TIMEOUT_MS: how long a starting server waits for PostgreSQL to answer (services start together). */
  databaseStartupTimeoutMs: number;
  adminApiKey: string | undefined;
  /** Seed the demo world when the database is empty (DEMO_SEED=off in production). */
  demoSeed: boolean;
  logLevel: string;
  bodyLimitBytes: number;
  /** Proxy hops in front of the server whose X-Forwarded-For is trusted; 0 = use the socket address. */
  trustProxyHops: number;
  /** Hostnames MCP requests may name in Host/Origin besides the public base URL's and loopback (ALLOWED_HOSTS, comma-separated). */
  allowedHosts: string[];
  rateLimits: RateLimitSettings;
  webhooks: WebhookSettings;
  /** Citation checks (CITATION_*), run where webhook delivery runs. */
  citations: CitationSettings;
  /** GET /metrics is served only to requests bearing this token (METRICS_TOKEN); unset: no /metrics. */
  metricsToken?: string;
  connectionTimeouts: ConnectionTimeouts;
  mcpSse: McpSseLimits;
  /** Partner exports at once (PARTNER_EXPORT_SLOTS), and when one is cut (PARTNER_EXPORT_MAX_DURATION_MS, PARTNER_EXPORT_MIN_BYTES_PER_SECOND over PARTNER_EXPORT_RATE_WINDOW_MS). */
  partnerExports: FeedExportLimits;
  /** SMTP_URL (unset: mails are written as .eml files under DATA_DIR/mail) and MAIL_FROM (default: no-reply at the public host). */
  mail: { smtpUrl: string | undefined; from: string };
  /** The payment provider: Stripe when STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID are all set; else none (operators grant plans). */
  billing: { stripe: { secretKey: string; webhookSecret: string; priceId: string } | null };
  /** Where the service may fetch a site to verify a claim of ownership (OUTBOUND_ALLOW_LOOPBACK; refused in production like WEBHOOK_ALLOW_LOOPBACK). */
  siteOutbound: OutboundPolicy;
}

/** Caps of the legacy MCP SSE transport (GET /api/mcp/sse): each session holds a stream and a server. */
export interface McpSseLimits {
  /** MCP_SSE_MAX_SESSIONS: open sessions at once; more get 503. */
  maxSseSessions: number;
  /** MCP_SSE_MAX_SESSIONS_PER_ADDRESS: open sessions per client address (IPv6: its /64); more get 429. */
  maxSseSessionsPerClient: number;
  /** MCP_SSE_SESSIONS_RESERVED_FOR_KEYS: of the sessions, how many only callers with a valid API key may open. */
  sseSessionsReservedForKeys: number;
  /** MCP_SSE_IDLE_TIMEOUT_MS: a session that posts nothing for this long is closed. */
  sseIdleTimeoutMs: number;
}

/** How long a client connection may take or stay quiet before the server closes it (milliseconds). */
export interface ConnectionTimeouts {
  /** HTTP_HEADERS_TIMEOUT_MS: from a request's first byte to the end of its headers. */
  headersMs: number;
  /** HTTP_REQUEST_TIMEOUT_MS: from a request's first byte to the end of its body (not its response). */
  requestMs: number;
  /** HTTP_KEEP_ALIVE_TIMEOUT_MS: an idle connection between two requests. */
  keepAliveMs: number;
  /** HTTP_SILENT_TIMEOUT_MS: a connection sending nothing while no response is being written (before its first request). */
  silentMs: number;
}

export interface WebhookSettings {
  /** WEBHOOK_SECRET_KEY: 32 bytes (hex or base64) sealing webhook secrets; unset = a key file in DATA_DIR. */
  secretKey: string | undefined;
  /** WEBHOOK_WORKER=off: this server delivers nothing (run `pnpm worker` elsewhere). */
  workerInServer: boolean;
  delivery: DeliverySettings;
  outbound: OutboundPolicy;
}

/** The settings both the server and the worker run with. */
function sharedSettings(env: WorkerEnvironment) {
  return {
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    databasePooler: transactionPoolerOf(env),
    databaseTimeouts: databaseTimeoutsOf(env),
    databaseStartupTimeoutMs: env.DB_STARTUP_TIMEOUT_MS,
    logLevel: env.LOG_LEVEL,
    webhooks: {
      secretKey: env.WEBHOOK_SECRET_KEY,
      delivery: {
        retryDelaysMs: env.WEBHOOK_RETRY_DELAYS_MS,
        attemptTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
        leaseMarginMs: env.WEBHOOK_LEASE_MARGIN_MS,
        disableAfterMs: env.WEBHOOK_DISABLE_AFTER_MS,
      },
      outbound: env.outbound,
    },
    citations: citationSettingsOf(env),
  };
}

/** Stripe takes all three variables (env.ts refuses a partial set). */
function stripeSettings(env: ServerEnvironment): ServerConfig["billing"]["stripe"] {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_PRICE_ID: priceId } = env;
  return secretKey && webhookSecret && priceId ? { secretKey, webhookSecret, priceId } : null;
}

/** The server's settings from its environment, read once; a bad value throws an EnvironmentError naming it. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = parseEnvironment(serverEnvironmentSchema, env);
  const shared = sharedSettings(parsed);
  return {
    ...shared,
    port: parsed.PORT,
    host: parsed.HOST,
    adminApiKey: parsed.ADMIN_API_KEY,
    readReplicas: { urls: parsed.DATABASE_REPLICA_URLS, maxLagMs: parsed.REPLICA_MAX_LAG_MS },
    demoSeed: parsed.DEMO_SEED,
    bodyLimitBytes: parsed.BODY_LIMIT_BYTES,
    trustProxyHops: parsed.TRUST_PROXY,
    webhooks: { ...shared.webhooks, workerInServer: parsed.WEBHOOK_WORKER },
    metricsToken: parsed.METRICS_TOKEN,
    connectionTimeouts: {
      headersMs: parsed.HTTP_HEADERS_TIMEOUT_MS,
      requestMs: parsed.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveMs: parsed.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      silentMs: parsed.HTTP_SILENT_TIMEOUT_MS,
    },
    mcpSse: {
      maxSseSessions: parsed.MCP_SSE_MAX_SESSIONS,
      maxSseSessionsPerClient: parsed.MCP_SSE_MAX_SESSIONS_PER_ADDRESS,
      sseSessionsReservedForKeys: parsed.MCP_SSE_SESSIONS_RESERVED_FOR_KEYS,
      sseIdleTimeoutMs: parsed.MCP_SSE_IDLE_TIMEOUT_MS,
    },
    allowedHosts: parsed.ALLOWED_HOSTS,
    partnerExports: {
      slots: parsed.PARTNER_EXPORT_SLOTS,
      maxDurationMs: parsed.PARTNER_EXPORT_MAX_DURATION_MS,
      minBytesPerSecond: parsed.PARTNER_EXPORT_MIN_BYTES_PER_SECOND,
      rateWindowMs: parsed.PARTNER_EXPORT_RATE_WINDOW_MS,
    },
    mail: { smtpUrl: parsed.SMTP_URL, from: parsed.MAIL_FROM ?? `Business Directory <no-reply@${new URL(shared.publicBaseUrl).hostname}>` },
    billing: { stripe: stripeSettings(parsed) },
    siteOutbound: parsed.siteOutbound,
    rateLimits: {
      anonymousPerDay: parsed.ANON_DAILY_LIMIT,
      keyedPerMonth: parsed.KEY_MONTHLY_LIMIT,
      trialPerMonth: parsed.TRIAL_MONTHLY_LIMIT,
      signInMailsPerAddressPerHour: parsed.SIGN_IN_MAILS_PER_ADDRESS_HOURLY,
      signInMailsPerClientPerHour: parsed.SIGN_IN_MAILS_PER_CLIENT_HOURLY,
      openPerMinute: parsed.ANON_MINUTE_LIMIT,
      leadsPerAddressPerHour: parsed.LEADS_PER_ADDRESS_HOURLY,
      leadsPerKeyPerHour: parsed.LEADS_PER_KEY_HOURLY,
      leadsPerBusinessPerDay: parsed.LEADS_PER_BUSINESS_DAILY,
      webhookSendsPerKeyPerHour: parsed.WEBHOOK_SENDS_PER_KEY_HOURLY,
      correctionsPerAddressPerHour: parsed.CORRECTIONS_PER_ADDRESS_HOURLY,
      correctionsPerKeyPerHour: parsed.CORRECTIONS_PER_KEY_HOURLY,
    },
  };
}

/** What the webhook worker runs with: the server's settings it shares, from the worker's own variables. */
export type WorkerConfig = Pick<
  ServerConfig,
  "publicBaseUrl" | "dataDir" | "databaseUrl" | "databasePooler" | "databaseTimeouts" | "databaseStartupTimeoutMs" | "logLevel" | "citations"
> & {
  webhooks: Omit<WebhookSettings, "workerInServer">;
};

export function readWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  return sharedSettings(parseEnvironment(workerEnvironmentSchema, env));
}
