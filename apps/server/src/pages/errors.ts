import type { Request, RequestHandler, Response } from "express";
import { TRPCError } from "@trpc/server";
import { toPublicError, type createCaller } from "@directory/api";
import { escapeHtml } from "../html";
import { layout, pageSecurityHeaders, popularLinks, searchForms, type SearchValues } from "./layout";

type Caller = ReturnType<typeof createCaller>;

/**
 * caller: counted as any door counts (the page's one procedure call that a view costs).
 * extras: what the same view reads besides (offers, questions, hours, the links an error page
 * offers), uncounted: a page view counts once against the anonymous daily limit, as one API
 * request would, not once per procedure the page happens to be assembled from. The extras are a
 * fixed few per view and run only after the counted call succeeded (or failed for a reason other
 * than the limit), so they add no way around it.
 */
export interface PageCallers {
  caller: Caller;
  extras: Caller;
  baseUrl: string;
}

const TITLES: Record<number, string> = {
  400: "That search did not work",
  401: "Sign in first",
  403: "Not yours to open",
  404: "Not found",
  410: "No longer listed",
  429: "Too many requests",
  503: "Temporarily unavailable",
};

/** The popular links, or nothing when even those cannot be read (the error page must still render). */
export async function popularOrNothing(caller: Caller, headingLevel = 2): Promise<string> {
  try {
    return popularLinks(await caller.pages.overview({ limit: 12 }), headingLevel);
  } catch {
    return "";
  }
}

/**
 * An error page for a failed procedure: its status, what happened, and where to go instead (the
 * search forms and popular categories). Non-tRPC errors are rethrown to the app's error handler.
 */
export async function sendErrorPage(res: Response, caller: Caller, error: unknown, search: SearchValues = {}): Promise<void> {
  if (!(error instanceof TRPCError)) throw error;
  const { status, body, retryAfterSeconds } = toPublicError(error);
  if (retryAfterSeconds) res.setHeader("Retry-After", String(retryAfterSeconds));
  const title = TITLES[status] ?? "Something went wrong";
  const offerPopular = status === 400 || status === 404;
  const main = `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(body.error)}</p>
${status === 429 ? "<p>Wait a little and reload, or use the API with a key for higher limits.</p>" : ""}${searchForms(search)}${offerPopular ? await popularOrNothing(caller) : ""}`;
  res
    .status(status)
    .type("html")
    .send(layout({ title, noindex: true }, main));
}

/** True when the client would rather read HTML than JSON (a browser; curl and fetch send *\/*, which reads as JSON). */
function prefersHtml(req: Request): boolean {
  return req.accepts(["application/json", "text/html"]) === "text/html";
}

/**
 * The last handler before the API's own 404: a browser asking for an address nothing answers gets
 * an HTML page with the search forms; JSON clients, the API's namespaces (/api, /trpc) and REST
 * routes outside them (isRestRoute) fall through to the JSON answers.
 */
export function htmlNotFound(isRestRoute: (req: Request) => boolean): RequestHandler {
  return (req, res, next) => {
    const api = req.path === "/api" || req.path.startsWith("/api/") || req.path.startsWith("/trpc");
    if ((req.method !== "GET" && req.method !== "HEAD") || api || !prefersHtml(req) || isRestRoute(req)) return next();
    pageSecurityHeaders(req, res, () => {
      const main = `<h1>Page not found</h1><p>There is no page at <code>${escapeHtml(req.path)}</code>. It may have been mistyped or moved: search the directory instead, or start from the <a href="/">home page</a>.</p>${searchForms()}`;
      res
        .status(404)
        .type("html")
        .send(layout({ title: "Page not found", noindex: true }, main));
    });
  };
}

export type { Caller };
