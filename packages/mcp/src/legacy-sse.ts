import type { Express, Request, Response } from "express";
import type { McpServer } from "@modelcontextprotocol/server";
import { SSEServerTransport } from "@modelcontextprotocol/server-legacy/sse";
import { clientBucketOf } from "@directory/api/schemas";
import { jsonRpcError } from "./json-rpc-replies";

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

export interface SseOptions {
  path: string;
  maxSseSessions: number;
  maxSseSessionsPerClient: number;
  sseSessionsReservedForKeys: number;
  sseIdleTimeoutMs: number;
  /** Whether the request bears a valid API key; asked only when the open share is full. */
  confirmsKey(req: Request, res: Response): Promise<boolean>;
  /** The server that serves one session, with the caller's credentials. */
  serverFor(req: Request, res: Response): McpServer;
  failed(req: Request, res: Response, error: unknown): void;
}

/**
 * The legacy HTTP+SSE transport (2024-11-05) at GET {path}/sse and POST {path}/messages?sessionId=...,
 * served by the SDK's frozen v1 copy of it: one server per session, the sessions capped.
 */
export function mountLegacySse(app: Express, options: SseOptions): void {
  const { path: MCP_PATH, maxSseSessions, maxSseSessionsPerClient, sseSessionsReservedForKeys, sseIdleTimeoutMs, confirmsKey, failed } = options;
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
    const server = options.serverFor(req, res);
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
}
