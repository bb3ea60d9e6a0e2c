import type { RequestHandler } from "express";
import { validateHostHeader, validateOriginHeader } from "@modelcontextprotocol/server";
import { jsonRpcError } from "./json-rpc-replies";

/** How a local client names this server; allowed with any port. */
export const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/** The lower-case hostname of a host[:port], as the SDK's Host check compares it; undefined if malformed. */
function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/** DNS rebinding protection: the SDK's Host check, then the same allow-list for Origin when present. */
export function hostAndOriginValidation(allowedHosts: readonly string[]): RequestHandler {
  const hostnames = [...LOOPBACK_HOSTS];
  for (const entry of allowedHosts) {
    const hostname = hostnameOf(entry.trim());
    if (!hostname) throw new Error(`allowedHosts: "${entry}" is not a hostname`);
    if (!hostnames.includes(hostname)) hostnames.push(hostname);
  }
  return (req, res, next) => {
    const host = validateHostHeader(req.headers.host, hostnames);
    if (!host.ok) return jsonRpcError(res, 403, host.message);
    if (validateOriginHeader(req.headers.origin, hostnames).ok) return next();
    jsonRpcError(res, 403, "Invalid Origin: this MCP server does not serve web pages from that origin");
  };
}

/** Request headers a browser MCP client sends, allowed in a CORS preflight from an allowed origin. */
const CORS_ALLOWED_HEADERS = "Content-Type, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID";
const CORS_EXPOSED_HEADERS = "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id";

/**
 * CORS for browser MCP clients, after the Host and Origin check: only an origin that check admitted
 * is ever named in Access-Control-Allow-Origin, and a preflight from it is answered here.
 */
export const mcpCors: RequestHandler = (req, res, next) => {
  const origin = req.headers.origin;
  if (origin === undefined) return next();
  res.setHeader("Access-Control-Allow-Origin", origin);
  res.vary("Origin");
  res.setHeader("Access-Control-Expose-Headers", CORS_EXPOSED_HEADERS);
  if (req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined) {
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
    res.setHeader("Access-Control-Allow-Headers", CORS_ALLOWED_HEADERS);
    res.setHeader("Access-Control-Max-Age", "600");
    res.status(204).end();
    return;
  }
  next();
};
