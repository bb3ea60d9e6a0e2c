import type { OpeningHoursSpec } from "@directory/db";
import { MINUTES_PER_DAY, MINUTES_PER_WEEK } from "./local-time";

/*
 * A business's stored hours ([{days, opens, closes}], claim-values.ts) read as a week: the rules
 * every where-when answer shares, and the ones opening_hours_week() in migration 0019 applies in
 * SQL to fill businesses.open_week (open-filter.test.ts checks the two agree):
 * - a range belongs to the day it opens: "Tuesday 18:00-02:00" is open early Wednesday;
 * - a closing at or before the opening runs past midnight;
 * - a closing of 00:00 or 24:00 is the end of the day, and so is 23:59, which is how the demo
 *   seed and the OSM reader write "until midnight" and 24/7 (00:00-23:59 every day);
 * - Sunday's ranges past midnight continue on Monday.
 * No hours at all means unknown hours, never "closed".
 */

export const DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
export type DayName = (typeof DAY_NAMES)[number];
const DAY_CODES = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"] as const;
const END_OF_DAY_CLOSINGS = new Set(["00:00", "24:00", "23:59"]);

/** [start, end) in local minutes of the week, Monday 00:00 = 0, Sunday 24:00 = 10080. */
export type WeekInterval = readonly [start: number, end: number];

/** "09:30" -> 570; null for anything that is not HH:MM. */
export function clockMinutes(clock: string): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(clock);
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return Number(match[2]) < 60 && minutes <= MINUTES_PER_DAY ? minutes : null;
}

/** Minutes after the opening day's midnight at which a range closes (past 1440: the next day). */
function closingMinutes(opens: number, closes: string): number | null {
  if (END_OF_DAY_CLOSINGS.has(closes)) return MINUTES_PER_DAY;
  const minutes = clockMinutes(closes);
  if (minutes === null) return null;
  return minutes <= opens ? minutes + MINUTES_PER_DAY : minutes;
}

/** One day's ranges as minutes after that day's midnight, [opens, closes) with closes up to 2880. */
export function dayRanges(hours: readonly OpeningHoursSpec[]): [number, number][][] {
  const week: [number, number][][] = DAY_NAMES.map(() => []);
  for (const spec of hours) {
    const opens = clockMinutes(spec.opens);
    // An opening of 24:00 (claim values allow it) is the next day's midnight, as in the SQL twin.
    if (opens === null) continue;
    const closes = closingMinutes(opens, spec.closes);
    if (closes === null || closes <= opens) continue;
    for (const day of spec.days) {
      const index = DAY_NAMES.indexOf(day as DayName);
      if (index >= 0) week[index]!.push([opens, closes]);
    }
  }
  for (const ranges of week) ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return week;
}

/** The open intervals of the week, sorted and merged; null when no hours are known. */
export function weeklyIntervals(hours: readonly OpeningHoursSpec[]): WeekInterval[] | null {
  if (hours.length === 0) return null;
  const pieces: [number, number][] = [];
  dayRanges(hours).forEach((ranges, day) => {
    for (const [opens, closes] of ranges) {
      const start = day * MINUTES_PER_DAY + opens;
      const end = day * MINUTES_PER_DAY + closes;
      if (start < MINUTES_PER_WEEK) pieces.push([start, Math.min(end, MINUTES_PER_WEEK)]);
      if (end > MINUTES_PER_WEEK) pieces.push([Math.max(0, start - MINUTES_PER_WEEK), end - MINUTES_PER_WEEK]);
    }
  });
  pieces.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of pieces) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** True when the minute of the week lies in an interval. */
export function isOpenAtWeekMinute(intervals: readonly WeekInterval[], minute: number): boolean {
  return intervals.some(([start, end]) => minute >= start && minute < end);
}

/** Open around the clock every day of the week. */
export function isAlwaysOpen(intervals: readonly WeekInterval[]): boolean {
  return intervals.length === 1 && intervals[0]![0] === 0 && intervals[0]![1] === MINUTES_PER_WEEK;
}

function clock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** "18:00-02:00", "00:00-24:00": a range as OSM writes it, a closing at midnight as 24:00. */
export function rangeText([opens, closes]: readonly [number, number]): string {
  return `${clock(opens)}-${clock(closes === MINUTES_PER_DAY ? MINUTES_PER_DAY : closes % MINUTES_PER_DAY)}`;
}

/** "Mo-Fr", "Sa,Su", "Mo,We,Fr": day indexes (Monday 0) in OSM's day syntax, runs of three or more as ranges. */
function daysText(days: readonly number[]): string {
  const runs: number[][] = [];
  for (const day of days) {
    const run = runs.at(-1);
    if (run?.at(-1) === day - 1) run.push(day);
    else runs.push([day]);
  }
  return runs.map((run) => (run.length >= 3 ? `${DAY_CODES[run[0]!]}-${DAY_CODES[run.at(-1)!]}` : run.map((day) => DAY_CODES[day]).join(","))).join(",");
}

/**
 * The hours in a listing's compact form, OSM's syntax: "Mo-Fr 09:00-18:00; Sa 10:00-14:00",
 * "Tu-Sa 18:00-02:00", "24/7". Days with the same ranges share a rule; days not named are
 * closed. Null when no hours are known.
 */
export function compactOpeningHours(hours: readonly OpeningHoursSpec[]): string | null {
  if (hours.length === 0) return null;
  // Every listing carries its hours: a search's hot path must not rebuild the same week each time.
  const key = JSON.stringify(hours);
  const known = COMPACT_CACHE.get(key);
  if (known !== undefined) return known;
  if (COMPACT_CACHE.size >= COMPACT_CACHE_MAX) COMPACT_CACHE.clear();
  const compact = compactWeek(hours);
  COMPACT_CACHE.set(key, compact);
  return compact;
}

/**
 * Compact forms by their hours' JSON: few distinct weeks recur across a directory (a profile of a
 * trade, OSM's common strings), and building one costs ~25 µs against ~1 µs for the key. Bounded,
 * cleared when full.
 */
const COMPACT_CACHE = new Map<string, string | null>();
const COMPACT_CACHE_MAX = 10_000;

function compactWeek(hours: readonly OpeningHoursSpec[]): string | null {
  const intervals = weeklyIntervals(hours);
  if (!intervals) return null;
  if (isAlwaysOpen(intervals)) return "24/7";
  const rules = new Map<string, number[]>();
  dayRanges(hours).forEach((ranges, day) => {
    if (ranges.length === 0) return;
    const key = ranges.map(rangeText).join(",");
    const days = rules.get(key);
    if (days) days.push(day);
    else rules.set(key, [day]);
  });
  if (rules.size === 0) return "closed";
  return [...rules.entries()].map(([ranges, days]) => `${daysText(days)} ${ranges}`).join("; ");
}
