import { randomUUID } from "node:crypto";
import express, { type Express } from "express";
import { pinoHttp } from "pino-http";
import { createTRPCClient, localLink } from "@trpc/client";
import { createExpressMiddleware } from "@trpc/server/adapters/express";
import superjson from "superjson";
import { createOpenApiExpressMiddleware } from "trpc-to-openapi";
import {
  appRouter,
  createCaller,
  createContext,
  createOpenApiDocument,
  FeedExportSlots,
  restRouter,
  toPublicError,
  type AppRouter,
  type CitationEngine,
  type DirectoryMeta,
  type FeedExportLimits,
  type Mailer,
  type OutboundPolicy,
  type PaymentProvider,
  type RateLimitSettings,
  type WebhookConfig,
} from "@directory/api";
import type { Database, ReadReplicas } from "@directory/db";
import { mountMcp } from "@directory/mcp";
import { mountBillingDoor } from "./billing-door";
import { classifyBodyError } from "./body-errors";
import type { McpSseLimits } from "./config";
import { mountDocs } from "./docs";
import { errorHandler, publicErrorBodies, sendError } from "./errors";
import { mountGraphql } from "./graphql";
import { bearerChallenge, graphqlAuthChallenge } from "./auth-challenges";
import { compressionMiddleware, publicReadCors, responseConventions, restHeadAsGet } from "./http-conventions";
import { LOG_SERIALIZERS, type Logger } from "./logger";
import { createMetrics, metricsEndpoint, policyOf, type ServerMetrics } from "./metrics";
import { htmlNotFound, mountPages } from "./pages";
import { mountPartnerFeedDoor } from "./partner-feed-door";
import { queryInput } from "./query-input";
import { bodyParsers, decodeUnreservedPathEscapes, emptyBodyIsEmptyObject, pathParameterGate, trpcJsonContentType } from "./request-hygiene";
import { createRouteClassifier } from "./route-classifier";
import { mountWellKnown } from "./well-known";
import { mountDiscoveryRoutes } from "./discovery-routes";

export interface AppDeps {
  database: Database;
  publicBaseUrl: string;
  logger: Logger;
  bodyLimitBytes?: number;
  /** Proxy hops whose X-Forwarded-For is trusted (TRUST_PROXY); default 0: the socket address. */
  trustProxyHops?: number;
  /** Hostnames besides the public base URL's that MCP requests may name in Host/Origin (ALLOWED_HOSTS). */
  allowedHosts?: string[];
  rateLimits?: Partial<RateLimitSettings>;
  /** Sealing key and outbound policy for webhook registration; without it the webhook routes answer 503. */
  webhookConfig?: WebhookConfig;
  /** GET /metrics answers only requests bearing this token (METRICS_TOKEN); without it there is no /metrics. */
  metricsToken?: string;
  /** Streaming replicas serving the reads that may be a little behind (DATABASE_REPLICA_URLS); none by default. */
  readReplicas?: ReadReplicas | null;
  /** This instance's metrics (shared with an in-process webhook worker); default: a fresh registry. */
  metrics?: ServerMetrics;
  /** Caps of the legacy MCP SSE transport (MCP_SSE_*); default DEFAULT_SSE_LIMITS. */
  mcpSse?: Partial<McpSseLimits>;
  /** Export slots and the bounds of a partner export (PARTNER_EXPORT_*); default DEFAULT_FEED_EXPORT_LIMITS. */
  partnerExports?: Partial<FeedExportLimits>;
  /** Sends sign-in links (SMTP_URL, or .eml files under DATA_DIR/mail); without it sign-in answers 503. */
  mailer?: Mailer;
  /** The payment provider of the developer plan (STRIPE_*); without it operators grant plans. */
  paymentProvider?: PaymentProvider;
  /** Where a claim's website may be fetched (OUTBOUND_ALLOW_LOOPBACK); default public addresses only. */
  siteOutbound?: OutboundPolicy;
  /** The engines citation checks ask (CITATION_ENGINES, parsed once at start); default none: owners are told no check runs. */
  citationEngines?: readonly CitationEngine[];
}

/** Request ids: keep a caller's if it is short and plain, so traces join up across services. */
const REQUEST_ID_PATTERN = /^[\w.-]{1,64}$/;

type Procedures = Record<string, { _def: { meta?: DirectoryMeta } } | undefined>;
const PROCEDURES = appRouter._def.procedures as unknown as Procedures;
/** appRouter's and the REST-only partner export's. */
const REST_PROCEDURES = restRouter._def.procedures as unknown as Procedures;

function procedureMeta(path: string): DirectoryMeta | undefined {
  return PROCEDURES[path]?._def.meta;
}

/** Route templates and the procedures a request calls, for Cache-Control, CORS and metrics labels. */
const classifyRoute = createRouteClassifier(REST_PROCEDURES, PROCEDURES);

/** Calls one tRPC batch may carry; each counts against the caller's limits, and more is a 400. */
export const MAX_TRPC_BATCH_CALLS = 10;

export function createApp(deps: AppDeps): Express {
  const { database, logger, publicBaseUrl } = deps;
  const bodyLimit = deps.bodyLimitBytes ?? 100_000;
  const metrics = deps.metrics ?? createMetrics({ database, readReplicas: deps.readReplicas });
  const app = express();
  app.disable("x-powered-by");
  app.set("query parser", "simple");
  // With 0 hops req.ip is the socket address, so a forged X-Forwarded-For buys nothing.
  app.set("trust proxy", deps.trustProxyHops ?? 0);

  app.use(
    pinoHttp({
      logger,
      serializers: LOG_SERIALIZERS,
      genReqId(req, res) {
        const incoming = req.headers["x-request-id"];
        const id = typeof incoming === "string" && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info"),
    }),
  );
  app.use(metrics.observeRequests(classifyRoute));
  // Five middlewares patch res.* (writeHead, write, end, setHeader). A patch wraps those installed
  // before it, so a handler's call reaches the latest first; the order they rely on:
  //   1. compressionMiddleware, here: first installed, so it encodes the final body, last.
  //   2. responseConventions, here: sees the identity body (Cache-Control, ETag and 304, HEAD).
  //   3. trpcJsonContentType, at /trpc: setHeader only, independent of the others.
  //   4. graphqlAuthChallenge, at /api/graphql: holds the head until the body shows a 401, then hands both to 2.
  //   5. publicErrorBodies, at the OpenAPI mount: swaps in the public error body before 2 measures it.
  app.use(compressionMiddleware());
  app.use(responseConventions(classifyRoute));
  app.use(publicReadCors(classifyRoute));
  app.get(
    "/metrics",
    metricsEndpoint(metrics, deps.metricsToken, (req, res) => createCaller(contextFor(req, res)).admin.confirmAccess()),
  );
  // Before the body parsers: its signature covers the raw body.
  mountBillingDoor(app, (req, res) => contextFor(req, res));
  app.use(bodyParsers(bodyLimit));

  app.get("/healthz", async (req, res) => {
    try {
      await database.ping();
      // Each replica as last polled: a lagging or down one is skipped, so the service stays healthy.
      res.json({ status: "ok", database: "reachable", ...(deps.readReplicas && { replicas: deps.readReplicas.statuses() }) });
    } catch (error) {
      req.log.error({ err: error }, "health check: database unreachable");
      sendError(res, 503, { error: "Database unreachable", code: "UNAVAILABLE" });
    }
  });

  // This server's export slots: each export holds a database connection while it runs.
  const feedExports = new FeedExportSlots(deps.partnerExports);
  const contextFor = (req: express.Request, res: express.Response) =>
    createContext({
      db: database.db,
      readReplicas: deps.readReplicas ?? null,
      publicBaseUrl,
      authorizationHeader: req.headers.authorization,
      clientIp: req.ip ?? req.socket.remoteAddress ?? null,
      rateLimits: deps.rateLimits,
      setHeader: (name, value) => {
        if (!res.headersSent) res.setHeader(name, value);
      },
      log: req.log,
      webhookConfig: deps.webhookConfig ?? null,
      feedExports,
      cookieHeader: req.headers.cookie,
      requestOrigin: req.headers.origin,
      csrfToken: req.get("x-csrf-token"),
      userAgent: req.get("user-agent"),
      mailer: deps.mailer ?? null,
      paymentProvider: deps.paymentProvider ?? null,
      siteOutbound: deps.siteOutbound,
      citationEngines: deps.citationEngines,
    });
  /** The status of a failed call; a 503 also tells the client when to retry. */
  const errorResponseMeta = (error: unknown) => {
    const { status, retryAfterSeconds } = toPublicError(error as never);
    return retryAfterSeconds ? { status, headers: { "Retry-After": String(retryAfterSeconds) } } : { status };
  };
  const responseMeta = ({ errors, paths }: { errors: readonly { code: string }[]; paths?: readonly string[] }) => {
    const [first] = errors;
    if (first) return errorResponseMeta(first);
    // A single call answers with its procedure's success status (201 for a creation); a batch with 200.
    const successStatus = paths?.length === 1 ? procedureMeta(paths[0]!)?.successStatus : undefined;
    return successStatus ? { status: successStatus } : {};
  };
  const onError = ({ error, req }: { error: Error & { code?: string }; req: express.Request }) => {
    if (error.code !== "INTERNAL_SERVER_ERROR") return;
    // An outage is one fact repeated by every request: a warning each, not an error with a stack.
    if (toPublicError(error as never).status === 503) req.log.warn({ err: error.cause ?? error }, "procedure unavailable: database unreachable");
    else req.log.error({ err: error.cause ?? error }, "procedure failed");
  };

  app.use(
    "/trpc",
    trpcJsonContentType,
    createExpressMiddleware({
      router: appRouter,
      createContext: ({ req, res }) => contextFor(req, res),
      responseMeta,
      onError,
      maxBodySize: bodyLimit,
      maxBatchSize: MAX_TRPC_BATCH_CALLS,
    }),
  );

  // The discovery documents first: the MCP door below takes every path under /api/mcp, the server card's too.
  const openApiDocument = createOpenApiDocument(publicBaseUrl, deps.rateLimits, deps.partnerExports);
  mountDiscoveryRoutes(app, publicBaseUrl, openApiDocument);

  // The MCP door is one more tRPC client, run in process with the caller's own request context:
  // its key, its address (so rate limits count the real client) and its response headers.
  mountMcp(app, {
    ...deps.mcpSse,
    classifyBodyError,
    allowedHosts: [new URL(publicBaseUrl).hostname, ...(deps.allowedHosts ?? [])],
    onToolCall: (call, req, res) => {
      metrics.mcpToolCall(call.tool, call.isError);
      // A tool refused for want of a valid key stays a readable result (HTTP 200), with the challenge beside it.
      if (call.errorStatus === 401 && !res.headersSent) res.setHeader("WWW-Authenticate", bearerChallenge(req));
      if (call.errorStatus === 429) metrics.rateLimited(policyOf(res.getHeader("RateLimit-Policy")) ?? "other");
    },
    // The reserve of legacy SSE sessions is for valid keys: a procedure checks the key, as everywhere.
    confirmKey: (req, res) => createCaller(contextFor(req, res)).apiKeys.confirmKey(),
    clientFor: (req, res) =>
      createTRPCClient<AppRouter>({
        links: [localLink({ router: appRouter, transformer: superjson, createContext: async () => contextFor(req, res) })],
      }),
  });

  // The GraphQL door (query-only): resolvers call procedures with the request's own context too.
  app.use("/api/graphql", graphqlAuthChallenge);
  mountGraphql(app, contextFor, logger);

  app.get("/api/openapi.json", (_req, res) => {
    res.json(openApiDocument);
  });

  mountDocs(app, publicBaseUrl);
  mountPages(app, contextFor);
  mountWellKnown(app, publicBaseUrl, openApiDocument, deps.rateLimits);
  // The partner feed's bodies (the export's NDJSON stream, the pages' stored JSON text): its procedures run as everywhere, only the body writing is its own.
  mountPartnerFeedDoor(app, contextFor);
  // A browser's unknown address gets an HTML 404; REST routes and JSON clients go on to the API.
  app.use(htmlNotFound((req) => classifyRoute(req).door === "rest"));

  app.use(errorHandler(logger));
  // Last: trpc-to-openapi answers every path it does not know with a JSON 404 and never calls next().
  app.use(
    decodeUnreservedPathEscapes,
    pathParameterGate(classifyRoute),
    emptyBodyIsEmptyObject,
    publicErrorBodies,
    restHeadAsGet,
    createOpenApiExpressMiddleware({
      router: restRouter,
      createContext: ({ req, res }) => contextFor(req as express.Request, res as express.Response),
      responseMeta,
      onError: onError as never,
      maxBodySize: bodyLimit,
      queryInput,
    }),
  );
  return app;
}
