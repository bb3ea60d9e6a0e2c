import type { Express, Request, Response } from "express";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { DirectoryClient } from "@directory/sdk";
import { createMcpServer } from "./server";

export interface MountMcpOptions {
  /** The directory client that serves one request: the caller's own credentials and address, nothing more. */
  clientFor(req: Request, res: Response): DirectoryClient;
  /** Open legacy SSE sessions kept at once; more are refused with 503. Default 100. */
  maxSseSessions?: number;
}

export const MCP_PATH = "/api/mcp";

interface SseSession {
  transport: SSEServerTransport;
  authorization: string | undefined;
}

function jsonRpcError(res: Response, status: number, message: string) {
  if (!res.headersSent) res.status(status).json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
}

function failed(req: Request, res: Response, error: unknown) {
  (req as Request & { log?: { error(data: object, message: string): void } }).log?.error({ err: error }, "mcp request failed");
  if (!res.headersSent) res.status(500).json({ jsonrpc: "2.0", error: { code: -32603, message: "Internal server error" }, id: null });
}

/**
 * Stateless Streamable HTTP at POST /api/mcp (a new server and transport per request), plus the
 * legacy HTTP+SSE transport at GET /api/mcp/sse and POST /api/mcp/messages?sessionId=...
 */
export function mountMcp(app: Express, options: MountMcpOptions): void {
  const maxSseSessions = options.maxSseSessions ?? 100;

  app.post(MCP_PATH, async (req, res) => {
    const server = createMcpServer(options.clientFor(req, res));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
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
  app.get(`${MCP_PATH}/sse`, async (req, res) => {
    if (sessions.size >= maxSseSessions) {
      res.setHeader("Retry-After", "30");
      jsonRpcError(res, 503, "Too many open MCP SSE sessions; retry later or use Streamable HTTP at POST /api/mcp");
      return;
    }
    const transport = new SSEServerTransport(`${MCP_PATH}/messages`, res);
    const server = createMcpServer(options.clientFor(req, res));
    const { sessionId } = transport;
    sessions.set(sessionId, { transport, authorization: req.headers.authorization });
    res.on("close", () => {
      sessions.delete(sessionId);
      void server.close();
    });
    try {
      await server.connect(transport);
    } catch (error) {
      sessions.delete(sessionId);
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
    try {
      await session.transport.handlePostMessage(req, res, req.body);
    } catch (error) {
      failed(req, res, error);
    }
  });
}
