import { HOURS_AS_WRITTEN } from "@directory/api/schemas";
import { escapeHtml } from "../html";
import type { Caller } from "./errors";
import { nextChangeText } from "./layout";

type Hours = Awaited<ReturnType<Caller["pages"]["businessHours"]>>;
type Profile = Awaited<ReturnType<Caller["entities"]["getEntityProfile"]>>;

/** "Open now, closes today 18:00": said in words, with when it changes in the business's own time. */
function stateLine(hours: Hours): string {
  if (hours.openNow === null) return "";
  const state = hours.openNow ? "Open now" : "Closed now";
  const change = hours.nextChange
    ? `, ${nextChangeText(hours.nextChange)} (local time)`
    : hours.openNow
      ? ": open 24 hours, every day"
      : ": no opening hours in the week";
  return `<p class="hours-state" role="status"><strong>${state}</strong>${escapeHtml(change)}</p>`;
}

/** Hours kept only as text: given as written, and said to be the source's wording, not the directory's reading. */
function asWrittenLine(text: string): string {
  return `<p class="hours-as-written">${escapeHtml(HOURS_AS_WRITTEN)}: <q>${escapeHtml(text)}</q></p>`;
}

/**
 * The week in the business's local time, today marked in words and with aria-current (not by
 * colour alone), and whether it is open now. Without the hours view (it failed), the profile's own
 * list of ranges. Without structured hours, the source's own text when there is one.
 */
export function hoursSection(hours: Hours | null, contact: Pick<Profile["contact"], "openingHours" | "openingHoursText">, city: string): string {
  const unknown = contact.openingHoursText ? asWrittenLine(contact.openingHoursText) : "<p>Not known</p>";
  if (!hours) {
    const items = contact.openingHours.map((h) => `<li>${escapeHtml(h.days.join(", "))}: ${escapeHtml(h.opens)}–${escapeHtml(h.closes)}</li>`).join("");
    return items ? `<ul>${items}</ul>` : unknown;
  }
  if (!hours.hoursKnown || hours.week.length === 0) return unknown;
  const zone = hours.timeZone ? ` (${hours.timeZone})` : "";
  const rows = hours.week
    .map((day) => {
      const today = day.day === hours.today;
      return `<tr${today ? ' class="today" aria-current="date"' : ""}><th scope="row">${escapeHtml(day.day)}${today ? ' <span class="today-mark">(today)</span>' : ""}</th><td>${escapeHtml(day.hours.replace(/-/g, "–"))}</td></tr>`;
    })
    .join("");
  return `${stateLine(hours)}<table class="hours"><caption class="muted">Local time in ${escapeHtml(city)}${escapeHtml(zone)}</caption><thead><tr><th scope="col">Day</th><th scope="col">Hours</th></tr></thead><tbody>${rows}</tbody></table>`;
}
