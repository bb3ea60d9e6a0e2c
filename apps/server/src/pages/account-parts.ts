import type { Request, Response } from "express";
import { TRPCError } from "@trpc/server";
import { toPublicError, type Context } from "@directory/api";
import { escapeHtml } from "../html";
import type { Caller } from "./errors";
import { layout, type PageMeta } from "./layout";

/** The pieces the account pages share: the keys list, the hidden CSRF field, dates, their error page. */

export type Me = Awaited<ReturnType<Caller["account"]["me"]>>;
export type AccountKey = Awaited<ReturnType<Caller["account"]["keys"]["list"]>>[number];
export type SessionSummary = Awaited<ReturnType<Caller["account"]["sessions"]["list"]>>[number];
export type AccountBusiness = Awaited<ReturnType<Caller["account"]["businesses"]["list"]>>[number];

export interface AccountCallers {
  /** Counted against the caller's address, as any door's calls are. */
  caller: Caller;
  /** The same request's further reads on one page view, uncounted (pages/errors.ts says why). */
  extras: Caller;
  context: Context;
}

export type AccountHandler = (req: Request, res: Response, callers: AccountCallers) => Promise<void>;

/** A form field as one string; absent, or sent twice (an array), it is undefined and the procedure's input check answers. */
export function formField(req: Request, name: string): string | undefined {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

/** A signed-in page or a form is never stored by a browser or a proxy: it holds a person's own data or a CSRF token. */
export function sendPrivatePage(res: Response, status: number, title: string, main: string, meta: Partial<PageMeta> = { noindex: true }): void {
  res.setHeader("Cache-Control", "no-store");
  res
    .status(status)
    .type("html")
    .send(layout({ title, ...meta }, main));
}

/** The session's CSRF token, which every POST form of a signed-in page carries (the procedures check it). */
export function csrfField(me: Me | null): string {
  return me ? `<input type="hidden" name="csrfToken" value="${escapeHtml(me.csrfToken)}">` : "";
}

/** "2025-03-01 14:05 UTC" in a <time> element; every reader sees the same clock. */
export function timeText(iso: string | null, never = "never"): string {
  if (!iso) return escapeHtml(never);
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return escapeHtml(iso);
  const text = `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return `<time datetime="${escapeHtml(date.toISOString())}">${escapeHtml(text)}</time>`;
}

/** Written exactly so: "3 of 100 requests this month". */
export function usageText(key: Pick<AccountKey, "usedThisMonth" | "monthlyLimit">): string {
  return `${key.usedThisMonth} of ${key.monthlyLimit} requests this month`;
}

/** The plan in words: the plan and until when, or the trial. */
export function planText(me: Me, trialPerMonth: number, keyedPerMonth: number): string {
  if (me.plan) {
    return `<p><strong>${escapeHtml(me.plan.name)}</strong> until ${timeText(me.plan.activeUntil)}: each key may make ${escapeHtml(keyedPerMonth)} requests a month.</p>`;
  }
  return `<p><strong>Trial</strong> (no plan): each key may make ${escapeHtml(trialPerMonth)} requests a month.</p>`;
}

/**
 * The person's keys. With `revoke`, each has a Revoke form (the developer page); without, the list
 * is read-only and links to where keys are managed (the dashboard).
 */
export function keysList(keys: AccountKey[], me: Me, options: { revoke: boolean }): string {
  if (keys.length === 0) {
    return `<p>You have no API keys yet.${options.revoke ? "" : ' Create one on the <a href="/developers#keys">developer page</a>.'}</p>`;
  }
  const items = keys.map((key) => {
    const revoke = options.revoke
      ? `<form class="inline-form" method="post" action="/developers/keys/revoke">${csrfField(me)}<input type="hidden" name="id" value="${escapeHtml(key.id)}"><button type="submit" class="danger">Revoke</button></form>`
      : "";
    return `<li><h3>${escapeHtml(key.label)}</h3><dl class="facts">
<dt>Starts with</dt><dd><code>${escapeHtml(key.visiblePrefix)}</code></dd>
<dt>Created</dt><dd>${timeText(key.createdAt)}</dd>
<dt>Last used</dt><dd>${timeText(key.lastUsedAt)}</dd>
<dt>Use</dt><dd class="usage">${escapeHtml(usageText(key))}</dd></dl>${revoke}</li>`;
  });
  return `<ul class="keys">${items.join("")}</ul>`;
}

const TITLES: Record<number, string> = {
  400: "That did not work",
  401: "Sign in first",
  403: "This request was refused",
  404: "Not found",
  429: "Too many requests",
  503: "Temporarily unavailable",
};

/** What to do next, by status: sign in, reload the form, wait. */
const NEXT_STEPS: Record<number, string> = {
  401: '<p><a href="/sign-in">Sign in</a> to continue.</p>',
  403: "<p>Changes are accepted only from this site's own forms, with the token of your current session. Reload the page and try again.</p>",
  404: "<p>It does not exist, or it is not yours.</p>",
  429: "<p>Please wait a while before trying again.</p>",
};

/** A refused account procedure as a page with the procedure's status; anything but a tRPC error is rethrown. */
export function sendAccountError(res: Response, error: unknown): void {
  if (!(error instanceof TRPCError)) throw error;
  const { status, body, retryAfterSeconds } = toPublicError(error);
  if (retryAfterSeconds) res.setHeader("Retry-After", String(retryAfterSeconds));
  const title = TITLES[status] ?? "Something went wrong";
  const main = `<h1>${escapeHtml(title)}</h1><p class="notice error">${escapeHtml(body.error)}</p>${NEXT_STEPS[status] ?? ""}
<ul class="inline"><li><a href="/dashboard">Your dashboard</a></li><li><a href="/developers">Developers</a></li><li><a href="/">Search the directory</a></li></ul>`;
  sendPrivatePage(res, status, title, main);
}

/** True for the refusal a signed-out visitor gets: such pages show their signed-out view instead. */
export function isSignedOut(error: unknown): boolean {
  return error instanceof TRPCError && error.code === "UNAUTHORIZED";
}

/** The signed-in person, or null when there is no valid session; any other failure is thrown. */
export async function signedInPerson(caller: Caller): Promise<Me | null> {
  try {
    return await caller.account.me();
  } catch (error) {
    if (isSignedOut(error)) return null;
    throw error;
  }
}
