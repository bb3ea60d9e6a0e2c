import type { Request, Response } from "express";
import { TRPCError } from "@trpc/server";
import { toPublicError, type Context } from "@directory/api";
import { rateLimitSentence } from "@directory/api/schemas";
import { escapeHtml } from "../html";
import { csrfField, formField, keysList, planText, sendPrivatePage, signedInPerson, type AccountCallers, type AccountKey, type Me } from "./account-parts";
import { PAGE_CSP } from "./layout";

/**
 * /developers: what the API offers and costs, for everyone; for a signed-in developer also their
 * keys (create, revoke, use this month) and their plan.
 */

/** The developer plan's price, as the payment provider's price is set up (stripe-provider.ts). */
export const PLAN_PRICE = "4,999 INR a month";

const count = (n: number) => n.toLocaleString("en-US");

function offer(context: Context): string {
  const { trialPerMonth, keyedPerMonth } = context.rateLimits;
  const base = context.publicBaseUrl;
  return `<h1>The Business Directory API</h1>
<p>Businesses worldwide by category, city, keywords, opening hours and distance, with every fact's source and confidence, through the door that suits your program.</p>
<h2 id="doors">What the API offers</h2>
<dl>
<dt>REST with OpenAPI</dt><dd>The whole API described in <a href="/api/openapi.json">OpenAPI 3.1</a>, with an <a href="/docs">interactive reference</a> to try every route.</dd>
<dt>Typed SDK</dt><dd>The <code>@directory/sdk</code> package: a TypeScript client whose calls and answers carry the server's own types (tRPC at <code>${escapeHtml(`${base}/trpc`)}</code>).</dd>
<dt>MCP</dt><dd>A Model Context Protocol server for AI agents: <a href="/mcp">how to connect one</a>.</dd>
<dt>GraphQL</dt><dd>Queries at <code>${escapeHtml(`${base}/api/graphql`)}</code>; the <a href="/api/graphql/schema.graphql">schema</a>.</dd>
<dt>Webhooks</dt><dd>Register a receiver with your key (<code>POST /api/developers/webhooks</code>, in the <a href="/docs">reference</a>) and get a signed call when a business changes.</dd>
</dl>
<p>For agents: <a href="/llms.txt">llms.txt</a> and the <a href="/api/agent-discovery">discovery manifest</a>. ${escapeHtml(rateLimitSentence(context.rateLimits))}</p>
<h2 id="price">Price</h2>
<p>The developer plan costs <strong>${PLAN_PRICE}</strong>, flat: each key may make ${count(keyedPerMonth)} requests a month, with no overage (past the limit requests are refused until the next month, never billed).</p>
<p>Without a plan, a key is on the <strong>trial</strong>: ${count(trialPerMonth)} requests a month per key, free.</p>`;
}

function planSection(context: Context, me: Me): string {
  const { trialPerMonth, keyedPerMonth } = context.rateLimits;
  const buy = context.paymentProvider
    ? `<form class="inline-form" method="post" action="/developers/plan">${csrfField(me)}<button type="submit">${me.plan ? "Renew the developer plan" : "Buy the developer plan"} (${PLAN_PRICE})</button></form>`
    : "<p>Plans are not sold online here: an operator grants them. Write to the directory's operator to get one.</p>";
  return `<section aria-labelledby="plan"><h2 id="plan">Your plan</h2>${planText(me, trialPerMonth, keyedPerMonth)}${buy}</section>`;
}

function createForm(me: Me, error?: string, label?: string): string {
  const message = error ? `<p id="label-error" class="notice error">${escapeHtml(error)}</p>` : "";
  return `<h3 id="new-key-form">Create a key</h3>${message}<form class="stack" method="post" action="/developers/keys">${csrfField(me)}
<div><label for="key-label">Label</label><input id="key-label" name="label" required maxlength="100" aria-describedby="key-label-help${error ? " label-error" : ""}"${error ? ' aria-invalid="true"' : ""} value="${escapeHtml(label)}">
<span id="key-label-help" class="hint">A name to recognise the key by, such as the program that uses it.</span></div>
<button type="submit">Create key</button></form>`;
}

function newKeyBox(key: string): string {
  return `<section class="new-key" aria-labelledby="new-key-heading"><h2 id="new-key-heading">Your new key</h2>
<p><strong>Copy it now: it is shown this once and never again.</strong> Only its hash is kept; if you lose it, revoke it and create another.</p>
<p><code id="new-key-value">${escapeHtml(key)}</code></p>
<p class="hint">Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p></section>`;
}

const NOTICES: Record<string, string> = {
  revoked: "The key was revoked: requests with it are refused from now on.",
  done: "Thank you: your plan starts as soon as the payment is confirmed.",
  cancelled: "The payment was cancelled; nothing was charged.",
};

interface SignedInView {
  me: Me;
  keys: AccountKey[];
  newKey?: string;
  createError?: { message: string; label: string };
  notice?: string;
}

function accountSection(context: Context, view: SignedInView): string {
  const notice = view.notice ? `<p class="notice" role="status">${escapeHtml(view.notice)}</p>` : "";
  return `<section aria-labelledby="yours"><h2 id="yours">Your account</h2>${notice}
<p>Signed in as <strong>${escapeHtml(view.me.email)}</strong>. <a href="/dashboard">Your dashboard</a>.</p></section>
${view.newKey ? newKeyBox(view.newKey) : ""}
<section aria-labelledby="keys"><h2 id="keys">Your API keys</h2>${keysList(view.keys, view.me, { revoke: true })}
${createForm(view.me, view.createError?.message, view.createError?.label)}</section>
${planSection(context, view.me)}`;
}

/**
 * The page's CSP, but the buy form's answer is a 303 to the provider's hosted checkout, and Chrome
 * applies form-action to a form's redirects too: with a provider, its checkout origin is allowed.
 */
export function allowCheckoutRedirect(res: Response, context: Context): void {
  const checkout = context.paymentProvider?.checkoutOrigin;
  if (checkout) res.setHeader("Content-Security-Policy", PAGE_CSP.replace("form-action 'self'", `form-action 'self' ${checkout}`));
}

function sendDevelopers(res: Response, status: number, context: Context, view: SignedInView | null): void {
  const signedOut = `<section aria-labelledby="start"><h2 id="start">Get a key</h2>
<p><a href="/sign-in">Sign in</a> with your email address to create keys, see their use and buy the plan. No password: we email you a link.</p></section>`;
  if (view) allowCheckoutRedirect(res, context);
  // Signed out and fine, it is the public page about the API; anything else is one person's answer.
  const meta =
    view || status !== 200
      ? { noindex: true }
      : {
          description: `The directory's API: REST with OpenAPI, a typed SDK, MCP, GraphQL and webhooks. ${PLAN_PRICE}, flat.`,
          canonical: `${context.publicBaseUrl}/developers`,
        };
  sendPrivatePage(res, status, "Developers", `${offer(context)}${view ? accountSection(context, view) : signedOut}`, meta);
}

export async function developersPage(req: Request, res: Response, { caller, extras, context }: AccountCallers): Promise<void> {
  const me = await signedInPerson(caller);
  if (!me) return sendDevelopers(res, 200, context, null);
  const flag = typeof req.query.revoked === "string" ? "revoked" : typeof req.query.checkout === "string" ? req.query.checkout : "";
  sendDevelopers(res, 200, context, { me, keys: await extras.account.keys.list(), notice: NOTICES[flag] });
}

/** account.keys.create; its answer is the one page that ever shows the key. */
export async function createKey(req: Request, res: Response, { caller, extras, context }: AccountCallers): Promise<void> {
  const label = formField(req, "label") ?? "";
  let created: { key: string } | null = null;
  let createError: SignedInView["createError"];
  try {
    created = await caller.account.keys.create({ label });
  } catch (error) {
    if (!(error instanceof TRPCError) || toPublicError(error).status !== 400) throw error;
    createError = { message: `The key was not created: ${toPublicError(error).body.error}`, label: label.slice(0, 100) };
  }
  const me = await extras.account.me();
  sendDevelopers(res, created ? 200 : 400, context, { me, keys: await extras.account.keys.list(), newKey: created?.key, createError });
}

/** account.keys.revoke, then the page again (so a reload does not post twice). */
export async function revokeKey(req: Request, res: Response, { caller }: AccountCallers): Promise<void> {
  await caller.account.keys.revoke({ id: formField(req, "id") ?? "" });
  res.setHeader("Cache-Control", "no-store");
  res.redirect(303, "/developers?revoked=1#keys");
}

/** account.plan.checkout, then the provider's hosted checkout page. */
export async function buyPlan(_req: Request, res: Response, { caller }: AccountCallers): Promise<void> {
  const { url } = await caller.account.plan.checkout();
  res.setHeader("Cache-Control", "no-store");
  res.redirect(303, url);
}
