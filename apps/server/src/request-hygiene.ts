import { STATUS_CODES, type Server } from "node:http";
import express, { type RequestHandler } from "express";
import { assertSafeInput, DomainError } from "@directory/api";
import { sendError } from "./errors";
import { jsonDepthExceeds, TooDeepError } from "./json-depth";
import type { RouteClassifier } from "./route-classifier";

/**
 * The app-level half of the input gate (the procedure-level half is packages/api/src/input-gate.ts):
 * what must be refused before any parser recurses into a request or a door sees it.
 */

function refuseDeepBody(_req: unknown, _res: unknown, buffer: Buffer): void {
  if (jsonDepthExceeds(buffer.toString("utf8"))) throw new TooDeepError("The request body");
}

/**
 * Body parsers. tRPC gets the raw text (depth-checked) and parses it itself, so a malformed body
 * is a tRPC PARSE_ERROR in tRPC's own envelope; every other door gets parsed JSON.
 */
export function bodyParsers(limitBytes: number): RequestHandler[] {
  const trpcText = express.text({ type: () => true, limit: limitBytes, verify: refuseDeepBody });
  const json = express.json({ limit: limitBytes, verify: refuseDeepBody });
  return [
    (req, res, next) => (req.path.startsWith("/trpc/") ? trpcText(req, res, next) : json(req, res, next)),
    (req, _res, next) => {
      const input = req.path.startsWith("/trpc/") ? req.query.input : undefined;
      next(typeof input === "string" && jsonDepthExceeds(input) ? new TooDeepError("The input parameter") : undefined);
    },
  ];
}

/**
 * trpc-to-openapi matches path parameters on the raw path, so `/business/a%2Db/agent.json` would
 * look for the slug "a%2Db". Escapes of unreserved characters are written plainly again, which is
 * what they mean; anything else stays escaped and simply matches no business.
 */
export const decodeUnreservedPathEscapes: RequestHandler = (req, _res, next) => {
  const queryAt = req.url.indexOf("?");
  const path = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
  if (path.includes("%")) {
    const decoded = path.replace(/%(2[dDeE]|5[fF]|7[eE]|3\d|[46][1-9a-fA-F]|[57][0-9aA])/g, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
    req.url = decoded + (queryAt === -1 ? "" : req.url.slice(queryAt));
  }
  next();
};

/**
 * The input gate for REST path parameters. trpc-to-openapi hands a procedure its path parameters
 * still escaped (it re-parses the URL, which escapes control characters again), so `a%00b` would
 * be looked up and answered with a 404 echoing it. Each decoded path parameter is judged here by
 * the rule of every other input: a 400 naming it, never echoing the character.
 */
export function pathParameterGate(classify: RouteClassifier): RequestHandler {
  return (req, res, next) => {
    const route = classify(req);
    const input = route.door === "rest" ? (route.procedures[0]?.input() as Record<string, unknown>) : undefined;
    for (const [, name] of route.route.matchAll(/\{(\w+)\}/g)) {
      const value = input?.[name!];
      if (typeof value !== "string") continue;
      try {
        assertSafeInput({ [name!]: decodeURIComponent(value) });
      } catch (error) {
        if (!(error instanceof DomainError)) continue; // a malformed escape: it matches nothing, as before
        sendError(res, error.httpStatus, { error: error.message, code: error.code });
        return;
      }
    }
    next();
  };
}

/**
 * A POST, PUT, PATCH or DELETE that sends no body at all (no Content-Length above 0, no chunked
 * transfer), as curl and Swagger UI do for `POST /api/v2/webhooks/{id}/enable`, carries an empty
 * JSON object: trpc-to-openapi would refuse it with 415 for a missing Content-Type although there
 * is nothing to type. A body that is sent must still say it is JSON.
 */
export const emptyBodyIsEmptyObject: RequestHandler = (req, _res, next) => {
  const sendsBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
  if (["POST", "PUT", "PATCH", "DELETE"].includes(req.method) && !sendsBody && req.headers["content-type"] === undefined) {
    req.headers["content-type"] = "application/json";
    req.body = {};
  }
  next();
};

/**
 * tRPC sends some refusals it makes itself (an unsupported content type, an oversized batch) with
 * the fetch default `text/plain` although the body is its JSON error envelope: say what it is.
 */
export const trpcJsonContentType: RequestHandler = (_req, res, next) => {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = ((name: string, value: number | string | readonly string[]) =>
    setHeader(name, name.toLowerCase() === "content-type" && String(value).startsWith("text/plain") ? "application/json" : value)) as typeof res.setHeader;
  next();
};

/** Parser refusals as domain errors, so their status comes from the one table in errors.ts. */
const CLIENT_ERRORS: Record<string, DomainError> = {
  HPE_HEADER_OVERFLOW: new DomainError("HEADERS_TOO_LARGE", "The request line or headers are too large (16 KB at most)"),
  ERR_HTTP_REQUEST_TIMEOUT: new DomainError("REQUEST_TIMEOUT", "The request took too long to arrive"),
};
const MALFORMED_REQUEST = new DomainError("INVALID_INPUT", "Malformed HTTP request");

/**
 * Requests Node's HTTP parser refuses before express sees them (a URL over the header limit,
 * malformed framing) get the same JSON error body as everything else, not an empty response.
 */
export function answerClientErrorsWithJson(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const known = CLIENT_ERRORS[error.code ?? ""] ?? MALFORMED_REQUEST;
    const body = JSON.stringify({ error: known.message, code: known.code });
    socket.end(
      `HTTP/1.1 ${known.httpStatus} ${STATUS_CODES[known.httpStatus]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
