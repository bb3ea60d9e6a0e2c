import type { ErrorRequestHandler, Request, RequestHandler, Response } from "express";
import type { TRPCError } from "@trpc/server";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import superjson from "superjson";
import { toPublicError, type PublicErrorBody } from "@directory/api";
import { classifyBodyError } from "./body-errors";

export function sendError(res: Parameters<RequestHandler>[1], status: number, body: PublicErrorBody): void {
  res.status(status).type("application/json").send(JSON.stringify(body));
}

/**
 * trpc-to-openapi writes its own error body ({ message, code, data, issues }); our errorFormatter
 * already put the public body in data.public, so this swaps it in before the response leaves.
 */
export const publicErrorBodies: RequestHandler = (_req, res, next) => {
  const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (res.statusCode >= 400 && typeof chunk === "string") {
      const publicBody = extractPublicBody(chunk);
      if (publicBody) return end(JSON.stringify(publicBody), ...rest);
    }
    return end(chunk, ...rest);
  }) as typeof res.end;
  next();
};

function extractPublicBody(raw: string): PublicErrorBody | null {
  try {
    const parsed = JSON.parse(raw) as { data?: { public?: PublicErrorBody } };
    return parsed.data?.public ?? null;
  } catch {
    return null;
  }
}

const TRPC_CODE_FOR_STATUS: Record<number, keyof typeof TRPC_ERROR_CODES_BY_KEY> = {
  400: "BAD_REQUEST",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

/**
 * A refusal made before tRPC ran still reaches a tRPC client in tRPC's own envelope (superjson,
 * with the public body in data.public as the errorFormatter puts it), so the SDK can read it.
 */
function sendTrpcError(res: Parameters<RequestHandler>[1], status: number, body: PublicErrorBody): void {
  const code = TRPC_CODE_FOR_STATUS[status] ?? "BAD_REQUEST";
  const shape = { message: body.error, code: TRPC_ERROR_CODES_BY_KEY[code], data: { code, httpStatus: status, public: body } };
  res
    .status(status)
    .type("application/json")
    .send(JSON.stringify({ error: superjson.serialize(shape) }));
}

function refuse(req: Request, res: Parameters<RequestHandler>[1], status: number, body: PublicErrorBody): void {
  if (req.path.startsWith("/trpc/")) sendTrpcError(res, status, body);
  else sendError(res, status, body);
}

/** Errors raised before a procedure runs (body parser, bad JSON, too deep, oversize): JSON, never HTML. */
export function errorHandler(log: { error(obj: object, msg: string): void }): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const refusal = classifyBodyError(error);
    if (refusal) return refuse(req, res, refusal.status, refusal.body);
    log.error({ err: error }, "unhandled error");
    return refuse(req, res, 500, { error: "Internal server error", code: "INTERNAL" });
  };
}

/** A refused call, as the OpenAPI door answers it (status, public body, Retry-After). */
export function sendRefusal(req: Request, res: Response, error: unknown): void {
  const { status, body, retryAfterSeconds } = toPublicError(error as TRPCError);
  if (status >= 500 && status !== 503) req.log.error({ err: (error as TRPCError).cause ?? error }, "procedure failed");
  if (retryAfterSeconds) res.setHeader("Retry-After", String(retryAfterSeconds));
  sendError(res, status, body);
}
