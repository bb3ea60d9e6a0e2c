import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import compression from "compression";
import cors from "cors";
import type { Request, RequestHandler, Response } from "express";
import type { CacheScope } from "@directory/api";
import { bearerChallenge } from "./auth-challenges";
import type { ProcedureCall, RouteClassifier, RouteInfo } from "./route-classifier";

/**
 * The HTTP conventions every door shares, decided in one place from the request and the meta of
 * the procedure it reaches: compression, Cache-Control, CORS, ETag and 304, HEAD on REST routes,
 * and WWW-Authenticate on every 401 (auth-challenges.ts says which).
 */

export const PUBLIC_CACHE_CONTROL = "public, max-age=60";
export const PRIVATE_CACHE_CONTROL = "private, no-store";
export const NO_STORE = "no-store";

/** Responses smaller than this are sent as they are: compressing them costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** Paths outside the procedures that are never cached: health, metrics, the MCP and GraphQL doors. */
const UNCACHED_PREFIXES = ["/api/mcp", "/api/graphql", "/healthz", "/metrics", "/trpc"];
/** Documents under /api that are the same for every reader: the OpenAPI document, the MCP server card, the REST operation pages. */
const PUBLIC_API_DOCUMENTS = ["/api/openapi.json", "/api/mcp/server-card", "/api/docs/operations"];
const isUnder = (path: string, prefixes: readonly string[]) => prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/** A call's cache scope from its procedure's meta (a function of the input for history mode); none said is private. */
function cacheScopeOf(call: ProcedureCall): CacheScope {
  const cache = call.meta?.cache;
  return typeof cache === "function" ? cache(call.input()) : (cache ?? "private");
}

/**
 * The Cache-Control rule, in one place. Anything personal or changing is no-store: a request with
 * Authorization, a non-GET, an error, a procedure whose meta says private (keyed, or history mode).
 * Anonymous reads of public procedures, the OpenAPI document, discovery files and pages are public
 * for a minute.
 */
export function cacheControlFor(req: Request, res: Response, route: RouteInfo): { value: string; isPublic: boolean } {
  const method = req.method;
  if (method !== "GET" && method !== "HEAD") return { value: NO_STORE, isPublic: false };
  if (res.statusCode >= 400 || res.statusCode < 200) return { value: NO_STORE, isPublic: false };
  if (req.headers.authorization !== undefined) return { value: PRIVATE_CACHE_CONTROL, isPublic: false };
  if (route.procedures.length > 0) {
    const isPublic = route.procedures.every((call) => cacheScopeOf(call) === "public");
    return isPublic ? { value: PUBLIC_CACHE_CONTROL, isPublic } : { value: PRIVATE_CACHE_CONTROL, isPublic };
  }
  const path = req.baseUrl + req.path;
  // Pages, /.well-known, llms.txt, the public documents under /api: the same for every anonymous reader.
  if (isUnder(path, PUBLIC_API_DOCUMENTS)) return { value: PUBLIC_CACHE_CONTROL, isPublic: true };
  if (isUnder(path, UNCACHED_PREFIXES) || path.startsWith("/api/")) return { value: NO_STORE, isPublic: false };
  return { value: PUBLIC_CACHE_CONTROL, isPublic: true };
}

/** Response headers a browser on another origin may read from the public routes. */
const PUBLIC_EXPOSED_HEADERS = ["RateLimit", "RateLimit-Policy", "Retry-After", "X-Request-Id", "ETag", "Link"];

/** Public documents outside the procedures: those under /api, discovery files, the business pages. */
const PUBLIC_DOCUMENT_PREFIXES = [...PUBLIC_API_DOCUMENTS, "/.well-known", "/llms.txt", "/business"];
/** Under /business but a signed-in person's own (their claims, their CSRF token): never a public document. */
const CLAIM_PAGES = /^\/business\/[^/]+\/claim(\/|$)/;

/**
 * Procedures whose answers may be public or that allow keyed cross-origin reads (meta), on REST and
 * tRPC alike (the SDK in a browser page of another origin), and the public documents. A tRPC batch
 * is readable only when every call in it is; an unknown procedure is not.
 */
function readableFromAnyOrigin(req: Request, route: RouteInfo): boolean {
  if (route.door !== "other") {
    return (
      route.procedures.length > 0 &&
      route.procedures.every(({ meta }) => meta?.crossOriginRead === true || (meta?.cache !== undefined && meta.cache !== "private"))
    );
  }
  const path = req.baseUrl + req.path;
  if (CLAIM_PAGES.test(path)) return false;
  return isUnder(path, PUBLIC_DOCUMENT_PREFIXES);
}

/**
 * CORS on the public reads: any origin, without credentials (a key is a header, never a cookie),
 * with the rate-limit and request-id headers exposed. A preflight (OPTIONS) is judged as the GET
 * of its path: the read it prepares.
 */
export function publicReadCors(classify: RouteClassifier): RequestHandler {
  const anyOrigin = cors({
    origin: "*",
    methods: ["GET", "HEAD", "OPTIONS"],
    allowedHeaders: ["Authorization", "Content-Type"],
    exposedHeaders: PUBLIC_EXPOSED_HEADERS,
  });
  return (req, res, next) => {
    if (readableFromAnyOrigin(req, classify(req, req.method === "OPTIONS" ? "GET" : req.method))) return anyOrigin(req, res, next);
    next();
  };
}

/** Runs `listener` once, just before the status line and headers are written, whoever writes them. */
export function beforeHeaders(res: ServerResponse, listener: () => void): void {
  const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
  let fired = false;
  res.writeHead = function patchedWriteHead(this: ServerResponse, ...args: unknown[]) {
    if (!fired) {
      fired = true;
      if (typeof args[0] === "number") this.statusCode = args[0];
      // Headers given to writeHead as an object join the response's own, so the listener sees them.
      const headersIndex = args.findIndex((arg, index) => index > 0 && arg !== null && typeof arg === "object" && !Array.isArray(arg));
      if (headersIndex > 0) {
        for (const [name, value] of Object.entries(args[headersIndex] as Record<string, string | number | string[]>)) this.setHeader(name, value);
        args.splice(headersIndex, 1);
      }
      listener();
      args[0] = this.statusCode;
    }
    return writeHead.apply(this, args);
  };
}

/** A weak validator over the body's bytes (the same body compressed or not is one representation). */
export function weakEtag(body: Buffer): string {
  return `W/"${body.length.toString(16)}-${createHash("sha1").update(body).digest("base64url").slice(0, 27)}"`;
}

const HEAD_AS_GET = Symbol("headAsGet");

/** REST routes answer HEAD as GET without a body: the OpenAPI middleware sees a GET, the client gets headers only. */
export const restHeadAsGet: RequestHandler = (req, _res, next) => {
  if (req.method === "HEAD") {
    req.method = "GET";
    (req as Request & { [HEAD_AS_GET]?: boolean })[HEAD_AS_GET] = true;
  }
  next();
};

function isHeadAsGet(req: Request): boolean {
  return (req as Request & { [HEAD_AS_GET]?: boolean })[HEAD_AS_GET] === true;
}

function isEventStream(res: Response): boolean {
  return String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream");
}

/**
 * gzip at level 3, not zlib's default 6: on an 875 KB partner-feed page level 6 took 5.5 ms of the
 * event loop for 125 KB, level 3 2.8 ms for 139 KB (and 0.9 ms to inflate). Brotli keeps the
 * library's quality 4 (3.0 ms, 103 KB): already faster than gzip 6 and smaller.
 */
export const GZIP_LEVEL = 3;

/** gzip or brotli by Accept-Encoding, for bodies of 1 KB and more; never an event stream (MCP SSE). */
export function compressionMiddleware(): RequestHandler {
  return compression({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    level: GZIP_LEVEL,
    filter: (req, res) => {
      const path = req.path ?? "";
      if (path.startsWith("/api/mcp/sse") || isEventStream(res)) return false;
      // The partner export's NDJSON: text, but not in the compressible list compression consults.
      if (String(res.getHeader("Content-Type") ?? "").startsWith("application/x-ndjson")) return true;
      return compression.filter(req, res);
    },
  });
}

/**
 * Cache-Control, WWW-Authenticate, ETag with 304, and the body-less answer of HEAD, for every
 * response. Public reads are buffered to the end (they are small JSON or HTML written in one go)
 * so their ETag covers the whole body, whichever adapter wrote it (res.json, tRPC's res.write, or
 * trpc-to-openapi's res.end).
 */
export function responseConventions(classify: RouteClassifier): RequestHandler {
  return (req, res, next) => {
    let decided: { value: string; isPublic: boolean } | undefined;
    const decide = () => (decided ??= cacheControlFor(req, res, classify(req)));
    beforeHeaders(res, () => {
      const decision = cacheControlFor(req, res, classify(req));
      const existing = res.getHeader("Cache-Control");
      // A handler may choose a longer public lifetime (assets); nothing may make a private answer public.
      if (!decision.isPublic || existing === undefined) res.setHeader("Cache-Control", decision.value);
      if (decision.isPublic) res.vary("Authorization");
      if (res.statusCode === 401 && !res.getHeader("WWW-Authenticate")) res.setHeader("WWW-Authenticate", bearerChallenge(req));
    });

    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    let mode: "pass" | "buffer" | undefined;
    const chunks: Buffer[] = [];
    const choose = () => {
      if (mode) return mode;
      const head = isHeadAsGet(req);
      const cacheable =
        req.method === "GET" && res.statusCode === 200 && !res.headersSent && !isEventStream(res) && res.getHeader("ETag") === undefined && decide().isPublic;
      mode = head || cacheable ? "buffer" : "pass";
      return mode;
    };
    const toBuffer = (chunk: unknown, encoding?: unknown) =>
      Buffer.isBuffer(chunk)
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
          : Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");

    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (choose() === "pass") return write(chunk, ...rest);
      if (chunk !== undefined && chunk !== null) chunks.push(toBuffer(chunk, rest[0]));
      const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk === "function") {
        rest.unshift(chunk);
        chunk = undefined;
      }
      if (choose() === "pass") return end(asLargeBodyBuffer(chunk, rest[0]), ...rest);
      if (chunk !== undefined && chunk !== null) chunks.push(toBuffer(chunk, rest[0]));
      const callback = rest.find((arg) => typeof arg === "function");
      const body = Buffer.concat(chunks);
      const head = isHeadAsGet(req);
      if (head) req.method = "HEAD";
      if (res.statusCode === 200 && decide().isPublic && res.getHeader("ETag") === undefined) {
        res.setHeader("ETag", weakEtag(body));
        if (req.fresh) {
          res.statusCode = 304;
          for (const name of ["Content-Type", "Content-Length", "Transfer-Encoding"]) res.removeHeader(name);
          return end(callback);
        }
      }
      if (head) {
        res.setHeader("Content-Length", body.length);
        return end(callback);
      }
      return callback ? end(body, callback) : end(body);
    }) as typeof res.end;
    next();
  };
}

/** From this size a string body is encoded before it is handed to node's http (see below). */
const LARGE_BODY_CHARACTERS = 32 * 1024;

/**
 * A large string body as a Buffer: node writes a string by joining it to the head and encoding it
 * on the socket's write path, which took 3 to 9 ms for a 768 KB partner-feed page here against
 * 1.2 to 3.9 ms for Buffer.from and the write of a Buffer. Small bodies gain nothing and stay strings.
 */
function asLargeBodyBuffer(chunk: unknown, encoding: unknown): unknown {
  if (typeof chunk !== "string" || chunk.length < LARGE_BODY_CHARACTERS) return chunk;
  return Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
}
