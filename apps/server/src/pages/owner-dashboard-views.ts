import { escapeHtml } from "../html";
import { timeText, type Me } from "./account-parts";
import type { Caller } from "./errors";
import { citationsChart, type Citations } from "./owner-dashboard-chart";
import { enginesSection } from "./owner-dashboard-engines";
import { factsSection, type FactsForm, type Profile } from "./owner-dashboard-facts";
import {
  correctionsSection,
  keysSection,
  leadsSection,
  ownersSection,
  webhooksSection,
  type BusinessKey,
  type CoOwner,
  type Corrections,
  type GrantedAgency,
  type KeysForm,
  type Lead,
  type OwnersForms,
  type Webhooks,
} from "./owner-dashboard-lists";

/**
 * /dashboard/business/{slug}: the page a listing's managers (its owners, and members of agencies
 * they granted access) run it from. The internal scores (visibility, GEO, citation rate) are shown
 * here and nowhere else among the pages: they are the business's own.
 */

export type Overview = Awaited<ReturnType<Caller["owner"]["overview"]>>;
export type Visibility = Awaited<ReturnType<Caller["owner"]["visibility"]>>;

/** Everything the page shows, as the procedures answered. owners/agencies only for an owner. */
export interface DashboardData {
  me: Me;
  overview: Overview;
  profile: Profile | null;
  profileError: string | null;
  visibility: Visibility;
  citations: Citations;
  corrections: Corrections;
  leads: Lead[];
  keys: BusinessKey[];
  webhooks: Webhooks;
  owners: CoOwner[] | null;
  agencies: GrantedAgency[] | null;
}

export type DashboardSection = "facts" | "leads" | "keys" | "owners" | "engines" | "top";

/** What one answer adds to the page: a notice in one section, a form's refusal with what was typed, a new key. */
export interface DashboardExtras {
  notice?: { section: DashboardSection; text: string; error?: boolean };
  facts?: FactsForm;
  keys?: KeysForm;
  owners?: OwnersForms;
}

function noticeIn(extras: DashboardExtras, section: DashboardSection): string {
  const notice = extras.notice;
  if (notice?.section !== section) return "";
  return notice.error
    ? `<p class="notice error" role="alert">${escapeHtml(notice.text)}</p>`
    : `<p class="notice" role="status">${escapeHtml(notice.text)}</p>`;
}

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

function visibilitySection(visibility: Visibility, citations: Citations): string {
  const { citationRate } = visibility;
  return `<section aria-labelledby="visibility"><h2 id="visibility">Visibility</h2>
<p>Your business's own scores: they are shown to you and to no one else.</p>
<dl class="facts scores">
<dt>Visibility score</dt><dd><strong>${escapeHtml(visibility.visibilityScore)}</strong> out of 100 <span class="hint">${escapeHtml(visibility.scale.visibilityScore)}</span></dd>
<dt>GEO score</dt><dd><strong>${escapeHtml(visibility.geoScore)}</strong> out of 100 <span class="hint">${escapeHtml(visibility.scale.geoScore)}</span></dd>
<dt>Citation rate</dt><dd><strong>${percent(citationRate.rate)}</strong>: ${citationRate.mentioned} of ${citationRate.checks} AI answers named the business, from ${timeText(visibility.since)} to ${timeText(visibility.until)} <span class="hint">${escapeHtml(visibility.scale.citationRate)}</span></dd>
</dl>
<h3 id="citations">Citations over time</h3>
<p>Each check is an AI answer to a question about your city and category, or one naming the business; mentioned means the answer named it.</p>
${citationsChart(citations)}</section>`;
}

export function dashboardMain(data: DashboardData, extras: DashboardExtras = {}): string {
  const { overview, me } = data;
  const slug = overview.business.slug;
  const role = overview.role === "owner" ? "You are an owner of this listing." : "You manage this listing as a member of an agency its owners gave access.";
  const owners = data.owners && data.agencies ? ownersSection(slug, me, data.owners, data.agencies, extras.owners ?? {}, noticeIn(extras, "owners")) : "";
  return `<h1>${escapeHtml(overview.business.name)}: dashboard</h1>${noticeIn(extras, "top")}
<p>${role} Signed in as <strong>${escapeHtml(me.email)}</strong>.</p>
<nav aria-label="This dashboard"><ul class="inline">
<li><a href="#visibility">Visibility</a></li><li><a href="#engines">AI engines</a></li><li><a href="#facts">Facts</a></li><li><a href="#leads">Leads</a></li><li><a href="#corrections">Corrections</a></li><li><a href="#keys">Keys</a></li><li><a href="#webhooks">Webhooks</a></li>${owners ? '<li><a href="#owners">Owners and agencies</a></li>' : ""}
</ul></nav>
<p><a href="/business/${encodeURIComponent(slug)}">The public listing</a> · <a href="/dashboard">Your dashboard</a></p>
${visibilitySection(data.visibility, data.citations)}
${enginesSection(slug, me, data.visibility, data.citations, noticeIn(extras, "engines"))}
${factsSection(slug, data.profile, data.profileError, me, extras.facts ?? {}, noticeIn(extras, "facts"))}
${leadsSection(slug, me, data.leads, noticeIn(extras, "leads"))}
${correctionsSection(data.profile, data.corrections)}
${keysSection(slug, me, data.keys, extras.keys ?? {}, noticeIn(extras, "keys"))}
${webhooksSection(data.webhooks)}
${owners}`;
}
