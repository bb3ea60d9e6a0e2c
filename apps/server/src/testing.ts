import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DestinationStream } from "pino";
import { randomBytes } from "node:crypto";
import {
  createApiKey,
  type CitationEngine,
  createSecretBox,
  DEFAULT_DELIVERY_SETTINGS,
  type DeliverySettings,
  type FeedExportLimits,
  type StripeSettings,
  type RateLimitSettings,
  type WebhookConfig,
} from "@directory/api";
import { createDatabase, type ReadReplicas } from "@directory/db";
import { createTestDatabase, type TestDatabase, type TestDatabaseOptions } from "@directory/api/testing";
import * as sourceModules from "./server-modules";
import type { McpSseLimits } from "./config";
import type { WebhookWorker } from "./webhooks/worker";

export { SMALL_TEST_WORLD } from "@directory/api/testing";
/** The procedures' output types, for a test to say which body it expects. */
export type * as Api from "@directory/api/schemas";

/**
 * The server under test: the TypeScript sources, or with TEST_SERVER=dist the bundle `start` runs
 * (built before the run by vitest.global-setup.ts). CI runs the suite both ways.
 */
async function loadServerUnderTest(choice = process.env.TEST_SERVER ?? "source"): Promise<{ location: string; modules: typeof sourceModules }> {
  if (choice === "source") return { location: new URL("./server-modules.ts", import.meta.url).href, modules: sourceModules };
  if (choice !== "dist") throw new Error(`TEST_SERVER=${choice}: use "source" (the default) or "dist" (the built bundle)`);
  const location = new URL("../dist/server-modules.js", import.meta.url).href;
  return { location, modules: (await import(location)) as typeof sourceModules };
}

export const serverUnderTest = await loadServerUnderTest();
const { createApp, createMetrics, answerClientErrorsWithJson, createLogger, createMailer, createStripeProvider, startWebhookWorker } = serverUnderTest.modules;

export interface TestServer {
  url: string;
  database: TestDatabase;
  /** A fresh admin key, created directly in the test database. */
  adminKey: string;
  /** The sealing key and outbound policy this server uses (loopback receivers allowed, as for local development). */
  webhookConfig: WebhookConfig;
  /** Set when the server runs a webhook worker (options.webhookWorker). */
  worker: WebhookWorker | null;
  close(): Promise<void>;
}

/** A real server on 127.0.0.1 (random port) over a real test database. */
export interface TestServerOptions extends TestDatabaseOptions {
  bodyLimitBytes?: number;
  rateLimits?: Partial<RateLimitSettings>;
  /** Export slots and bounds (small windows let a test see a stalled export cut in seconds). */
  partnerExports?: Partial<FeedExportLimits>;
  trustProxyHops?: number;
  /** Where log lines go (default: none unless TEST_LOG_LEVEL is set), for tests that read the log. */
  logDestination?: DestinationStream;
  /** Streaming replicas of the database serving the reads that may be a little behind (the test closes them). */
  readReplicas?: ReadReplicas;
  /** Serve an existing database instead of creating one (several instances on one database). */
  database?: TestDatabase;
  /** false: create no admin key (adminKey is then ""), for a database that is down or has no tables. */
  adminKey?: false;
  /** Run a webhook worker in this server, with these delivery settings over the defaults. */
  webhookWorker?: { settings?: Partial<DeliverySettings>; pollIntervalMs?: number };
  /** Caps of the legacy MCP SSE sessions (small ones let a test fill them). */
  mcpSse?: Partial<McpSseLimits>;
  /** Serve GET /metrics to requests bearing this token. */
  metricsToken?: string;
  /** The 32-byte key sealing webhook secrets (default: random), to share with a worker in another process. */
  webhookSecretKey?: Buffer;
  /** Send mail through this SMTP server (a loopback test server); default: .eml files in a temporary folder. */
  smtpUrl?: string;
  /**
   * Stripe as the payment provider (pointed at a stand-in on loopback); default none. Made by the
   * server under test's own modules, so its errors are the ones that server's procedures know.
   */
  stripe?: StripeSettings;
  /**
   * PUBLIC_BASE_URL is the server's own address (as a browser sees it), not http://directory.test:
   * sign-in links and the Origin a session's changes must carry then point at the server itself.
   */
  ownPublicBaseUrl?: boolean;
  /** The engines of citation checks (CITATION_ENGINES; a loopback stand-in in tests); default none. */
  citationEngines?: readonly CitationEngine[];
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownsDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase(options));
  const adminKey = options.adminKey === false ? "" : (await createApiKey(database.db, { kind: "admin", label: "test" })).key;
  const logger = options.logDestination ? createLogger("info", options.logDestination) : createLogger(process.env.TEST_LOG_LEVEL ?? "silent");
  let url = "";
  const webhookConfig: WebhookConfig = { secretBox: createSecretBox(options.webhookSecretKey ?? randomBytes(32)), outbound: { allowLoopback: true } };
  const metrics = createMetrics({ database, readReplicas: options.readReplicas, defaultMetrics: false });
  // Listening first, so the server can know its own address when it is its public base URL.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  answerClientErrorsWithJson(server);
  const address = server.address();
  if (typeof address === "object" && address) url = `http://127.0.0.1:${address.port}`;
  const publicBaseUrl = options.ownPublicBaseUrl ? url : "http://directory.test";
  const mailer = createMailer({
    smtpUrl: options.smtpUrl,
    from: "Business Directory <no-reply@directory.test>",
    dataDir: path.join(tmpdir(), "directory-test-mail"),
    log: (fields, message) => logger.info(fields, message),
  });
  const app = createApp({
    webhookConfig,
    metrics,
    metricsToken: options.metricsToken,
    database,
    readReplicas: options.readReplicas,
    publicBaseUrl,
    logger,
    bodyLimitBytes: options.bodyLimitBytes,
    rateLimits: options.rateLimits,
    partnerExports: options.partnerExports,
    trustProxyHops: options.trustProxyHops,
    mcpSse: options.mcpSse,
    mailer,
    paymentProvider: options.stripe ? createStripeProvider(options.stripe) : undefined,
    // Test sites (a claim's website) listen on loopback, as OUTBOUND_ALLOW_LOOPBACK=true allows in development.
    siteOutbound: { allowLoopback: true },
    citationEngines: options.citationEngines,
  });
  server.on("request", app);
  const worker = options.webhookWorker
    ? startWebhookWorker({
        database,
        publicBaseUrl,
        ...webhookConfig,
        settings: { ...DEFAULT_DELIVERY_SETTINGS, ...options.webhookWorker.settings },
        pollIntervalMs: options.webhookWorker.pollIntervalMs,
        logger,
        onAttempt: metrics.webhookAttempt,
      })
    : null;
  return {
    url,
    database,
    adminKey,
    webhookConfig,
    worker,
    close: async () => {
      await worker?.stop();
      mailer.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (ownsDatabase) await database.destroy();
    },
  };
}

/**
 * One more server on a database another test server already serves, as a second process would be:
 * on PostgreSQL with a connection pool of its own (PGlite has one connection, so it shares it).
 * Its close() closes that pool; the database stays its first server's.
 */
export async function startAnotherInstance(database: TestDatabase, options: Omit<TestServerOptions, "database"> = {}): Promise<TestServer> {
  const pool = database.url ? await createDatabase({ url: database.url }) : undefined;
  const server = await startTestServer({ ...options, database: pool ? { ...pool, destroy: () => pool.close() } : database });
  return {
    ...server,
    close: async () => {
      await server.close();
      await pool?.close();
    },
  };
}

/** The body of every REST error (packages/api errors.ts); a test that reads an error's details adds them to it. */
export interface ErrorBody {
  error: string;
  code: string;
}

/** A refusal by a rate limit names the limit it hit and when it resets. */
export type RateLimitedBody = ErrorBody & { policy: string; limit: number; resetAt: string };

/** A tRPC call's success over raw HTTP, in superjson's envelope. */
export interface TrpcResult<T> {
  result: { data: { json: T } };
}

/** A tRPC call's failure over raw HTTP: the REST error body (E, with any details a test reads) rides along as data.public. */
export interface TrpcError<E extends ErrorBody = ErrorBody> {
  error: { json: { message: string; code: number; data: { code: string; httpStatus: number; path?: string; public: E } } };
}

/** An MCP JSON-RPC answer over raw HTTP: R (a tool's CallToolResult, say) or a JSON-RPC error. */
export interface McpAnswer<R> {
  jsonrpc: "2.0";
  id: number | string | null;
  result?: R;
  error?: { code: number; message: string; data?: unknown };
}

/** A tool's result as tests read it over raw HTTP: the server's tools answer in text parts, S is the structured content. */
export interface ToolResult<S = Record<string, unknown>> {
  isError?: boolean;
  content: { type: "text"; text: string }[];
  structuredContent?: S;
}

/**
 * What tests read of the served OpenAPI document (/api/openapi.json). It has no schema of its own
 * (trpc-to-openapi writes it), so these name only the parts tests assert on.
 */
export interface OpenApiSchema {
  $ref?: string;
  type?: string;
  format?: string;
  default?: unknown;
  example?: unknown;
  /** Shown with the schema, never pre-filled by Swagger UI (openapi-recorded-examples.ts). */
  examples?: unknown[];
  maxLength?: number;
  required?: string[];
  allOf?: OpenApiSchema[];
  properties?: Record<string, OpenApiSchema>;
}

/** A media type's schema and its named examples (the recorded ones are named "demo"). */
export interface OpenApiContent {
  schema?: OpenApiSchema;
  examples?: Record<string, { value?: unknown }>;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, OpenApiContent>;
}

export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: OpenApiSchema;
  example?: unknown;
  default?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

export interface OpenApiOperation {
  operationId: string;
  summary?: string;
  description?: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, OpenApiContent> };
  responses: Record<string, OpenApiResponse>;
  security: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string; license?: { name: string; url: string }; contact?: { email: string } };
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  /** Operations by path, then by lower-case method. */
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, OpenApiSchema>;
    headers: Record<string, { description: string; schema: OpenApiSchema }>;
    securitySchemes: Record<string, { type: string; scheme?: string }>;
  };
}

/**
 * GET a path and parse JSON (a body that is not JSON stays its text), keeping status and headers for
 * assertions. T is the body the test expects, not checked here: the test's assertions check it.
 */
export async function getJson<T = unknown>(baseUrl: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, { headers });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body: body as T };
}
