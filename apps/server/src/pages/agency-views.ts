import { escapeHtml } from "../html";
import { csrfField, timeText, usageText, type AccountKey, type Me } from "./account-parts";
import type { Caller } from "./errors";

/**
 * The HTML of the agency pages (agency-pages.ts has their handlers): the dashboard's Agencies
 * section, and /dashboard/agency/{agencySlug}. What a person may do there is the procedures'
 * answer; the page only leaves out the forms an agency member (not an owner) would be refused.
 */

export type AgencyOverview = Awaited<ReturnType<Caller["agency"]["overview"]>>;
export type AgencyRef = Awaited<ReturnType<Caller["account"]["agencies"]["list"]>>[number];
type AgencyBusiness = AgencyOverview["businesses"][number];
type AgencyMember = AgencyOverview["members"][number];

/** The agency's page, or one of its form targets ("/members", "/keys/revoke", ...). */
export function agencyPath(agencySlug: string, step = ""): string {
  return `/dashboard/agency/${encodeURIComponent(agencySlug)}${step}`;
}

const roleText = (role: string) => (role === "owner" ? "Owner" : "Member");

/** The dashboard's Agencies section: the person's agencies, and a form to create one. */
export function agenciesSection(agencies: AgencyRef[], me: Me): string {
  const list =
    agencies.length === 0
      ? "<p>You are not part of any agency yet. An agency manages the listings of the businesses whose owners grant it access.</p>"
      : `<ul>${agencies
          .map((agency) => `<li><a href="${agencyPath(agency.slug)}">${escapeHtml(agency.name)}</a> <span class="hint">(${roleText(agency.role)})</span></li>`)
          .join("")}</ul>`;
  return `<section aria-labelledby="agencies"><h2 id="agencies">Agencies</h2>${list}
<form class="stack" method="post" action="/dashboard/agencies">${csrfField(me)}
<div><label for="agency-name">Agency name</label><input id="agency-name" name="name" required minlength="2" maxlength="100" aria-describedby="agency-name-help">
<span id="agency-name-help" class="hint">You become its first owner; invite the others from its page.</span></div>
<button type="submit">Create agency</button></form></section>`;
}

function businessItem(business: AgencyBusiness): string {
  return `<li><h3><a href="/dashboard/business/${encodeURIComponent(business.slug)}">${escapeHtml(business.name)}</a></h3>
<p class="hint">${escapeHtml(business.city)}</p><dl class="facts">
<dt>Verified</dt><dd>${business.verified ? "Owner-verified" : "Not verified"}</dd>
<dt>Stale facts</dt><dd>${escapeHtml(business.staleFacts)}</dd>
<dt>Visibility score</dt><dd>${escapeHtml(business.visibilityScore)} of 100</dd>
<dt>New leads</dt><dd>${escapeHtml(business.newLeads)}</dd>
<dt>Open corrections</dt><dd>${escapeHtml(business.openCorrections)}</dd></dl></li>`;
}

function businessesSection(overview: AgencyOverview): string {
  const body =
    overview.businesses.length === 0
      ? "<p>No business has granted this agency access yet. An owner grants it from their business's dashboard, with this agency's name.</p>"
      : `<ul class="keys">${overview.businesses.map(businessItem).join("")}</ul>`;
  return `<section aria-labelledby="agency-businesses"><h2 id="agency-businesses">Businesses</h2>
<p class="hint">The visibility score is internal: it is shown here and on each business's own dashboard only.</p>${body}</section>`;
}

function memberItem(overview: AgencyOverview, member: AgencyMember, me: Me): string {
  const remove =
    overview.agency.role === "owner"
      ? `<form class="inline-form" method="post" action="${agencyPath(overview.agency.slug, "/members/remove")}">${csrfField(me)}<input type="hidden" name="email" value="${escapeHtml(member.email)}"><button type="submit" class="danger" aria-label="Remove ${escapeHtml(member.email)}">Remove</button></form>`
      : "";
  return `<li><p class="agent">${escapeHtml(member.email)}${member.email === me.email ? " (you)" : ""}</p><dl class="facts">
<dt>Role</dt><dd>${roleText(member.role)}</dd><dt>Added</dt><dd>${timeText(member.addedAt)}</dd></dl>${remove}</li>`;
}

export interface FormError {
  message: string;
  value: string;
}

function inviteForm(overview: AgencyOverview, me: Me, error?: FormError): string {
  const message = error ? `<p id="invite-email-error" class="notice error">${escapeHtml(error.message)}</p>` : "";
  return `<h3 id="invite-heading">Invite a member</h3>${message}
<form class="stack" method="post" action="${agencyPath(overview.agency.slug, "/members")}" aria-labelledby="invite-heading">${csrfField(me)}
<div><label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required maxlength="254" autocomplete="off" aria-describedby="invite-email-help${error ? " invite-email-error" : ""}"${error ? ' aria-invalid="true"' : ""} value="${escapeHtml(error?.value)}">
<span id="invite-email-help" class="hint">We mail them a link to this page; they sign in with this address.</span></div>
<div><label for="invite-role">Role</label><select id="invite-role" name="role"><option value="member">Member: sees and manages the agency's businesses</option><option value="owner">Owner: also members, keys and the plan</option></select></div>
<button type="submit">Invite</button></form>`;
}

function membersSection(overview: AgencyOverview, me: Me, inviteError?: FormError): string {
  const items = overview.members.map((member) => memberItem(overview, member, me)).join("");
  return `<section aria-labelledby="agency-members"><h2 id="agency-members">Members</h2><ul class="keys">${items}</ul>
${overview.agency.role === "owner" ? inviteForm(overview, me, inviteError) : ""}</section>`;
}

function keyItem(agencySlug: string, key: AccountKey, me: Me): string {
  return `<li><h3>${escapeHtml(key.label)}</h3><dl class="facts">
<dt>Starts with</dt><dd><code>${escapeHtml(key.visiblePrefix)}</code></dd>
<dt>Created</dt><dd>${timeText(key.createdAt)}</dd>
<dt>Last used</dt><dd>${timeText(key.lastUsedAt)}</dd>
<dt>Use</dt><dd class="usage">${escapeHtml(usageText(key))}</dd></dl>
<form class="inline-form" method="post" action="${agencyPath(agencySlug, "/keys/revoke")}">${csrfField(me)}<input type="hidden" name="id" value="${escapeHtml(key.id)}"><button type="submit" class="danger">Revoke</button></form></li>`;
}

export function newKeyBox(key: string): string {
  return `<section class="new-key" aria-labelledby="new-key-heading"><h2 id="new-key-heading">The agency's new key</h2>
<p><strong>Copy it now: it is shown this once and never again.</strong> Only its hash is kept; if you lose it, revoke it and create another.</p>
<p><code id="new-key-value">${escapeHtml(key)}</code></p>
<p class="hint">Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p></section>`;
}

function keysSection(overview: AgencyOverview, keys: AccountKey[], me: Me, createError?: FormError): string {
  const slug = overview.agency.slug;
  const list =
    keys.length === 0 ? "<p>The agency has no developer keys yet.</p>" : `<ul class="keys">${keys.map((key) => keyItem(slug, key, me)).join("")}</ul>`;
  const message = createError ? `<p id="agency-key-error" class="notice error">${escapeHtml(createError.message)}</p>` : "";
  return `<section aria-labelledby="agency-keys"><h2 id="agency-keys">Developer keys</h2>
<p>Keys the agency holds for its own programs, under the agency's plan.</p>${list}
<h3 id="agency-key-form">Create a key</h3>${message}<form class="stack" method="post" action="${agencyPath(slug, "/keys")}" aria-labelledby="agency-key-form">${csrfField(me)}
<div><label for="agency-key-label">Label</label><input id="agency-key-label" name="label" required maxlength="100" aria-describedby="agency-key-label-help${createError ? " agency-key-error" : ""}"${createError ? ' aria-invalid="true"' : ""} value="${escapeHtml(createError?.value)}">
<span id="agency-key-label-help" class="hint">A name to recognise the key by, such as the program that uses it.</span></div>
<button type="submit">Create key</button></form></section>`;
}

export interface PlanOffer {
  /** Set only when a payment provider takes checkouts here. */
  price: string | null;
}

function planSection(overview: AgencyOverview, me: Me, offer: PlanOffer): string {
  const plan = overview.plan
    ? `<p><strong>${escapeHtml(overview.plan.name)}</strong> until ${timeText(overview.plan.activeUntil)}.</p>`
    : "<p><strong>Trial</strong> (no plan): the agency's keys have the trial's monthly requests.</p>";
  const buy = offer.price
    ? `<form class="inline-form" method="post" action="${agencyPath(overview.agency.slug, "/plan")}">${csrfField(me)}<button type="submit">${overview.plan ? "Renew the developer plan" : "Buy the developer plan"} (${escapeHtml(offer.price)})</button></form>`
    : "<p>Plans are not sold online here: an operator grants them.</p>";
  return `<section aria-labelledby="agency-plan"><h2 id="agency-plan">Plan</h2>${plan}${buy}</section>`;
}

export interface AgencyView {
  me: Me;
  overview: AgencyOverview;
  /** The agency's developer keys; null for a member (the procedures answer them to owners only). */
  keys: AccountKey[] | null;
  offer: PlanOffer;
  notice?: string;
  newKey?: string;
  inviteError?: FormError;
  keyError?: FormError;
}

export function agencyMain(view: AgencyView): string {
  const { me, overview } = view;
  const notice = view.notice ? `<p class="notice" role="status">${escapeHtml(view.notice)}</p>` : "";
  const owners =
    view.keys === null
      ? "<p>Members, keys and the plan are managed by the agency's owners.</p>"
      : `${view.newKey ? newKeyBox(view.newKey) : ""}${keysSection(overview, view.keys, me, view.keyError)}${planSection(overview, me, view.offer)}`;
  return `<h1>${escapeHtml(overview.agency.name)}</h1>${notice}
<p>You are ${overview.agency.role === "owner" ? "an owner" : "a member"} of this agency. <a href="/dashboard">Your dashboard</a>.</p>
${businessesSection(overview)}${membersSection(overview, me, view.inviteError)}${owners}`;
}
