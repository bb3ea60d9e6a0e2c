import type { Response } from "express";
import { TRPCError } from "@trpc/server";
import { toPublicError, type createCaller } from "@directory/api";
import { escapeHtml } from "../html";
import { layout, popularLinks, searchForms } from "./layout";

type Caller = ReturnType<typeof createCaller>;

const TITLES: Record<number, string> = {
  400: "That search did not work",
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
export async function sendErrorPage(
  res: Response,
  caller: Caller,
  error: unknown,
  search: { category?: string; city?: string; q?: string } = {},
): Promise<void> {
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

export type { Caller };
