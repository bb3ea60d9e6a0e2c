import { escapeHtml } from "../html";
import { csrfField, timeText, type Me } from "./account-parts";
import type { Caller } from "./errors";
import { claimValueText, propertyLabel, words } from "./facts";
import type { Profile } from "./owner-dashboard-facts";

/**
 * The owner dashboard's lists: leads (each with a form to move it on), corrections, the business
 * keys (create, shown once, revoke), webhooks (read-only), and for owners the co-owners and the
 * agencies with access. Each form posts to /dashboard/business/{slug}/..., whose handler calls the
 * procedure; nothing here decides who may do what.
 */

export type Lead = Awaited<ReturnType<Caller["owner"]["leads"]["list"]>>[number];
export type Corrections = Awaited<ReturnType<Caller["owner"]["corrections"]>>;
export type BusinessKey = Awaited<ReturnType<Caller["owner"]["keys"]["list"]>>[number];
export type Webhooks = Awaited<ReturnType<Caller["owner"]["webhooks"]["list"]>>;
export type CoOwner = Awaited<ReturnType<Caller["owner"]["coOwners"]["list"]>>[number];
export type GrantedAgency = Awaited<ReturnType<Caller["owner"]["agencies"]["list"]>>[number];

export const dashboardPath = (slug: string, step = ""): string => `/dashboard/business/${encodeURIComponent(slug)}${step}`;

/** A one-button form posting `fields` (hidden) with the session's CSRF token. */
function postButton(me: Me, action: string, fields: Record<string, string>, label: string, className = "danger"): string {
  const hidden = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  return `<form class="inline-form" method="post" action="${escapeHtml(action)}">${csrfField(me)}${hidden}<button type="submit" class="${className}">${escapeHtml(label)}</button></form>`;
}

/** An error beside a form: the field it concerns is described by it. */
const formError = (id: string, message?: string) => (message ? `<p id="${id}" class="notice error" role="alert">${escapeHtml(message)}</p>` : "");
const invalidAttributes = (errorId: string, message?: string) => (message ? ` aria-invalid="true" aria-describedby="${errorId}"` : "");

function leadItem(slug: string, me: Me, lead: Lead): string {
  const id = `lead-${escapeHtml(lead.leadId)}-status`;
  const move =
    lead.next.length === 0
      ? `<p class="hint">This lead is closed: it moves no further.</p>`
      : `<form class="stack" method="post" action="${dashboardPath(slug, "/leads")}">${csrfField(me)}<input type="hidden" name="leadId" value="${escapeHtml(lead.leadId)}">
<div><label for="${id}">Move this lead to</label><select id="${id}" name="status">${lead.next.map((status) => `<option value="${escapeHtml(status)}">${escapeHtml(words(status))}</option>`).join("")}</select></div>
<button type="submit">Move lead</button></form>`;
  return `<li><h3>${escapeHtml(lead.contactName)}</h3><dl class="facts">
<dt>Status</dt><dd class="lead-status">${escapeHtml(words(lead.status))}</dd>
<dt>Email</dt><dd>${escapeHtml(lead.contactEmail ?? "Not given")}</dd>
<dt>Phone</dt><dd>${escapeHtml(lead.contactPhone ?? "Not given")}</dd>
<dt>Received</dt><dd>${timeText(lead.createdAt)}</dd>
<dt>Last change</dt><dd>${timeText(lead.updatedAt)}</dd></dl>
<p class="agent">${escapeHtml(lead.message)}</p>${move}</li>`;
}

export function leadsSection(slug: string, me: Me, leads: Lead[], notice: string): string {
  const list = leads.length
    ? `<ul class="keys">${leads.map((lead) => leadItem(slug, me, lead)).join("")}</ul>`
    : "<p>No leads yet. When an agent sends one with a customer's consent, it appears here.</p>";
  return `<section aria-labelledby="leads"><h2 id="leads">Leads received</h2>${notice}
<p>Customers who asked, through an AI agent and with their consent, to be contacted. New leads move to contacted, then won or lost; a lead you will not follow up can be rejected.</p>${list}</section>`;
}

export function correctionsSection(profile: Profile | null, corrections: Corrections): string {
  const items = corrections.corrections.map(
    (
      c,
    ) => `<li><h3>${escapeHtml(propertyLabel(c.property))}: ${escapeHtml(profile ? claimValueText(c, profile.identity) : JSON.stringify(c.value))}</h3><dl class="facts">
<dt>Status</dt><dd>${escapeHtml(words(c.status))}</dd>
<dt>Proposed by</dt><dd>${c.supporters} independent ${c.supporters === 1 ? "caller" : "callers"}</dd>
<dt>Proposed</dt><dd>${timeText(c.createdAt)}</dd>
<dt>Decided</dt><dd>${timeText(c.decidedAt, "not yet")}</dd></dl>
<p class="agent"><strong>Evidence:</strong> ${escapeHtml(c.evidence)}</p></li>`,
  );
  const list = items.length ? `<ul class="keys">${items.join("")}</ul>` : "<p>No corrections have been proposed on this listing.</p>";
  return `<section aria-labelledby="corrections"><h2 id="corrections">Corrections proposed</h2>
<p>Others (people and agents) may propose a correction to a fact; the directory's staff accept or reject each one. Who proposed it is not shown.</p>${list}</section>`;
}

export interface KeysForm {
  newKey?: string;
  error?: string;
  label?: string;
}

function newKeyBox(key: string): string {
  return `<div class="new-key" role="status"><h3 id="new-key-heading">Your new business key</h3>
<p><strong>Copy it now: it is shown this once and never again.</strong> Only its hash is kept; if you lose it, revoke it and create another.</p>
<p><code id="new-key-value">${escapeHtml(key)}</code></p>
<p class="hint">Send it as <code>Authorization: Bearer &lt;key&gt;</code> to the owner API, or give it to an AI agent's MCP connection (get_my_visibility_score, get_my_citations).</p></div>`;
}

export function keysSection(slug: string, me: Me, keys: BusinessKey[], form: KeysForm, notice: string): string {
  const items = keys.map(
    (key) => `<li><h3>${escapeHtml(key.label)}</h3><dl class="facts">
<dt>Starts with</dt><dd><code>${escapeHtml(key.visiblePrefix)}</code></dd>
<dt>Created</dt><dd>${timeText(key.createdAt)}</dd>
<dt>Last used</dt><dd>${timeText(key.lastUsedAt)}</dd></dl>${postButton(me, dashboardPath(slug, "/keys/revoke"), { id: key.id }, "Revoke")}</li>`,
  );
  const list = items.length ? `<ul class="keys">${items.join("")}</ul>` : "<p>This business has no keys yet.</p>";
  const invalid = invalidAttributes("business-key-error", form.error);
  return `<section aria-labelledby="keys"><h2 id="keys">Business keys</h2>${notice}
<p>A business key acts for this business only: its programs and AI agents read its scores and citations, update its facts and move its leads with it.</p>
${form.newKey ? newKeyBox(form.newKey) : ""}${list}
<h3 id="create-key">Create a key</h3>${formError("business-key-error", form.error)}
<form class="stack" method="post" action="${dashboardPath(slug, "/keys")}">${csrfField(me)}
<div><label for="business-key-label">Label</label><input id="business-key-label" name="label" required maxlength="100" value="${escapeHtml(form.label)}"${invalid}>
<span class="hint">A name to recognise the key by, such as the program that uses it.</span></div>
<button type="submit">Create key</button></form></section>`;
}

export function webhooksSection(webhooks: Webhooks): string {
  const items = webhooks.webhooks.map(
    (hook) => `<li><h3 class="agent">${escapeHtml(hook.url)}</h3><dl class="facts">
<dt>Events</dt><dd>${escapeHtml(hook.events.join(", ") || "None")}</dd>
<dt>Status</dt><dd>${escapeHtml(words(hook.status))}${hook.disabledReason ? `: ${escapeHtml(hook.disabledReason)}` : ""}</dd>
<dt>Failing since</dt><dd>${timeText(hook.failingSince, "not failing")}</dd>
<dt>Created</dt><dd>${timeText(hook.createdAt)}</dd></dl></li>`,
  );
  const list = items.length ? `<ul class="keys">${items.join("")}</ul>` : "<p>This business has no webhooks.</p>";
  return `<section aria-labelledby="webhooks"><h2 id="webhooks">Webhooks</h2>
<p>Receivers that hear of changes, registered through the API with one of the business keys (<a href="/docs">API reference</a>).</p>${list}</section>`;
}

export interface OwnersForms {
  inviteError?: string;
  inviteEmail?: string;
  grantError?: string;
  agencySlug?: string;
}

/** Co-owners and agencies: shown to the listing's owners only (the page asks owner.overview for the role). */
export function ownersSection(slug: string, me: Me, owners: CoOwner[], agencies: GrantedAgency[], forms: OwnersForms, notice: string): string {
  const ownerItems = owners.map(
    (owner) => `<li><p class="agent"><strong>${escapeHtml(owner.email)}</strong>${owner.email === me.email ? " (you)" : ""}</p>
<p class="hint">Owner since ${timeText(owner.since)}, by ${escapeHtml(words(owner.method).toLowerCase())}</p>${postButton(me, dashboardPath(slug, "/co-owners/remove"), { email: owner.email }, `Remove ${owner.email}`)}</li>`,
  );
  const agencyItems = agencies.map(
    (
      agency,
    ) => `<li><p><strong>${escapeHtml(agency.name)}</strong> <span class="hint">(${escapeHtml(agency.slug)}), access since ${timeText(agency.grantedAt)}</span></p>
${postButton(me, dashboardPath(slug, "/agencies/withdraw"), { agencySlug: agency.slug }, `Withdraw access from ${agency.name}`)}</li>`,
  );
  const inviteInvalid = invalidAttributes("invite-error", forms.inviteError);
  const grantInvalid = invalidAttributes("grant-error", forms.grantError);
  return `<section aria-labelledby="owners"><h2 id="owners">Owners and agencies</h2>${notice}
<h3 id="co-owners">Co-owners</h3><p>Everyone here manages the listing as you do. The last owner cannot be removed.</p>
<ul class="keys">${ownerItems.join("")}</ul>${formError("invite-error", forms.inviteError)}
<form class="stack" method="post" action="${dashboardPath(slug, "/co-owners")}">${csrfField(me)}
<div><label for="invite-email">Email</label><input id="invite-email" name="email" type="email" autocomplete="email" required maxlength="254" value="${escapeHtml(forms.inviteEmail)}"${inviteInvalid}>
<span class="hint">We mail them; they become a co-owner of the listing.</span></div>
<button type="submit">Invite</button></form>
<h3 id="agencies">Agencies with access</h3><p>An agency's members manage the listing for you: facts, leads and keys, but not its owners or agencies.</p>
${agencyItems.length ? `<ul class="keys">${agencyItems.join("")}</ul>` : "<p>No agency has access.</p>"}${formError("grant-error", forms.grantError)}
<form class="stack" method="post" action="${dashboardPath(slug, "/agencies")}">${csrfField(me)}
<div><label for="grant-agency">Agency</label><input id="grant-agency" name="agencySlug" required maxlength="80" autocomplete="off" value="${escapeHtml(forms.agencySlug)}"${grantInvalid}>
<span class="hint">The agency's short name, as in the address of its page (/dashboard/agency/<em>name</em>): ask the agency for it.</span></div>
<button type="submit">Grant access</button></form></section>`;
}
