import type { Request, Response } from "express";
import { escapeHtml } from "../html";
import {
  csrfField,
  formField,
  keysList,
  planText,
  sendPrivatePage,
  signedInPerson,
  timeText,
  type AccountBusiness,
  type AccountCallers,
  type Me,
  type SessionSummary,
} from "./account-parts";
import { agenciesSection } from "./agency-views";

/** /dashboard: the signed-in home. Its keys, plan, businesses, agencies and sessions, and signing out. */

function sessionItem(session: SessionSummary, me: Me): string {
  const browser = session.userAgent ? escapeHtml(session.userAgent) : "Unknown browser";
  const action = session.current
    ? `<p><strong>This browser</strong> (your current session).</p>`
    : `<form class="inline-form" method="post" action="/dashboard/sessions/end">${csrfField(me)}<input type="hidden" name="id" value="${escapeHtml(session.id)}"><button type="submit" class="secondary">End session</button></form>`;
  return `<li><p class="agent">${browser}</p><dl class="facts">
<dt>Signed in</dt><dd>${timeText(session.createdAt)}</dd>
<dt>Last active</dt><dd>${timeText(session.lastActiveAt)}</dd>
<dt>Expires</dt><dd>${timeText(session.expiresAt)}</dd></dl>${action}</li>`;
}

function businessesList(businesses: AccountBusiness[]): string {
  if (businesses.length === 0) {
    return `<p>You own no listing yet. Find your business in the directory and choose <strong>Claim this business</strong> on its page.</p>`;
  }
  const items = businesses.map(
    (business) => `<li><a href="/business/${encodeURIComponent(business.slug)}">${escapeHtml(business.name)}</a>, ${escapeHtml(business.city)}
<span class="hint">owner since ${timeText(business.ownerSince)}, proven by ${escapeHtml(business.method)}</span>
<a href="/dashboard/business/${encodeURIComponent(business.slug)}">Manage this listing</a></li>`,
  );
  return `<ul>${items.join("")}</ul>`;
}

export async function dashboardPage(_req: Request, res: Response, { caller, extras, context }: AccountCallers): Promise<void> {
  const me = await signedInPerson(caller);
  if (!me) {
    res.setHeader("Cache-Control", "no-store");
    return res.redirect(303, "/sign-in");
  }
  const [keys, sessions, businesses, agencies] = [
    await extras.account.keys.list(),
    await extras.account.sessions.list(),
    await extras.account.businesses.list(),
    await extras.account.agencies.list(),
  ];
  const { trialPerMonth, keyedPerMonth } = context.rateLimits;
  const main = `<h1>Your dashboard</h1>
<p>Signed in as <strong>${escapeHtml(me.email)}</strong>.</p>
<section aria-labelledby="plan"><h2 id="plan">Plan</h2>${planText(me, trialPerMonth, keyedPerMonth)}
<p><a href="/developers#plan">Plans and prices on the developer page</a></p></section>
<section aria-labelledby="keys"><h2 id="keys">API keys</h2>${keysList(keys, me, { revoke: false })}
<p><a href="/developers#keys">Create or revoke keys on the developer page</a></p></section>
<section aria-labelledby="businesses"><h2 id="businesses">Businesses</h2>${businessesList(businesses)}</section>
${agenciesSection(agencies, me)}
<section aria-labelledby="sessions"><h2 id="sessions">Where you are signed in</h2>
<ul class="keys">${sessions.map((session) => sessionItem(session, me)).join("")}</ul></section>
<section aria-labelledby="leave"><h2 id="leave">Sign out</h2>
<form class="inline-form" method="post" action="/sign-out">${csrfField(me)}<button type="submit">Sign out</button></form></section>`;
  sendPrivatePage(res, 200, "Your dashboard", main);
}

/** account.sessions.end for one of the person's sessions (another browser), then the dashboard again. */
export async function endSessionForm(req: Request, res: Response, { caller }: AccountCallers): Promise<void> {
  await caller.account.sessions.end({ id: formField(req, "id") ?? "" });
  res.setHeader("Cache-Control", "no-store");
  res.redirect(303, "/dashboard#sessions");
}
