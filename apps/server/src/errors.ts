import type { ErrorRequestHandler, RequestHandler } from "express";
import type { PublicErrorBody } from "@directory/api";

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

/** Errors raised before a procedure runs (body parser, bad JSON, oversize): JSON, never HTML. */
export function errorHandler(log: { error(obj: object, msg: string): void }): ErrorRequestHandler {
  return (error: { status?: number; type?: string }, _req, res, _next) => {
    if (error.type === "entity.too.large" || error.status === 413) {
      return sendError(res, 413, { error: "Request body too large", code: "PAYLOAD_TOO_LARGE" });
    }
    if (error.type === "entity.parse.failed") {
      return sendError(res, 400, { error: "Request body is not valid JSON", code: "INVALID_INPUT" });
    }
    if (error.status && error.status >= 400 && error.status < 500) {
      return sendError(res, error.status, { error: "Bad request", code: "INVALID_INPUT" });
    }
    log.error({ err: error }, "unhandled error");
    return sendError(res, 500, { error: "Internal server error", code: "INTERNAL" });
  };
}
