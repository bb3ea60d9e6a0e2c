import { citationVariables, DEFAULT_DELIVERY_SETTINGS, DEFAULT_FEED_EXPORT_LIMITS, DEFAULT_RATE_LIMITS, outboundPolicyFromEnv } from "@directory/api";
import { databaseEnvironment, nonNegativeInteger, onOff, optionalText, text, url } from "@directory/db";
import { DEFAULT_SSE_LIMITS } from "@directory/mcp";
import { z } from "zod";

/**
 * Every variable the server and the webhook worker read, each with its default (.env.example lists
 * them; deployment.test.ts checks the two agree). config.ts turns the parsed values into the
 * settings the process runs with.
 */

export const DEFAULT_CONNECTION_TIMEOUTS = { headersMs: 15_000, requestMs: 30_000, keepAliveMs: 5_000, silentMs: 10_000 };

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const port = z
  .string()
  .optional()
  .transform((raw, context) => {
    const value = Number(raw || 3000);
    if (Number.isInteger(value) && value >= 0 && value <= 65535) return value;
    context.addIssue({ code: "custom", message: `must be an integer 0-65535, got "${raw}"` });
    return z.NEVER;
  });

const retryDelays = z
  .string()
  .optional()
  .transform((raw, context) => {
    if (!raw) return [...DEFAULT_DELIVERY_SETTINGS.retryDelaysMs];
    const delays = raw.split(",").map((part) => Number(part.trim()));
    if (delays.length === 4 && delays.every((delay) => Number.isInteger(delay) && delay >= 0)) return delays;
    context.addIssue({ code: "custom", message: `must be four comma-separated non-negative integers (milliseconds), got "${raw}"` });
    return z.NEVER;
  });

/** The values outboundPolicyFromEnv understands; it decides what they mean, and refuses loopback in production. */
const allowLoopback = z
  .string()
  .optional()
  .refine((raw) => !raw || ["true", "false", "1", "0"].includes(raw.trim().toLowerCase()), { message: "must be true or false (or 1/0)" });

const commaList = z
  .string()
  .optional()
  .transform((raw) =>
    (raw ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  );

/** What the worker reads: the database, where its URLs point, webhook delivery and citation checks. */
const workerVariables = {
  ...databaseEnvironment,
  PORT: port,
  PUBLIC_BASE_URL: url(["http:", "https:"]),
  DB_STARTUP_TIMEOUT_MS: nonNegativeInteger(30_000, " (milliseconds)"),
  LOG_LEVEL: z
    .string()
    .optional()
    .transform((raw) => (raw ? raw : "info"))
    .pipe(z.enum(LOG_LEVELS, { error: (issue) => `must be one of ${LOG_LEVELS.join(", ")}, got "${String(issue.input)}"` })),
  NODE_ENV: optionalText(),
  WEBHOOK_SECRET_KEY: optionalText(),
  WEBHOOK_RETRY_DELAYS_MS: retryDelays,
  WEBHOOK_TIMEOUT_MS: nonNegativeInteger(DEFAULT_DELIVERY_SETTINGS.attemptTimeoutMs),
  WEBHOOK_LEASE_MARGIN_MS: nonNegativeInteger(DEFAULT_DELIVERY_SETTINGS.leaseMarginMs),
  WEBHOOK_DISABLE_AFTER_MS: nonNegativeInteger(DEFAULT_DELIVERY_SETTINGS.disableAfterMs),
  WEBHOOK_ALLOW_LOOPBACK: allowLoopback,
  /** Citation checks run where background work runs (services/citations/env.ts). */
  ...citationVariables,
};

/** The server reads the worker's variables and those of its HTTP doors, limits and start. */
const serverVariables = {
  ...workerVariables,
  HOST: text("0.0.0.0"),
  ADMIN_API_KEY: optionalText(),
  DEMO_SEED: onOff(true),
  BODY_LIMIT_BYTES: nonNegativeInteger(100_000),
  TRUST_PROXY: nonNegativeInteger(0),
  ALLOWED_HOSTS: commaList,
  METRICS_TOKEN: optionalText(),
  WEBHOOK_WORKER: onOff(true),
  HTTP_HEADERS_TIMEOUT_MS: nonNegativeInteger(DEFAULT_CONNECTION_TIMEOUTS.headersMs),
  HTTP_REQUEST_TIMEOUT_MS: nonNegativeInteger(DEFAULT_CONNECTION_TIMEOUTS.requestMs),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: nonNegativeInteger(DEFAULT_CONNECTION_TIMEOUTS.keepAliveMs),
  HTTP_SILENT_TIMEOUT_MS: nonNegativeInteger(DEFAULT_CONNECTION_TIMEOUTS.silentMs),
  MCP_SSE_MAX_SESSIONS: nonNegativeInteger(DEFAULT_SSE_LIMITS.maxSseSessions),
  MCP_SSE_MAX_SESSIONS_PER_ADDRESS: nonNegativeInteger(DEFAULT_SSE_LIMITS.maxSseSessionsPerClient),
  MCP_SSE_SESSIONS_RESERVED_FOR_KEYS: nonNegativeInteger(DEFAULT_SSE_LIMITS.sseSessionsReservedForKeys),
  MCP_SSE_IDLE_TIMEOUT_MS: nonNegativeInteger(DEFAULT_SSE_LIMITS.sseIdleTimeoutMs),
  ANON_DAILY_LIMIT: nonNegativeInteger(DEFAULT_RATE_LIMITS.anonymousPerDay),
  KEY_MONTHLY_LIMIT: nonNegativeInteger(DEFAULT_RATE_LIMITS.keyedPerMonth),
  TRIAL_MONTHLY_LIMIT: nonNegativeInteger(DEFAULT_RATE_LIMITS.trialPerMonth),
  SIGN_IN_MAILS_PER_ADDRESS_HOURLY: nonNegativeInteger(DEFAULT_RATE_LIMITS.signInMailsPerAddressPerHour),
  SIGN_IN_MAILS_PER_CLIENT_HOURLY: nonNegativeInteger(DEFAULT_RATE_LIMITS.signInMailsPerClientPerHour),
  SMTP_URL: url(["smtp:", "smtps:"]),
  OUTBOUND_ALLOW_LOOPBACK: allowLoopback,
  MAIL_FROM: optionalText(),
  STRIPE_SECRET_KEY: optionalText(),
  STRIPE_WEBHOOK_SECRET: optionalText(),
  STRIPE_PRICE_ID: optionalText(),
  ANON_MINUTE_LIMIT: nonNegativeInteger(DEFAULT_RATE_LIMITS.openPerMinute),
  LEADS_PER_ADDRESS_HOURLY: nonNegativeInteger(DEFAULT_RATE_LIMITS.leadsPerAddressPerHour),
  LEADS_PER_KEY_HOURLY: nonNegativeInteger(DEFAULT_RATE_LIMITS.leadsPerKeyPerHour),
  LEADS_PER_BUSINESS_DAILY: nonNegativeInteger(DEFAULT_RATE_LIMITS.leadsPerBusinessPerDay),
  WEBHOOK_SENDS_PER_KEY_HOURLY: nonNegativeInteger(DEFAULT_RATE_LIMITS.webhookSendsPerKeyPerHour),
  CORRECTIONS_PER_ADDRESS_HOURLY: nonNegativeInteger(DEFAULT_RATE_LIMITS.correctionsPerAddressPerHour),
  CORRECTIONS_PER_KEY_HOURLY: nonNegativeInteger(DEFAULT_RATE_LIMITS.correctionsPerKeyPerHour),
  PARTNER_EXPORT_SLOTS: nonNegativeInteger(DEFAULT_FEED_EXPORT_LIMITS.slots),
  PARTNER_EXPORT_MAX_DURATION_MS: nonNegativeInteger(DEFAULT_FEED_EXPORT_LIMITS.maxDurationMs, " (milliseconds)"),
  PARTNER_EXPORT_MIN_BYTES_PER_SECOND: nonNegativeInteger(DEFAULT_FEED_EXPORT_LIMITS.minBytesPerSecond),
  PARTNER_EXPORT_RATE_WINDOW_MS: nonNegativeInteger(DEFAULT_FEED_EXPORT_LIMITS.rateWindowMs, " (milliseconds)"),
};

type LoopbackSwitch = "WEBHOOK_ALLOW_LOOPBACK" | "OUTBOUND_ALLOW_LOOPBACK";

/** Production deliveries reach public addresses only: outboundPolicyFromEnv refuses loopback there. */
function outboundPolicy(
  env: { NODE_ENV?: string | undefined } & Partial<Record<LoopbackSwitch, string | undefined>>,
  context: z.RefinementCtx,
  variable: LoopbackSwitch = "WEBHOOK_ALLOW_LOOPBACK",
) {
  try {
    return outboundPolicyFromEnv({ [variable]: env[variable], NODE_ENV: env.NODE_ENV }, variable);
  } catch (error) {
    context.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
    return z.NEVER;
  }
}

export const workerEnvironmentSchema = z.object(workerVariables).transform((env, context) => ({ ...env, outbound: outboundPolicy(env, context) }));

export const serverEnvironmentSchema = z.object(serverVariables).transform((env, context) => {
  // Node refuses a request deadline shorter than the headers' one; say which variables to change.
  if (env.HTTP_REQUEST_TIMEOUT_MS > 0 && env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
    context.addIssue({
      code: "custom",
      path: ["HTTP_HEADERS_TIMEOUT_MS"],
      message: `(${env.HTTP_HEADERS_TIMEOUT_MS}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${env.HTTP_REQUEST_TIMEOUT_MS})`,
    });
  }
  if (env.DATABASE_REPLICA_URLS.length > 0 && !env.DATABASE_URL) {
    context.addIssue({ code: "custom", path: ["DATABASE_REPLICA_URLS"], message: "needs DATABASE_URL: the embedded database has no replicas" });
  }
  // Stripe is configured by all three variables or none: a partial set is a mistake to name, not a silent "off".
  const stripe = [env.STRIPE_SECRET_KEY, env.STRIPE_WEBHOOK_SECRET, env.STRIPE_PRICE_ID].filter(Boolean).length;
  if (stripe !== 0 && stripe !== 3) {
    context.addIssue({
      code: "custom",
      path: ["STRIPE_SECRET_KEY"],
      message: "STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID must be set together (or none)",
    });
  }
  return { ...env, outbound: outboundPolicy(env, context), siteOutbound: outboundPolicy(env, context, "OUTBOUND_ALLOW_LOOPBACK") };
});

export type WorkerEnvironment = z.output<typeof workerEnvironmentSchema>;
export type ServerEnvironment = z.output<typeof serverEnvironmentSchema>;
