import { escapeHtml } from "../html";
import type { Caller } from "./errors";

/**
 * The owner dashboard's chart of citations over time: the checks (AI answers that concern the
 * business) and those that named it, counted by week. An inline SVG (no script, no style sheet of its
 * own: colours are SVG attributes, which the CSP allows) described for screen readers, followed by
 * the same numbers as a table, which is the chart's text alternative.
 */

export type Citations = Awaited<ReturnType<Caller["owner"]["citations"]>>;

export interface WeekCount {
  /** The Monday the week starts on (UTC), YYYY-MM-DD. */
  week: string;
  checks: number;
  mentioned: number;
}

/** The weeks to draw at most: past that the bars get too thin on a phone. */
const MAX_WEEKS = 12;
const DAY_MS = 86_400_000;

function mondayOf(iso: string): string | null {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return null;
  const day = new Date(time);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()) - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

/** The checks counted by week, oldest first, the latest MAX_WEEKS weeks that have any; weeks between them without checks count zero. */
export function citationsByWeek(checks: Citations["checks"]): WeekCount[] {
  const counts = new Map<string, WeekCount>();
  for (const check of checks) {
    const week = mondayOf(check.checkedAt);
    if (!week) continue;
    const count = counts.get(week) ?? { week, checks: 0, mentioned: 0 };
    count.checks += 1;
    if (check.mentioned) count.mentioned += 1;
    counts.set(week, count);
  }
  const weeks = [...counts.keys()].sort();
  if (weeks.length === 0) return [];
  const last = Date.parse(`${weeks.at(-1)!}T00:00:00Z`);
  const first = Math.max(Date.parse(`${weeks[0]!}T00:00:00Z`), last - (MAX_WEEKS - 1) * 7 * DAY_MS);
  const filled: WeekCount[] = [];
  for (let time = first; time <= last; time += 7 * DAY_MS) {
    const week = new Date(time).toISOString().slice(0, 10);
    filled.push(counts.get(week) ?? { week, checks: 0, mentioned: 0 });
  }
  return filled;
}

const WIDTH = 640;
const HEIGHT = 260;
const LEFT = 40;
const BOTTOM = 40;
const TOP = 30;
/** The two series differ in shade, and the legend and the table name them: never colour alone. */
const CHECKS_FILL = "#8fa9d6";
const MENTIONED_FILL = "#0b4fb3";
const TEXT_FILL = "#1b1b1b";

function svgChart(weeks: WeekCount[]): string {
  const max = Math.max(1, ...weeks.map((week) => week.checks));
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT - 10) / weeks.length;
  const barWidth = Math.max(4, Math.min(36, slot * 0.35));
  const y = (value: number) => TOP + plotHeight - (value / max) * plotHeight;
  const bars = weeks
    .map((week, index) => {
      const x = LEFT + index * slot + slot / 2;
      const label =
        index % Math.ceil(weeks.length / 6) === 0
          ? `<text x="${x}" y="${HEIGHT - BOTTOM + 18}" text-anchor="middle" font-size="12" fill="${TEXT_FILL}">${escapeHtml(week.week.slice(5))}</text>`
          : "";
      return `<rect x="${(x - barWidth).toFixed(1)}" y="${y(week.checks).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(TOP + plotHeight - y(week.checks)).toFixed(1)}" fill="${CHECKS_FILL}"/>
<rect x="${x.toFixed(1)}" y="${y(week.mentioned).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(TOP + plotHeight - y(week.mentioned)).toFixed(1)}" fill="${MENTIONED_FILL}"/>${label}`;
    })
    .join("");
  const axis = `<line x1="${LEFT}" y1="${TOP + plotHeight}" x2="${WIDTH - 5}" y2="${TOP + plotHeight}" stroke="${TEXT_FILL}"/>
<text x="${LEFT - 6}" y="${TOP + 4}" text-anchor="end" font-size="12" fill="${TEXT_FILL}">${max}</text>
<text x="${LEFT - 6}" y="${TOP + plotHeight + 4}" text-anchor="end" font-size="12" fill="${TEXT_FILL}">0</text>`;
  const legend = `<rect x="${LEFT}" y="6" width="12" height="12" fill="${CHECKS_FILL}"/><text x="${LEFT + 18}" y="16" font-size="12" fill="${TEXT_FILL}">Checks</text>
<rect x="${LEFT + 90}" y="6" width="12" height="12" fill="${MENTIONED_FILL}"/><text x="${LEFT + 108}" y="16" font-size="12" fill="${TEXT_FILL}">Mentioned</text>`;
  const total = weeks.reduce((sum, week) => sum + week.checks, 0);
  const named = weeks.reduce((sum, week) => sum + week.mentioned, 0);
  const description = `${weeks.length} weeks from ${weeks[0]!.week} to ${weeks.at(-1)!.week}: ${total} checks, ${named} of them mentioned the business. The table below gives each week.`;
  return `<svg class="chart" role="img" aria-labelledby="citations-chart-title citations-chart-desc" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg">
<title id="citations-chart-title">Citations by week: checks and mentions</title><desc id="citations-chart-desc">${escapeHtml(description)}</desc>
${legend}${axis}${bars}</svg>`;
}

function weekTable(weeks: WeekCount[]): string {
  const rows = weeks.map((week) => `<tr><th scope="row">${escapeHtml(week.week)}</th><td>${week.checks}</td><td>${week.mentioned}</td></tr>`).join("");
  return `<table class="weeks"><caption class="muted">Citations by week (weeks start on Monday, UTC)</caption>
<thead><tr><th scope="col">Week of</th><th scope="col">Checks</th><th scope="col">Mentioned</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The chart and its table, or a sentence when there is nothing to draw. */
export function citationsChart(citations: Citations): string {
  const weeks = citationsByWeek(citations.checks);
  if (weeks.length === 0) return "<p>No AI answer about your business has been checked yet.</p>";
  const shown = citations.checks.length < citations.total ? ` From the latest ${citations.checks.length} of ${citations.total} checks.` : "";
  const counted = weeks.reduce((sum, week) => sum + week.checks, 0);
  const older = citations.checks.length - counted;
  const left =
    older > 0
      ? ` <span class="older-checks">${older}</span> older ${older === 1 ? "check" : "checks"}, before the week of ${weeks[0]!.week}, ${older === 1 ? "is" : "are"} left out.`
      : "";
  const note = shown || left ? `<p class="hint">The latest ${MAX_WEEKS} weeks at most.${shown}${left}</p>` : "";
  return `<figure class="chart-figure">${svgChart(weeks)}</figure>${note}${weekTable(weeks)}`;
}
