import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { EnvironmentError } from "@directory/db";
import { describe, expect, it } from "vitest";
import { readConfig, readWorkerConfig } from "./config";

const run = promisify(execFile);
const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The documented defaults (docs/configuration.md, .env.example), as the server holds them. */
const DOCUMENTED = {
  port: 3000,
  host: "0.0.0.0",
  publicBaseUrl: "http://localhost:3000",
  dataDir: "./.data",
  databaseUrl: undefined,
  databaseTimeouts: { connectMs: 2000, statementMs: 3000, idleMs: 60_000 },
  databaseStartupTimeoutMs: 30_000,
  readReplicas: { urls: [], maxLagMs: 5000 },
  adminApiKey: undefined,
  demoSeed: true,
  logLevel: "info",
  bodyLimitBytes: 100_000,
  trustProxyHops: 0,
  allowedHosts: [],
  metricsToken: undefined,
  connectionTimeouts: { headersMs: 15_000, requestMs: 30_000, keepAliveMs: 5000, silentMs: 10_000 },
  mcpSse: { maxSseSessions: 100, maxSseSessionsPerClient: 2, sseSessionsReservedForKeys: 20, sseIdleTimeoutMs: 300_000 },
  partnerExports: { slots: 4, maxDurationMs: 1_800_000, minBytesPerSecond: 65_536, rateWindowMs: 30_000 },
  mail: { smtpUrl: undefined, from: "Business Directory <no-reply@localhost>" },
  billing: { stripe: null },
  siteOutbound: { allowLoopback: false },
  rateLimits: {
    anonymousPerDay: 500,
    keyedPerMonth: 10_000,
    trialPerMonth: 100,
    signInMailsPerAddressPerHour: 5,
    signInMailsPerClientPerHour: 20,
    openPerMinute: 120,
    leadsPerAddressPerHour: 10,
    leadsPerKeyPerHour: 100,
    leadsPerBusinessPerDay: 50,
    webhookSendsPerKeyPerHour: 20,
    correctionsPerAddressPerHour: 10,
    correctionsPerKeyPerHour: 100,
  },
  webhooks: {
    secretKey: undefined,
    workerInServer: true,
    delivery: { retryDelaysMs: [60_000, 600_000, 3_600_000, 21_600_000], attemptTimeoutMs: 10_000, leaseMarginMs: 30_000, disableAfterMs: 259_200_000 },
    outbound: { allowLoopback: false },
  },
  // No engine: no citation check runs.
  citations: {
    engines: [],
    checksPerDay: 200,
    timeoutMs: 60_000,
    concurrency: 2,
    retryDelaysMs: [60_000, 600_000, 3_600_000],
    apiKeys: { openai: undefined, anthropic: undefined, google: undefined, perplexity: undefined, compatible: undefined },
  },
};

/** The message a bad environment fails with, or undefined when it parses. */
function failure(env: NodeJS.ProcessEnv, read: (env: NodeJS.ProcessEnv) => unknown = readConfig): string | undefined {
  try {
    read(env);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(EnvironmentError);
    return (error as Error).message;
  }
}

describe("the server's environment", () => {
  it("holds the documented defaults when nothing is set, and when every variable is set empty", () => {
    expect(readConfig({})).toEqual(DOCUMENTED);
    const empty = Object.fromEntries(
      ["PORT", "HOST", "DATA_DIR", "LOG_LEVEL", "DEMO_SEED", "WEBHOOK_WORKER", "TRUST_PROXY", "DB_IDLE_TIMEOUT_MS"].map((name) => [name, ""]),
    );
    expect(readConfig(empty)).toEqual(DOCUMENTED);
  });

  it("reads each kind of value: numbers, switches, lists, URLs", () => {
    const config = readConfig({
      PORT: "8080",
      DATABASE_URL: "postgres://u:p@db:5432/directory",
      DB_STATEMENT_TIMEOUT_MS: "0",
      DEMO_SEED: "OFF",
      WEBHOOK_WORKER: "false",
      ALLOWED_HOSTS: " a.example , b.example,",
      PUBLIC_BASE_URL: "https://directory.example/",
      WEBHOOK_ALLOW_LOOPBACK: "1",
      LOG_LEVEL: "debug",
      DATABASE_REPLICA_URLS: "postgres://u:p@replica-1/directory, postgresql://u:p@replica-2/directory",
      REPLICA_MAX_LAG_MS: "2000",
    });
    expect(config).toMatchObject({
      readReplicas: { urls: ["postgres://u:p@replica-1/directory", "postgresql://u:p@replica-2/directory"], maxLagMs: 2000 },
      port: 8080,
      publicBaseUrl: "https://directory.example",
      databaseUrl: "postgres://u:p@db:5432/directory",
      databaseTimeouts: { statementMs: 0 },
      demoSeed: false,
      allowedHosts: ["a.example", "b.example"],
      logLevel: "debug",
      webhooks: { workerInServer: false, outbound: { allowLoopback: true } },
    });
    expect(readConfig({ PORT: "8080" }).publicBaseUrl).toBe("http://localhost:8080");
  });

  it.each([
    [{ PORT: "eighty" }, /^bad environment: PORT must be an integer 0-65535, got "eighty"$/],
    [{ PORT: "70000" }, /PORT must be an integer 0-65535/],
    [{ TRUST_PROXY: "-1" }, /TRUST_PROXY must be a non-negative integer, got "-1"/],
    [{ ANON_DAILY_LIMIT: "1.5" }, /ANON_DAILY_LIMIT must be a non-negative integer/],
    [{ DB_CONNECT_TIMEOUT_MS: "2s" }, /DB_CONNECT_TIMEOUT_MS must be a non-negative integer \(milliseconds\), got "2s"/],
    [{ DEMO_SEED: "nope" }, /DEMO_SEED must be on or off/],
    [{ WEBHOOK_WORKER: "disabled" }, /WEBHOOK_WORKER must be on or off/],
    [{ LOG_LEVEL: "verbose" }, /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"/],
    [{ PUBLIC_BASE_URL: "directory.example" }, /PUBLIC_BASE_URL must be a URL starting http:\/\/ or https:\/\//],
    [{ DATABASE_URL: "mysql://secret@db/x" }, /^bad environment: DATABASE_URL must be a URL starting postgres:\/\/ or postgresql:\/\/$/],
    [
      { DATABASE_URL: "postgres://db/x", DATABASE_REPLICA_URLS: "postgres://r1/x,http://secret@r2/x" },
      /^bad environment: DATABASE_REPLICA_URLS must be comma-separated URLs starting postgres:\/\/ or postgresql:\/\/ \(bad: entry 2\)$/,
    ],
    [{ DATABASE_REPLICA_URLS: "postgres://r1/x" }, /DATABASE_REPLICA_URLS needs DATABASE_URL: the embedded database has no replicas/],
    [{ WEBHOOK_RETRY_DELAYS_MS: "1,2,3" }, /WEBHOOK_RETRY_DELAYS_MS must be four comma-separated non-negative integers/],
    [{ WEBHOOK_ALLOW_LOOPBACK: "yes" }, /WEBHOOK_ALLOW_LOOPBACK must be true or false/],
    [{ WEBHOOK_ALLOW_LOOPBACK: "true", NODE_ENV: "production" }, /WEBHOOK_ALLOW_LOOPBACK is set while NODE_ENV=production/],
    [{ OUTBOUND_ALLOW_LOOPBACK: "true", NODE_ENV: "production" }, /OUTBOUND_ALLOW_LOOPBACK is set while NODE_ENV=production/],
    [{ HTTP_HEADERS_TIMEOUT_MS: "5000", HTTP_REQUEST_TIMEOUT_MS: "4000" }, /HTTP_HEADERS_TIMEOUT_MS \(5000\) must not exceed HTTP_REQUEST_TIMEOUT_MS \(4000\)/],
  ])("refuses %o, naming the variable in one line", (env, message) => {
    const text = failure(env);
    expect(text).toMatch(message);
    expect(text).not.toContain("\n");
  });

  it("names every bad variable at once, and never echoes a database URL (it carries a password)", () => {
    const text = failure({ PORT: "x", TRUST_PROXY: "y", DATABASE_URL: "not a url with password hunter2" });
    expect(text).toMatch(/PORT .*; TRUST_PROXY /);
    expect(text).toMatch(/DATABASE_URL/);
    expect(text).not.toContain("hunter2");
  });
});

describe("the worker's environment", () => {
  it("holds the server's defaults for what it reads, and ignores the server's other variables", () => {
    const { publicBaseUrl, dataDir, databaseUrl, databaseTimeouts, databaseStartupTimeoutMs, logLevel, webhooks, citations } = DOCUMENTED;
    const { secretKey, delivery, outbound } = webhooks;
    const shared = { publicBaseUrl, dataDir, databaseUrl, databaseTimeouts, databaseStartupTimeoutMs, logLevel, citations };
    const workerWebhooks = { secretKey, delivery, outbound };
    expect(readWorkerConfig({ TRUST_PROXY: "not read by the worker" })).toEqual({ ...shared, webhooks: workerWebhooks });
    expect(failure({ WEBHOOK_TIMEOUT_MS: "soon" }, readWorkerConfig)).toMatch(/WEBHOOK_TIMEOUT_MS must be a non-negative integer/);
  });
});

describe("a process started with a bad environment", () => {
  // The entry points as an operator runs them (from source here): exit 1 with one line on stderr, no stack.
  it.each(["main.ts", "worker-main.ts"])(
    "%s exits 1 with one line naming the variable",
    async (entry) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), "directory-env-"));
      try {
        const started = run(process.execPath, ["--import", "tsx", path.join(appDir, "src", entry)], {
          cwd: appDir,
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", PORT: "eighty" },
        });
        const error = await started.then(
          () => undefined,
          (failed: { code: number; stderr: string }) => failed,
        );
        expect(error?.code).toBe(1);
        const lines = error!.stderr.trim().split("\n");
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/: bad environment: PORT must be an integer 0-65535, got "eighty"$/);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
