import type { Request, RequestHandler, Response } from "express";

/** The WWW-Authenticate challenge every door answers a refused call with. */
export const WWW_AUTHENTICATE_REALM = 'Bearer realm="directory"';

/** The challenge of a refused key: invalid_token when one was presented. */
export function bearerChallenge(req: Request): string {
  return req.headers.authorization !== undefined ? `${WWW_AUTHENTICATE_REALM}, error="invalid_token"` : WWW_AUTHENTICATE_REALM;
}

function graphqlUnauthorized(body: string): boolean {
  if (!body.includes('"status":401')) return false;
  try {
    const parsed = JSON.parse(body) as { errors?: { extensions?: { status?: unknown } }[] };
    return parsed.errors?.some((error) => error.extensions?.status === 401) === true;
  } catch {
    return false;
  }
}

/**
 * GraphQL answers a refused call with 200 and an error whose extensions.status is 401 (GraphQL over
 * HTTP); the challenge still goes with it, so a client learns how to authenticate. The head is
 * held back until the body is known.
 */
export const graphqlAuthChallenge: RequestHandler = (req, res, next) => {
  const writeHead = res.writeHead;
  const write = res.write;
  const end = res.end;
  let pendingHead: unknown[] | null = null;
  const restore = () => {
    res.writeHead = writeHead;
    res.write = write;
    res.end = end;
    if (pendingHead) (writeHead as (...args: unknown[]) => unknown).apply(res, pendingHead);
    pendingHead = null;
  };
  res.writeHead = function deferredWriteHead(this: Response, ...args: unknown[]) {
    pendingHead = args;
    return this;
  } as typeof res.writeHead;
  res.write = function flushingWrite(this: Response, ...args: unknown[]) {
    restore();
    return (write as (...writeArgs: unknown[]) => boolean).apply(this, args);
  } as typeof res.write;
  res.end = function challengingEnd(this: Response, ...args: unknown[]) {
    const [chunk] = args;
    const text = typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : "";
    if (!res.headersSent && graphqlUnauthorized(text)) res.setHeader("WWW-Authenticate", bearerChallenge(req));
    restore();
    return (end as (...endArgs: unknown[]) => Response).apply(this, args);
  } as typeof res.end;
  next();
};
