import {
  DEFAULT_DELIVERY_SETTINGS,
  DEFAULT_RATE_LIMITS,
  outboundPolicyFromEnv,
  type DeliverySettings,
  type OutboundPolicy,
  type RateLimitSettings,
} from "@directory/api";
import { databaseTimeoutsFromEnv, type DatabaseTimeouts } from "@directory/db";
import { DEFAULT_SSE_LIMITS } from "@directory/mcp";

/** Everything the server reads from the environment, read once, with the defaults a newcomer needs. */
export interface ServerConfig {
  port: number;
  host: string;
  /** Origin for public URLs in responses; defaults to the server's own address. */
  publicBaseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL connect, statement and idle timeouts (DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS, DB_IDLE_TIMEOUT_MS). */
  databaseTimeouts: DatabaseTimeouts;
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
  /** GET /metrics is served only to requests bearing this token (METRICS_TOKEN); unset: no /metrics. */
  metricsToken?: string;
  connectionTimeouts: ConnectionTimeouts;
  mcpSse: McpSseLimits;
}

/** Caps of the legacy MCP SSE transport (GET /api/mcp/sse): each session holds a stream and a server. */
export interface McpSseLimits {
  /** MCP_SSE_MAX_SESSIONS: open sessions at once; more get 503. */
  maxSseSessions: number;
  /** MCP_SSE_MAX_SESSIONS_PER_ADDRESS: open sessions per client address (IPv6: its /64); more get 429. */
  maxSseSessionsPerClient: number;
  /** MCP_SSE_IDLE_TIMEOUT_MS: a session that posts nothing for this long is closed. */
  sseIdleTimeoutMs: number;
}

export function readMcpSseLimits(env: NodeJS.ProcessEnv = process.env): McpSseLimits {
  return {
    maxSseSessions: nonNegativeInteger(env, "MCP_SSE_MAX_SESSIONS", DEFAULT_SSE_LIMITS.maxSseSessions),
    maxSseSessionsPerClient: nonNegativeInteger(env, "MCP_SSE_MAX_SESSIONS_PER_ADDRESS", DEFAULT_SSE_LIMITS.maxSseSessionsPerClient),
    sseIdleTimeoutMs: nonNegativeInteger(env, "MCP_SSE_IDLE_TIMEOUT_MS", DEFAULT_SSE_LIMITS.sseIdleTimeoutMs),
  };
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

export const DEFAULT_CONNECTION_TIMEOUTS: ConnectionTimeouts = { headersMs: 15_000, requestMs: 30_000, keepAliveMs: 5_000, silentMs: 10_000 };

export function readConnectionTimeouts(env: NodeJS.ProcessEnv = process.env): ConnectionTimeouts {
  const timeouts = {
    headersMs: nonNegativeInteger(env, "HTTP_HEADERS_TIMEOUT_MS", DEFAULT_CONNECTION_TIMEOUTS.headersMs),
    requestMs: nonNegativeInteger(env, "HTTP_REQUEST_TIMEOUT_MS", DEFAULT_CONNECTION_TIMEOUTS.requestMs),
    keepAliveMs: nonNegativeInteger(env, "HTTP_KEEP_ALIVE_TIMEOUT_MS", DEFAULT_CONNECTION_TIMEOUTS.keepAliveMs),
    silentMs: nonNegativeInteger(env, "HTTP_SILENT_TIMEOUT_MS", DEFAULT_CONNECTION_TIMEOUTS.silentMs),
  };
  // Node refuses a request deadline shorter than the headers' one; say which variables to change.
  if (timeouts.requestMs > 0 && timeouts.headersMs > timeouts.requestMs) {
    throw new Error(`HTTP_HEADERS_TIMEOUT_MS (${timeouts.headersMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${timeouts.requestMs})`);
  }
  return timeouts;
}

export interface WebhookSettings {
  /** WEBHOOK_SECRET_KEY: 32 bytes (hex or base64) sealing webhook secrets; unset = a key file in DATA_DIR. */
  secretKey: string | undefined;
  /** WEBHOOK_WORKER=off: this server delivers nothing (run `pnpm worker` elsewhere). */
  workerInServer: boolean;
  delivery: DeliverySettings;
  outbound: OutboundPolicy;
}

function retryDelays(env: NodeJS.ProcessEnv): number[] {
  const raw = env.WEBHOOK_RETRY_DELAYS_MS;
  if (!raw) return [...DEFAULT_DELIVERY_SETTINGS.retryDelaysMs];
  const delays = raw.split(",").map((part) => Number(part.trim()));
  if (delays.length !== 4 || delays.some((delay) => !Number.isInteger(delay) || delay < 0)) {
    throw new Error(`WEBHOOK_RETRY_DELAYS_MS must be four comma-separated non-negative integers (milliseconds), got "${raw}"`);
  }
  return delays;
}

export function readWebhookSettings(env: NodeJS.ProcessEnv = process.env): WebhookSettings {
  return {
    secretKey: env.WEBHOOK_SECRET_KEY || undefined,
    workerInServer: !["off", "false", "0"].includes((env.WEBHOOK_WORKER ?? "on").toLowerCase()),
    delivery: {
      retryDelaysMs: retryDelays(env),
      attemptTimeoutMs: nonNegativeInteger(env, "WEBHOOK_TIMEOUT_MS", DEFAULT_DELIVERY_SETTINGS.attemptTimeoutMs),
      leaseMarginMs: nonNegativeInteger(env, "WEBHOOK_LEASE_MARGIN_MS", DEFAULT_DELIVERY_SETTINGS.leaseMarginMs),
      disableAfterMs: nonNegativeInteger(env, "WEBHOOK_DISABLE_AFTER_MS", DEFAULT_DELIVERY_SETTINGS.disableAfterMs),
    },
    outbound: outboundPolicyFromEnv(env),
  };
}

function nonNegativeInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be an integer 0-65535, got "${env.PORT}"`);
  const host = env.HOST || "0.0.0.0";
  return {
    port,
    host,
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ""),
    dataDir: env.DATA_DIR || "./.data",
    databaseUrl: env.DATABASE_URL || undefined,
    databaseTimeouts: databaseTimeoutsFromEnv(env),
    databaseStartupTimeoutMs: nonNegativeInteger(env, "DB_STARTUP_TIMEOUT_MS", 30_000),
    adminApiKey: env.ADMIN_API_KEY || undefined,
    demoSeed: !["off", "false", "0"].includes((env.DEMO_SEED ?? "on").toLowerCase()),
    logLevel: env.LOG_LEVEL || "info",
    bodyLimitBytes: nonNegativeInteger(env, "BODY_LIMIT_BYTES", 100_000),
    trustProxyHops: nonNegativeInteger(env, "TRUST_PROXY", 0),
    webhooks: readWebhookSettings(env),
    metricsToken: env.METRICS_TOKEN || undefined,
    connectionTimeouts: readConnectionTimeouts(env),
    mcpSse: readMcpSseLimits(env),
    allowedHosts: (env.ALLOWED_HOSTS ?? "")
      .split(",")
      .map((host) => host.trim())
      .filter(Boolean),
    rateLimits: {
      anonymousPerDay: nonNegativeInteger(env, "ANON_DAILY_LIMIT", DEFAULT_RATE_LIMITS.anonymousPerDay),
      keyedPerMonth: nonNegativeInteger(env, "KEY_MONTHLY_LIMIT", DEFAULT_RATE_LIMITS.keyedPerMonth),
      openPerMinute: nonNegativeInteger(env, "ANON_MINUTE_LIMIT", DEFAULT_RATE_LIMITS.openPerMinute),
      leadsPerAddressPerHour: nonNegativeInteger(env, "LEADS_PER_ADDRESS_HOURLY", DEFAULT_RATE_LIMITS.leadsPerAddressPerHour),
      leadsPerKeyPerHour: nonNegativeInteger(env, "LEADS_PER_KEY_HOURLY", DEFAULT_RATE_LIMITS.leadsPerKeyPerHour),
      leadsPerBusinessPerDay: nonNegativeInteger(env, "LEADS_PER_BUSINESS_DAILY", DEFAULT_RATE_LIMITS.leadsPerBusinessPerDay),
      webhookSendsPerKeyPerHour: nonNegativeInteger(env, "WEBHOOK_SENDS_PER_KEY_HOURLY", DEFAULT_RATE_LIMITS.webhookSendsPerKeyPerHour),
      correctionsPerAddressPerHour: nonNegativeInteger(env, "CORRECTIONS_PER_ADDRESS_HOURLY", DEFAULT_RATE_LIMITS.correctionsPerAddressPerHour),
      correctionsPerKeyPerHour: nonNegativeInteger(env, "CORRECTIONS_PER_KEY_HOURLY", DEFAULT_RATE_LIMITS.correctionsPerKeyPerHour),
    },
  };
}
