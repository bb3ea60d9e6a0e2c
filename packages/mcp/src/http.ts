import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from "express";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { clientBucketOf } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { hostAndOriginValidation, mcpCors } from "./host-origin";
import { jsonRpcError } from "./json-rpc-replies";
import { createMcpServer, type ToolCallRecord } from "./server";

export interface MountMcpOptions {
  /** The directory client that serves one request: the caller's own credentials and address, nothing more. */
  clientFor(req: Request, res: Response): DirectoryClient;
  /** Open legacy SSE sessions kept at once; more are refused with 503. Default 100 (DEFAULT_SSE_LIMITS). */
  maxSseSessions?: number;
  /** Open legacy SSE sessions one client address (IPv6: its /64) may hold; more are refused with 429. Default 2. */
  maxSseSessionsPerClient?: number;
  /** Of maxSseSessions, how many only callers with a valid API key may take (confirmKey). Default 20. */
  sseSessionsReservedForKeys?: number;
  /** Settles when the request bears a valid API key (a procedure's check), rejects otherwise. */
  confirmKey?(req: Request, res: Response): Promise<unknown>;
  /** A legacy SSE session that posts no message for this long is closed, freeing its slot. Default 5 minutes. */
  sseIdleTimeoutMs?: number;
  /**
   * Hostnames (any port) that requests may name in Host, and in Origin when they send one: the host
   * of the public base URL and ALLOWED_HOSTS. The loopback names are always allowed; any other name
   * gets 403, so a web page whose domain was rebound to this server cannot reach the tools.
   */
  allowedHosts?: readonly string[];
  /** Told of every finished tool call (metrics); the call is also logged on the request's logger. */
  onToolCall?(call: ToolCallRecord, req: Request, res: Response): void;
  /**
   * What the app's body parser refused, as the app classifies it for every door; this door answers
   * it as a JSON-RPC error. Without it, a parser's errors pass on to the app's own error handler.
   */
  classifyBodyError?(error: unknown): RefusedBody | null;
}

/** A request body the app's parser refused: what was wrong, the status, and the parser's own words. */
export interface RefusedBody {
  kind: string;
  status: number;
  detail: string;
}

export const MCP_PATH = "/api/mcp";

/**
 * The legacy SSE transport holds a stream and a server per session, so its sessions are capped.
 * Two per address: at five, 20 addresses held all 100 slots for the idle timeout; at two, 50
 * addresses still could, so a fifth of the slots is kept for callers with a valid API key.
 * Streamable HTTP (stateless, uncapped here) stays open to everyone.
 */
export const DEFAULT_SSE_LIMITS = { maxSseSessions: 100, maxSseSessionsPerClient: 2, sseSessionsReservedForKeys: 20, sseIdleTimeoutMs: 5 * 60_000 } as const;

/** Seconds a refused SSE client is told to wait: slots free as sessions close or go idle. */
const SSE_RETRY_AFTER_SECONDS = 30;

interface SseSession {
  transport: SSEServerTransport;
  authorization: string | undefined;
  /** Restarts the idle clock; called on every message the client posts. */
  touch(): void;
}

/** JSON-RPC error codes this door answers with besides the SDK's own (-32000 is a server-defined refusal). */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/**
 * The app parses JSON bodies before the MCP routes run; its refusals (malformed, too large, too
 * deep) reach MCP clients as JSON-RPC errors, after the same Host and Origin check as every route.
 */
function bodyErrorsAsJsonRpc(hostAndOrigin: RequestHandler, classify: (error: unknown) => RefusedBody | null): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    hostAndOrigin(req, res, () => {
      const refusal = classify(error);
      if (!refusal) return next(error);
      if (refusal.kind === "malformed-json") return jsonRpcError(res, refusal.status, "Parse error: the request body is not valid JSON", PARSE_ERROR);
      if (refusal.kind === "too-large") return jsonRpcError(res, refusal.status, "Invalid Request: the request body is too large", INVALID_REQUEST);
      jsonRpcError(res, refusal.status, `Invalid Request: ${refusal.detail}`, INVALID_REQUEST);
    });
  };
}

function failed(req: Request, res: Response, error: unknown) {
  (req as Request & { log?: { error(data: object, message: string): void } }).log?.error({ err: error }, "mcp request failed");
  if (!res.headersSent) res.status(500).json({ jsonrpc: "2.0", error: { code: -32603, message: "Internal server error" }, id: null });
}

type RequestLog = { info(data: object, message: string): void };

/** JSON-RPC methods of a posted body (one message or a batch), for the log. */
function jsonRpcMethods(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) =>
    message && typeof message === "object" && typeof (message as { method?: unknown }).method === "string" ? [(message as { method: string }).method] : [],
  );
}

/**
 * Logs each tool call (JSON-RPC method, tool, isError) on the request's logger and reports it
 * (metrics; the app adds the WWW-Authenticate challenge when a call was refused with 401). A tool
 * error stays a result the agent can read, with HTTP 200.
 */
function toolCallReporter(req: Request, res: Response, options: MountMcpOptions) {
  const onToolCall = (call: ToolCallRecord) => {
    (req as Request & { log?: RequestLog }).log?.info(
      { mcp: { method: "tools/call", tool: call.tool, isError: call.isError, errorStatus: call.errorStatus, ms: Math.round(call.durationMs) } },
      "mcp tool call",
    );
    options.onToolCall?.(call, req, res);
  };
  return { onToolCall };
}

/**
 * Stateless Streamable HTTP at POST /api/mcp (a new server and transport per request), plus the
 * legacy HTTP+SSE transport at GET /api/mcp/sse and POST /api/mcp/messages?sessionId=...
 */
export function mountMcp(app: Express, options: MountMcpOptions): void {
  const maxSseSessions = options.maxSseSessions ?? DEFAULT_SSE_LIMITS.maxSseSessions;
  const maxSseSessionsPerClient = options.maxSseSessionsPerClient ?? DEFAULT_SSE_LIMITS.maxSseSessionsPerClient;
  const sseIdleTimeoutMs = options.sseIdleTimeoutMs ?? DEFAULT_SSE_LIMITS.sseIdleTimeoutMs;
  const sseSessionsReservedForKeys = Math.min(options.sseSessionsReservedForKeys ?? DEFAULT_SSE_LIMITS.sseSessionsReservedForKeys, maxSseSessions);
  /** Whether the request bears a valid API key; asked only when the open share is full. */
  const confirmsKey = async (req: Request, res: Response) =>
    req.headers.authorization !== undefined &&
    options.confirmKey !== undefined &&
    (await options.confirmKey(req, res).then(
      () => true,
      () => false,
    ));

  const hostAndOrigin = hostAndOriginValidation(options.allowedHosts ?? []);
  app.use(MCP_PATH, hostAndOrigin, mcpCors);

  app.post(MCP_PATH, async (req, res) => {
    // JSON-RPC 2.0: an empty batch is one Invalid Request error (the SDK would answer an empty 202).
    if (Array.isArray(req.body) && req.body.length === 0) {
      res.status(400).json({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid Request: an empty batch" }, id: null });
      return;
    }
    const reporter = toolCallReporter(req, res, options);
    const server = createMcpServer(options.clientFor(req, res), reporter.onToolCall);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const methods = jsonRpcMethods(req.body).filter((method) => method !== "tools/call");
    if (methods.length > 0) (req as Request & { log?: RequestLog }).log?.info({ mcp: { methods } }, "mcp request");
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      failed(req, res, error);
    }
  });
  app.all(MCP_PATH, (req, res) => {
    res.setHeader("Allow", "POST");
    jsonRpcError(res, 405, `Method ${req.method} not allowed: this stateless MCP endpoint takes POST only (legacy SSE: GET ${MCP_PATH}/sse)`);
  });

  const sessions = new Map<string, SseSession>();
  const openPerClient = new Map<string, number>();
  app.get(`${MCP_PATH}/sse`, async (req, res) => {
    // The stream is not JSON-RPC yet: a refusal is the REST error body every other door uses.
    const refuse = (status: number, error: string) => {
      res.setHeader("Retry-After", String(SSE_RETRY_AFTER_SECONDS));
      res.status(status).json({ error, code: status === 429 ? "RATE_LIMITED" : "UNAVAILABLE" });
    };
    const orStreamable = `retry later, or use Streamable HTTP at POST ${MCP_PATH}`;
    // The last sessions are kept for valid keys: addresses are cheap, keys are issued and revocable.
    if (sessions.size >= maxSseSessions - sseSessionsReservedForKeys && !(await confirmsKey(req, res))) {
      return refuse(
        503,
        `The MCP SSE sessions open to callers without an API key are all taken (${sseSessionsReservedForKeys} more are kept for keys); ${orStreamable}`,
      );
    }
    if (sessions.size >= maxSseSessions) return refuse(503, `All ${maxSseSessions} MCP SSE sessions are open; ${orStreamable}`);
    const client = clientBucketOf(req.ip ?? req.socket.remoteAddress ?? "");
    const openByClient = openPerClient.get(client) ?? 0;
    if (openByClient >= maxSseSessionsPerClient) {
      return refuse(
        429,
        `This address already holds ${maxSseSessionsPerClient} open MCP SSE sessions, the most one address may; close one, or use Streamable HTTP at POST ${MCP_PATH}`,
      );
    }
    const transport = new SSEServerTransport(`${MCP_PATH}/messages`, res);
    const server = createMcpServer(options.clientFor(req, res), toolCallReporter(req, res, options).onToolCall);
    const { sessionId } = transport;
    let idleTimer: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => void transport.close(), sseIdleTimeoutMs).unref();
    };
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(idleTimer);
      sessions.delete(sessionId);
      const left = (openPerClient.get(client) ?? 1) - 1;
      if (left > 0) openPerClient.set(client, left);
      else openPerClient.delete(client);
    };
    sessions.set(sessionId, { transport, authorization: req.headers.authorization, touch });
    openPerClient.set(client, openByClient + 1);
    touch();
    res.on("close", () => {
      release();
      void server.close();
    });
    try {
      await server.connect(transport);
    } catch (error) {
      release();
      failed(req, res, error);
    }
  });
  app.post(`${MCP_PATH}/messages`, async (req, res) => {
    const sessionId = typeof req.query.sessionId === "string" ? req.query.sessionId : "";
    const session = sessions.get(sessionId);
    if (!session) {
      jsonRpcError(res, 404, "Unknown or closed MCP SSE session: open a new one at GET /api/mcp/sse");
      return;
    }
    // The session acts with the credentials it was opened with; another caller may not post into it.
    if (req.headers.authorization !== session.authorization) {
      jsonRpcError(res, 403, "This MCP SSE session was opened with different credentials");
      return;
    }
    session.touch();
    try {
      await session.transport.handlePostMessage(req, res, req.body);
    } catch (error) {
      failed(req, res, error);
    }
  });

  if (options.classifyBodyError) app.use(MCP_PATH, bodyErrorsAsJsonRpc(hostAndOrigin, options.classifyBodyError));
}
