import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { Express, Request, Response } from "express";
import {
  createCaller,
  createRestCaller,
  JsonText,
  ZGetPartnerFeedChangesInput,
  ZGetPartnerFeedInput,
  type Context,
  type FeedExportStream,
} from "@directory/api";
import { sendRefusal } from "./errors";
import { GZIP_LEVEL } from "./http-conventions";
import { queryInput } from "./query-input";

const gzipInOneCall = promisify(gzip);

const PARTNER_EXPORT_PATH = "/api/v2/partner-feed/export";
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

/**
 * The REST door's body writing for the partner feed, the one place it differs from the OpenAPI
 * middleware's (which still documents these routes and answers HEAD). Every call runs its
 * procedure through a caller with the request's context, so the guards (key, kind, quota, the
 * per-key export slot) and input validation are the procedures'; the query is read as the OpenAPI
 * door reads it (queryInput). Only the body is written here:
 *
 * - GET /api/v2/partner-feed and /changes: the procedures hand this door their page as JSON text
 *   (ctx.writesJsonText: the stored documents joined), written as it is. The OpenAPI middleware
 *   would stringify every location: at 500 or 1,000 locations a page, most of its cost. A page
 *   with a next one names it in a Link header (rel="next"), so a partner asks for it while it
 *   parses this one.
 * - GET /api/v2/partner-feed/export: NDJSON chunks pulled one at a time. Backpressure: the next
 *   chunk is pulled only when res.write has room (through the compression middleware, which gzips
 *   when the client accepts it and passes its own backpressure on). A client that disconnects
 *   stops the pull at once: the stream's return() ends its database read and frees the key's slot.
 *   An export the service cuts (a reader below the minimum rate, or past the maximum duration) has
 *   already ended its read and freed its slot; the connection is dropped, so the client sees no
 *   last line. This is the export's only door: the procedure is in restRouter, not in appRouter.
 *
 * Mounted before the OpenAPI middleware, which documents the routes from the procedures' meta.
 */
export function mountPartnerFeedDoor(app: Express, contextFor: (req: Request, res: Response) => Context): void {
  const page = (path: string, inputSchema: unknown, call: (ctx: Context, input: Record<string, unknown>) => Promise<unknown>) =>
    app.get(path, async (req, res, next) => {
      if (req.method !== "GET") return next();
      const ctx: Context = { ...contextFor(req, res), writesJsonText: true };
      let body: unknown;
      try {
        body = await call(ctx, queryInput(req, inputSchema));
      } catch (error) {
        sendRefusal(req, res, error);
        return;
      }
      if (!(body instanceof JsonText)) throw new Error(`${path}: the procedure answered values where this door writes JSON text`);
      // The header trpc-to-openapi sends, so both writers answer alike.
      res.status(200).setHeader("Content-Type", "application/json");
      if (body.nextQuery) res.setHeader("Link", `<${ctx.publicBaseUrl}${path}?${new URLSearchParams(body.nextQuery)}>; rel="next"`);
      // No Accept-Encoding means identity here, as the compression middleware reads it.
      if (req.headers["accept-encoding"] !== undefined && req.acceptsEncodings("gzip") === "gzip") {
        // In one call on zlib's thread pool: the event loop is free meanwhile, and a page is one job,
        // not the many 16 KB chunks a compressing stream makes of it. The compression middleware
        // leaves a body that is already encoded alone.
        res.setHeader("Content-Encoding", "gzip");
        res.end(await gzipInOneCall(body.bytes(), { level: GZIP_LEVEL }));
      } else {
        res.end(body.bytes());
      }
    });
  page(PARTNER_FEED_PATH, ZGetPartnerFeedInput, (ctx, input) => createCaller(ctx).feed.getPartnerFeed(input));
  page(PARTNER_FEED_CHANGES_PATH, ZGetPartnerFeedChangesInput, (ctx, input) => createCaller(ctx).feed.getPartnerFeedChanges(input));

  app.get(PARTNER_EXPORT_PATH, async (req, res) => {
    let lines: FeedExportStream;
    try {
      lines = await createRestCaller(contextFor(req, res)).feed.exportPartnerFeed({});
    } catch (error) {
      sendRefusal(req, res, error);
      return;
    }
    let gone = false;
    res.once("close", () => {
      gone = true;
    });
    lines.cut.addEventListener("abort", () => {
      gone = true;
      req.log.warn({ reason: (lines.cut.reason as Error).message }, "partner export cut");
      res.destroy();
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
