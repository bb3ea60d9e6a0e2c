import { timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import { TRPCError } from "@trpc/server";
import { bearerTokenFrom, toPublicError } from "@directory/api";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Database, ReadReplicas } from "@directory/db";
import { sendError } from "./errors";
import { registerReplicaMetrics } from "./replica-metrics";
import type { RouteClassifier } from "./route-classifier";

/**
 * Prometheus metrics of one app instance, on its own registry (never prom-client's global one),
 * so several servers in one process (tests) never collide.
 */
export interface AppMetrics {
  registry: Registry;
  /** Counts one finished tool call by tool and outcome (ok, error). */
  mcpToolCall(tool: string, isError: boolean): void;
  /** Counts one refusal of a rate limit, by policy name. */
  rateLimited(policy: string): void;
  /** Counts one webhook delivery attempt by outcome (delivered, failed). */
  webhookAttempt(delivered: boolean): void;
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface ServerMetrics extends AppMetrics {
  /** Middleware counting and timing every request by route template and procedure. */
  observeRequests(classify: RouteClassifier): RequestHandler;
}

export function createMetrics(options: { database?: Database; readReplicas?: ReadReplicas | null; defaultMetrics?: boolean } = {}): ServerMetrics {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetricsLinted(registry);

  const requests = new Counter({
    name: "directory_http_requests_total",
    help: "HTTP requests by method, route template and status",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const requestDuration = new Histogram({
    name: "directory_http_request_duration_seconds",
    help: "HTTP request duration by method and route template",
    labelNames: ["method", "route"],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const procedureCalls = new Counter({
    name: "directory_procedure_requests_total",
    help: "Requests reaching a procedure over REST or tRPC, by procedure and HTTP status",
    labelNames: ["procedure", "status"],
    registers: [registry],
  });
  const procedureDuration = new Histogram({
    name: "directory_procedure_request_duration_seconds",
    help: "Duration of requests reaching a procedure over REST or tRPC",
    labelNames: ["procedure"],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const toolCalls = new Counter({
    name: "directory_mcp_tool_calls_total",
    help: "MCP tool calls by tool and outcome (error: a result with isError)",
    labelNames: ["tool", "outcome"],
    registers: [registry],
  });
  const rateLimitRefusals = new Counter({
    name: "directory_rate_limit_refusals_total",
    help: "Calls refused by a rate limit (429), by policy",
    labelNames: ["policy"],
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: "directory_webhook_delivery_attempts_total",
    help: "Webhook delivery attempts by outcome",
    labelNames: ["outcome"],
    registers: [registry],
  });

  const { database } = options;
  if (database) {
    new Gauge({
      name: "directory_database_info",
      help: "The database driver in use (pglite: embedded, one connection, no pool)",
      labelNames: ["driver"],
      registers: [registry],
    }).set({ driver: database.driver }, 1);
    // postgres-js does not expose its pool's counts through Database; a ping at scrape time says
    // whether a connection is available and how long a round trip takes. Both gauges await the
    // same ping, so the scrape that asks is the one that measures: no value lags a scrape behind.
    let pinging: Promise<number | null> | undefined;
    const pingSeconds = () => (pinging ??= timePing(database).finally(() => (pinging = undefined)));
    new Gauge({
      name: "directory_database_up",
      help: "1 when the database answered a ping at scrape time",
      registers: [registry],
      async collect() {
        this.set((await pingSeconds()) === null ? 0 : 1);
      },
    });
    new Gauge({
      name: "directory_database_ping_seconds",
      help: "Round trip of a trivial query at scrape time (includes waiting for a pool connection); -1 when it failed",
      registers: [registry],
      async collect() {
        this.set((await pingSeconds()) ?? -1);
      },
    });
  }

  if (options.readReplicas) registerReplicaMetrics(registry, options.readReplicas);

  const rateLimited = (policy: string) => rateLimitRefusals.inc({ policy });

  return {
    registry,
    mcpToolCall: (tool, isError) => toolCalls.inc({ tool, outcome: isError ? "error" : "ok" }),
    rateLimited,
    webhookAttempt: (delivered) => webhookAttempts.inc({ outcome: delivered ? "delivered" : "failed" }),
    observeRequests(classify) {
      return (req, res, next) => {
        const startedAt = process.hrtime.bigint();
        res.once("finish", () => {
          const path = req.baseUrl + req.path;
          if (path === "/metrics") return;
          const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
          const info = classify(req);
          const status = String(res.statusCode);
          requests.inc({ method: req.method, route: info.route, status });
          requestDuration.observe({ method: req.method, route: info.route }, seconds);
          for (const { path: procedure } of info.procedures) {
            procedureCalls.inc({ procedure, status });
            procedureDuration.observe({ procedure }, seconds);
          }
          if (res.statusCode === 429) rateLimited(policyOf(res.getHeader("RateLimit-Policy")) ?? "other");
        });
        next();
      };
    },
  };
}

/** Seconds a trivial query took, or null when the database did not answer it. */
async function timePing(database: Database): Promise<number | null> {
  const startedAt = performance.now();
  try {
    await database.ping();
    return (performance.now() - startedAt) / 1000;
  } catch {
    return null;
  }
}

/**
 * prom-client's default process and Node.js metrics, less the three gauges named `..._total`
 * (nodejs_active_handles_total, _requests_total, _resources_total), which Prometheus' naming
 * rules reserve for counters: their per-type gauges without the suffix stay, and sum to the same.
 */
function collectDefaultMetricsLinted(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  for (const metric of registry.getMetricsAsArray()) {
    if (metric instanceof Gauge && metric.name.endsWith("_total")) registry.removeSingleMetric(metric.name);
  }
}

/** The policy name of a RateLimit-Policy header: `"anonymous-daily";q=5;w=86400` -> anonymous-daily. */
export function policyOf(header: unknown): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== "string") return null;
  const match = /^\s*"([\w.-]{1,64})"/.exec(value);
  return match ? match[1]! : null;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * GET /metrics in the Prometheus text format, for a request bearing METRICS_TOKEN. Without a
 * configured token the route does not exist (404 from the router after it).
 */
export function metricsEndpoint(
  metrics: AppMetrics,
  token: string | undefined,
  confirmAdmin: (req: Request, res: Response) => Promise<unknown>,
): RequestHandler {
  return async (req: Request, res, next) => {
    const given = bearerTokenFrom(req.headers.authorization) ?? "";
    if (!given) {
      res
        .status(401)
        .type("application/json")
        .send(JSON.stringify({ error: "Metrics need Authorization: Bearer <an admin key or METRICS_TOKEN>", code: "UNAUTHORIZED" }));
      return;
    }
    if (!(token && sameToken(given, token))) {
      // Not the metrics token: an admin key, checked by the admin procedure builder like any other.
      try {
        await confirmAdmin(req, res);
      } catch (error) {
        if (!(error instanceof TRPCError)) return next(error);
        const { status, body } = toPublicError(error);
        sendError(res, status, body);
        return;
      }
    }
    res.setHeader("Content-Type", metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  };
}
