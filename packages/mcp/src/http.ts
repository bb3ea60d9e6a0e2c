import { AsyncLocalStorage } from "node:async_hooks";
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from "express";
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import { createMcpHandler, isLegacyRequest } from "@modelcontextprotocol/server";
import type { DirectoryClient } from "@directory/sdk";
import { hostAndOriginValidation, mcpCors } from "./host-origin";
import { jsonRpcError } from "./json-rpc-replies";
import { DEFAULT_SSE_LIMITS, mountLegacySse } from "./legacy-sse";
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
 * Streamable HTTP at POST /api/mcp, stateless, for every protocol revision served: a 2026-07-28
 * request (its envelope names the revision; `server/discover`, no `initialize`) through the SDK's
 * per-request handler; a request of the `initialize` era (2024-11-05 to 2025-11-25) through a
 * stateless transport of its own that answers JSON, as this endpoint always has. Either way a new
 * server is made per request with the caller's own client. Plus the legacy HTTP+SSE transport at
 * GET /api/mcp/sse and POST /api/mcp/messages?sessionId=... (legacy-sse.ts).
 */
export function mountMcp(app: Express, options: MountMcpOptions): void {
  const maxSseSessions = options.maxSseSessions ?? DEFAULT_SSE_LIMITS.maxSseSessions;
  const sseSessionsReservedForKeys = Math.min(options.sseSessionsReservedForKeys ?? DEFAULT_SSE_LIMITS.sseSessionsReservedForKeys, maxSseSessions);
  /** Whether the request bears a valid API key; asked only when the open share is full. */
  const confirmsKey = async (req: Request, res: Response) =>
    req.headers.authorization !== undefined &&
    options.confirmKey !== undefined &&
    (await options.confirmKey(req, res).then(
      () => true,
      () => false,
    ));
  const serverFor = (req: Request, res: Response) => createMcpServer(options.clientFor(req, res), toolCallReporter(req, res, options).onToolCall);

  // The SDK's handler makes the server through a factory that sees no Express request: the request being served is handed over here.
  const served = new AsyncLocalStorage<{ req: Request; res: Response }>();
  const modern = createMcpHandler(
    () => {
      const exchange = served.getStore();
      if (!exchange) throw new Error("MCP: a server was asked for outside a request");
      return serverFor(exchange.req, exchange.res);
    },
    // Its default response mode answers JSON unless a tool streams first, which none does.
    { legacy: "reject" },
  );
  const serveModern = toNodeHandler(modern);

  const hostAndOrigin = hostAndOriginValidation(options.allowedHosts ?? []);
  app.use(MCP_PATH, hostAndOrigin, mcpCors);

  app.post(MCP_PATH, async (req, res) => {
    // JSON-RPC 2.0: an empty batch is one Invalid Request error (the SDK would answer an empty 202).
    if (Array.isArray(req.body) && req.body.length === 0) {
      res.status(400).json({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid Request: an empty batch" }, id: null });
      return;
    }
    const methods = jsonRpcMethods(req.body).filter((method) => method !== "tools/call");
    if (methods.length > 0) (req as Request & { log?: RequestLog }).log?.info({ mcp: { methods } }, "mcp request");
    try {
      if (!(await isLegacyRequest(await toWebRequest(req, req.body), req.body))) {
        await served.run({ req, res }, () => serveModern(req, res, req.body));
        return;
      }
      const server = serverFor(req, res);
      const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
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

  mountLegacySse(app, {
    path: MCP_PATH,
    maxSseSessions,
    maxSseSessionsPerClient: options.maxSseSessionsPerClient ?? DEFAULT_SSE_LIMITS.maxSseSessionsPerClient,
    sseSessionsReservedForKeys,
    sseIdleTimeoutMs: options.sseIdleTimeoutMs ?? DEFAULT_SSE_LIMITS.sseIdleTimeoutMs,
    confirmsKey,
    serverFor,
    failed,
  });

  if (options.classifyBodyError) app.use(MCP_PATH, bodyErrorsAsJsonRpc(hostAndOrigin, options.classifyBodyError));
}
