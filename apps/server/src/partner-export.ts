import type { Express, Request, Response } from "express";
import type { TRPCError } from "@trpc/server";
import {
  createCaller,
  createPartnerFeedRestCaller,
  toPublicError,
  ZGetPartnerFeedChangesInput,
  ZGetPartnerFeedInput,
  type Context,
  type JsonText,
} from "@directory/api";
import { sendError } from "./errors";
import { GZIP_LEVEL } from "./http-conventions";

export const PARTNER_EXPORT_PATH = "/api/v2/partner-feed/export";
const PARTNER_FEED_PATH = "/api/v2/partner-feed";
const PARTNER_FEED_CHANGES_PATH = "/api/v2/partner-feed/changes";

/** Waits until the socket takes more, or the client has gone. */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** A refused call, as the OpenAPI door answers it (status, public body, Retry-After). */
function sendRefusal(req: Request, res: Response, error: unknown): void {
  const { status, body, retryAfterSeconds } = toPublicError(error as TRPCError);
  if (status >= 500 && status !== 503) req.log.error({ err: (error as TRPCError).cause ?? error }, "procedure failed");
  if (retryAfterSeconds) res.setHeader("Retry-After", String(retryAfterSeconds));
  sendError(res, status, body);
}

type InputShape = Record<string, { _zod: { def: { type: string; innerType?: unknown } } }>;

function innerType(schema: InputShape[string]): string {
  let def = schema._zod.def;
  while (def.innerType) def = (def.innerType as InputShape[string])._zod.def;
  return def.type;
}

/**
 * The query as the OpenAPI door reads it (trpc-to-openapi with its patched coercion): one value
 * per name (an empty one is left out), numeric strings as numbers where the input takes a number,
 * "true"/"false" where it takes a boolean. The procedure's own input schema then validates it.
 */
function queryInput(req: Request, shape: InputShape): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(req.query)) {
    if (!value) continue;
    input[key] = Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
  for (const [key, value] of Object.entries(input)) {
    const schema = shape[key];
    if (typeof value !== "string" || !schema) continue;
    const type = innerType(schema);
    if (type === "number" && value.trim() !== "" && !Number.isNaN(Number(value))) input[key] = Number(value);
    else if (type === "boolean" && (value === "true" || value === "false")) input[key] = value === "true";
  }
  return input;
}

/**
 * The REST door's body writing for the partner feed, the one place it differs from the OpenAPI
 * middleware's (which still documents these routes and answers HEAD). Every call runs its
 * procedure through a caller with the request's context, so the guards (key, kind, quota, the
 * per-key export slot) and input validation are the procedures'; only the body is written here:
 *
 * - GET /api/v2/partner-feed and /changes: the procedures answer their page as JSON text (the
 *   stored documents joined), written as it is. The OpenAPI middleware would parse nothing either,
 *   but stringify every location: at 500 or 1,000 locations a page that was most of its cost.
 *   A page with a next one names it in a Link header (rel="next").
 * - GET /api/v2/partner-feed/export: NDJSON chunks pulled one at a time. Backpressure: the next
 *   chunk is pulled only when res.write has room (through the compression middleware, which gzips
 *   when the client accepts it and passes its own backpressure on). A client that disconnects
 *   stops the pull at once: the stream's return() ends its database read and frees the key's slot.
 *
 * Mounted before the OpenAPI middleware, which documents the routes from the procedures' meta.
 */
export function mountPartnerExport(app: Express, contextFor: (req: Request, res: Response) => Context): void {
  const page = (path: string, shape: InputShape, call: (ctx: Context, input: Record<string, unknown>) => Promise<JsonText<unknown>>) =>
    app.get(path, async (req, res, next) => {
      if (req.method !== "GET") return next();
      const ctx = contextFor(req, res);
      let body: JsonText<unknown>;
      try {
        body = await call(ctx, queryInput(req, shape));
      } catch (error) {
        sendRefusal(req, res, error);
        return;
      }
      // The header trpc-to-openapi sends, so both writers answer alike.
      res.status(200).setHeader("Content-Type", "application/json");
      // RFC 8288: the next page's address, readable before the body, so a partner can ask for it while it parses this one.
      if (body.nextQuery) res.setHeader("Link", `<${ctx.publicBaseUrl}${path}?${new URLSearchParams(body.nextQuery)}>; rel="next"`);
      // No Accept-Encoding means identity here, as the compression middleware reads it.
      if (req.headers["accept-encoding"] !== undefined && req.acceptsEncodings("gzip") === "gzip") {
        // Gzipped here in one piece (JsonText.gzipped); the compression middleware leaves an encoded body alone.
        res.setHeader("Content-Encoding", "gzip");
        res.end(await body.gzipped(GZIP_LEVEL));
      } else {
        res.end(body.bytes());
      }
    });
  page(PARTNER_FEED_PATH, ZGetPartnerFeedInput.shape, (ctx, input) => createPartnerFeedRestCaller(ctx).page(input));
  page(PARTNER_FEED_CHANGES_PATH, ZGetPartnerFeedChangesInput.shape, (ctx, input) => createPartnerFeedRestCaller(ctx).changes(input));

  app.get(PARTNER_EXPORT_PATH, async (req, res) => {
    let lines: AsyncIterableIterator<string | Uint8Array>;
    try {
      lines = await createCaller(contextFor(req, res)).feed.exportPartnerFeed({});
    } catch (error) {
      sendRefusal(req, res, error);
      return;
    }
    let gone = false;
    res.once("close", () => {
      gone = true;
    });
    res.status(200).setHeader("Content-Type", "application/x-ndjson; charset=utf-8");
    if (req.method === "HEAD") {
      await lines.return?.();
      res.end();
      return;
    }
    try {
      for await (const chunk of lines) {
        if (gone) break;
        if (!res.write(chunk)) await drainedOrClosed(res);
        if (gone) break;
      }
      if (!gone) res.end();
    } catch (error) {
      // Mid-stream: the status is sent, so the connection is cut; the client sees no last line and knows the export is incomplete.
      req.log.error({ err: error }, "partner export failed mid-stream");
      res.destroy();
    }
  });
}
