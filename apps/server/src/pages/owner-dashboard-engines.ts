import { escapeHtml } from "../html";
import { csrfField, timeText, type Me } from "./account-parts";
import type { Caller } from "./errors";
import type { Citations } from "./owner-dashboard-chart";

/**
 * The owner dashboard's AI engines: whether the service runs checks of its own (owner.citations'
 * engines), the recheck form (owner.requestCitationRecheck), and for each engine and model its
 * summary and weeks (owner.visibility's byEngine) and its recent checks (owner.citations' checks),
 * then the method as the procedures serve it. Everything shown is as the procedures answered.
 */

type Visibility = Awaited<ReturnType<Caller["owner"]["visibility"]>>;
type EngineSummary = Visibility["byEngine"][number];

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;
const engineLabel = (row: { engine: string; model: string | null }) => (row.model ? `${row.engine} (${row.model})` : row.engine);
/** The engine's id in the page, for its heading's anchor. */
const anchorOf = (row: { engine: string; model: string | null }) => `engine-${`${row.engine}-${row.model ?? ""}`.replace(/[^A-Za-z0-9_-]+/g, "-")}`;

/** Recent checks shown per engine: enough to read the latest days without a long page. */
const RECENT_CHECKS_PER_ENGINE = 10;

/** Cited sources shown per check; the rest are counted. */
const SOURCES_SHOWN = 3;

/** A source's site, as a link reads it; the address itself should it not parse. */
function siteOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** The sources an engine cited for a check, by their site, linked (they are third-party addresses). */
function citedSources(sources: readonly string[]): string {
  if (sources.length === 0) return "—";
  const links = sources.slice(0, SOURCES_SHOWN).map((url) => `<a href="${escapeHtml(url)}" rel="nofollow noopener noreferrer">${escapeHtml(siteOf(url))}</a>`);
  const more = sources.length > SOURCES_SHOWN ? ` and ${sources.length - SOURCES_SHOWN} more` : "";
  return `${links.join(", ")}${more}`;
}

function recentChecks(summary: EngineSummary, checks: Citations["checks"]): string {
  const own = checks.filter((check) => check.engine === summary.engine && check.model === summary.model).slice(0, RECENT_CHECKS_PER_ENGINE);
  if (own.length === 0) return "<p>No recent check of this engine among the latest shown.</p>";
  const rows = own
    .map(
      (check) =>
        `<tr><td>${escapeHtml(check.query)}</td><td>${timeText(check.checkedAt)}</td><td>${check.mentioned ? "Yes" : "No"}</td><td>${check.position ?? "—"}</td><td>${citedSources(check.sources)}</td></tr>`,
    )
    .join("");
  return `<table class="engine-checks"><caption class="muted">Recent checks, newest first</caption>
<thead><tr><th scope="col">Question</th><th scope="col">Checked</th><th scope="col">Mentioned</th><th scope="col">Position</th><th scope="col">Sources cited</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function engineWeeks(summary: EngineSummary): string {
  const rows = summary.weeks
    .map((week) => `<tr class="engine-week"><th scope="row">${escapeHtml(week.week)}</th><td>${week.checks}</td><td>${week.mentioned}</td></tr>`)
    .join("");
  return `<table class="weeks engine-weeks"><caption class="muted">Citations over time: mentions by week (weeks start on Monday, UTC)</caption>
<thead><tr><th scope="col">Week of</th><th scope="col">Checks</th><th scope="col">Mentioned</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function engineArticle(summary: EngineSummary, checks: Citations["checks"]): string {
  const id = anchorOf(summary);
  const average = summary.averagePosition === null ? "never named" : `${summary.averagePosition} on average where named`;
  const latest = summary.latestCheck ? `${timeText(summary.latestCheck.checkedAt)}: “${escapeHtml(summary.latestCheck.query)}”` : "none";
  return `<article class="engine" aria-labelledby="${id}"><h3 id="${id}">${escapeHtml(engineLabel(summary))}</h3>
<dl class="facts"><dt>Mentioned</dt><dd><strong>${percent(summary.rate)}</strong>: ${summary.mentioned} of ${summary.checks} checks</dd>
<dt>Position</dt><dd>${escapeHtml(average)}</dd><dt>Latest check</dt><dd>${latest}</dd></dl>
${engineWeeks(summary)}
${recentChecks(summary, checks)}</article>`;
}

function recheckForm(slug: string, me: Me, citations: Citations): string {
  if (!citations.engines.configured) return "";
  return `<form class="inline-form" method="post" action="/dashboard/business/${encodeURIComponent(slug)}/citations/recheck">${csrfField(me)}<button type="submit">Recheck now</button></form>
<p class="hint">${escapeHtml(citations.method.recheck)}</p>`;
}

function methodDetails(citations: Citations): string {
  const { method } = citations;
  const parts: [string, string][] = [
    ["Questions", method.questions],
    ["Schedule", method.schedule],
    ["Recheck", method.recheck],
    ["Mentions", method.mentions],
    ["Score", method.score],
  ];
  return `<details><summary>How the checks are made and scored</summary><dl class="facts">${parts
    .map(([name, text]) => `<dt>${name}</dt><dd>${escapeHtml(text)}</dd>`)
    .join("")}</dl></details>`;
}

/** The section: the engines' status and the recheck, each engine's results over the period, the method. */
export function enginesSection(slug: string, me: Me, visibility: Visibility, citations: Citations, notice: string): string {
  const status = citations.engines.configured
    ? `<p>${escapeHtml(citations.engines.note)}</p>`
    : `<p class="notice" role="status" id="no-engine">${escapeHtml(citations.engines.note)}</p>`;
  const engines =
    visibility.byEngine.length === 0
      ? `<p>No check from ${timeText(visibility.since)} to ${timeText(visibility.until)}.</p>`
      : visibility.byEngine.map((summary) => engineArticle(summary, citations.checks)).join("\n");
  return `<section aria-labelledby="engines"><h2 id="engines">AI engines</h2>${notice}
${status}${recheckForm(slug, me, citations)}
<p>Each engine's checks from ${timeText(visibility.since)} to ${timeText(visibility.until)}: how often its answers named the business, where, and the latest questions.</p>
${engines}
${methodDetails(citations)}</section>`;
}
