import type { Request, Response } from "express";
import { TRPCError } from "@trpc/server";
import { toPublicError } from "@directory/api";
import { escapeHtml } from "../html";
import { formField, isSignedOut, sendAccountError, sendPrivatePage, signedInPerson, type AccountCallers } from "./account-parts";

/** /sign-in (the form, and asking for a link), the mail's link, and /sign-out. */

/** The one answer to any valid address, known or not: it must not tell whether the address has an account. */
export const LINK_SENT = "If that address can receive mail, a link is on its way; it works once, within 15 minutes.";

function signInForm(options: { email?: string; error?: string } = {}): string {
  const error = options.error ? `<p id="email-error" class="notice error">${escapeHtml(options.error)}</p>` : "";
  const describedBy = options.error ? "email-help email-error" : "email-help";
  return `${error}<form class="stack" method="post" action="/sign-in">
<div><label for="sign-in-email">Email</label>
<input id="sign-in-email" name="email" type="email" autocomplete="email" required maxlength="254" aria-describedby="${describedBy}"${options.error ? ' aria-invalid="true"' : ""} value="${escapeHtml(options.email)}">
<span id="email-help" class="hint">We email you a link that signs you in. No password.</span></div>
<button type="submit">Send sign-in link</button></form>`;
}

function signInMain(extra = "", form = signInForm()): string {
  return `<h1>Sign in</h1>
<p>Sign in to create API keys, see their use this month and manage your plan. A new address gets an account when its link is opened.</p>
${extra}${form}
<p class="muted">New to the API? Read what it offers on the <a href="/developers">developer page</a>.</p>`;
}

export async function signInPage(_req: Request, res: Response, { caller }: AccountCallers): Promise<void> {
  const me = await signedInPerson(caller);
  const already = me
    ? `<p class="notice">You are signed in as ${escapeHtml(me.email)}. Go to <a href="/dashboard">your dashboard</a>, or sign in with another address.</p>`
    : "";
  sendPrivatePage(res, 200, "Sign in", signInMain(already));
}

/** Asks account.signIn.request for a link: the same page for every valid address; a malformed one and the mail limits get their own status. */
export async function requestSignIn(req: Request, res: Response, { caller }: AccountCallers): Promise<void> {
  const email = formField(req, "email") ?? "";
  try {
    await caller.account.signIn.request({ email });
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    const { status, retryAfterSeconds } = toPublicError(error);
    if (status === 400) {
      const form = signInForm({ email: email.slice(0, 254), error: "That is not an email address. Check it (it looks like name@example.org) and try again." });
      return sendPrivatePage(res, 400, "Sign in", signInMain("", form));
    }
    if (status === 429) {
      if (retryAfterSeconds) res.setHeader("Retry-After", String(retryAfterSeconds));
      const wait = retryAfterSeconds ? ` Try again in about ${Math.ceil(retryAfterSeconds / 60)} minutes.` : " Try again later.";
      const main = `<h1>Please wait</h1><p class="notice error">Too many sign-in links were asked for just now, for this address or from your network.${escapeHtml(wait)}</p>
<p>A link already sent still works for 15 minutes: check your mail (and its spam folder).</p><p><a href="/sign-in">Back to sign in</a></p>`;
      return sendPrivatePage(res, 429, "Please wait", main);
    }
    throw error;
  }
  const main = `<h1>Check your mail</h1><p class="notice" role="status">${escapeHtml(LINK_SENT)}</p>
<p>Open the link in this browser. No mail after a few minutes? Check the spam folder, or <a href="/sign-in">ask for another link</a>.</p>`;
  sendPrivatePage(res, 200, "Check your mail", main);
}

/**
 * The mail's link (GET) only shows a button: mail scanners open links to check them, and a GET that
 * spent the one-time token would leave the person a dead link. The button POSTs the token here.
 */
export function confirmSignIn(req: Request, res: Response): void {
  const token = typeof req.query.token === "string" ? req.query.token.slice(0, 200) : "";
  const main = `<h1>Sign in</h1>
<p>You opened a sign-in link of the Business Directory. It works once, within 15 minutes of when it was sent.</p>
<form method="post" action="/sign-in/magic-link/verify"><input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Sign in</button></form>`;
  sendPrivatePage(res, 200, "Sign in", main);
}

/** The button of the link's page: account.signIn.complete sets the session cookie (through the context's setHeader), then the signed-in home. */
export async function verifySignIn(req: Request, res: Response, { caller }: AccountCallers): Promise<void> {
  const token = formField(req, "token") ?? "";
  let home: string;
  try {
    ({ home } = await caller.account.signIn.complete({ token }));
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    const { status } = toPublicError(error);
    if (status !== 400 && status !== 401) throw error;
    const main = `<h1>This sign-in link does not work</h1>
<p class="notice error">It may have been used already (each link works once), be older than 15 minutes, or be cut short by the mail program.</p>
<p><a href="/sign-in">Ask for a new sign-in link</a></p>`;
    return sendPrivatePage(res, status, "Sign-in link expired", main);
  }
  res.setHeader("Cache-Control", "no-store");
  res.redirect(303, home);
}

/** account.signOut clears the session and its cookie; a visitor already signed out is simply sent home too. */
export async function signOut(_req: Request, res: Response, { caller }: AccountCallers): Promise<void> {
  try {
    await caller.account.signOut();
  } catch (error) {
    if (!isSignedOut(error)) return sendAccountError(res, error);
  }
  res.setHeader("Cache-Control", "no-store");
  res.redirect(303, "/");
}
