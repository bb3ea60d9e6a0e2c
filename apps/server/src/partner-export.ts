import type { Express, Request, Response } from "express";
import type { TRPCError } from "@trpc/server";
import { createCaller, toPublicError, type Context } from "@directory/api";
import { sendError } from "./errors";

export const PARTNER_EXPORT_PATH = "/api/v2/partner-feed/export";

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
 * The one REST route whose body is not a procedure's JSON: the partner export. The procedure runs
 * first, through the same caller every door uses (key, kind, quota, the per-key export slot), and
 * hands back its NDJSON as a pulled stream; this adapter only writes it out. Backpressure: the next
 * chunk is pulled only when res.write has room (through the compression middleware, which gzips
 * when the client accepts it and passes its own backpressure on). A client that disconnects stops
 * the pull at once: the stream's return() rolls its transaction back and frees the key's slot.
 * Mounted before the OpenAPI middleware, which documents the route from the procedure's meta.
 */
export function mountPartnerExport(app: Express, contextFor: (req: Request, res: Response) => Context): void {
  app.get(PARTNER_EXPORT_PATH, async (req, res) => {
    let lines: AsyncIterableIterator<string>;
    try {
      lines = await createCaller(contextFor(req, res)).feed.exportPartnerFeed({});
    } catch (error) {
      const { status, body, retryAfterSeconds } = toPublicError(error as TRPCError);
      if (retryAfterSeconds) res.setHeader("Retry-After", String(retryAfterSeconds));
      sendError(res, status, body);
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
