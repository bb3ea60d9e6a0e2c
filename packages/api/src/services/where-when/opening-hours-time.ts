import type { OpeningHoursSpec } from "@directory/db";
import { DAY_MS, localIso, MINUTE_MS, MINUTES_PER_DAY, MINUTES_PER_WEEK, wallClockOf, weekMinuteOfWallClock, zoneWindow } from "./local-time";
import { DAY_NAMES, dayRanges, isAlwaysOpen, isOpenAtWeekMinute, rangeText, weeklyIntervals, type DayName } from "./week-hours";

/*
 * Open or closed at an instant, and when that next changes, for hours kept in a city's zone.
 * Open means: the local wall clock at the instant falls in a range of the week (week-hours.ts),
 * the same test the SQL filter makes on open_week (open-filter.ts), so a listing's openNow and
 * the open filter always agree. Daylight saving follows: a closing at a local time the DST jump
 * skips happens at the jump (the wall clock leaps past it), an opening then too; in the hour a
 * fall-back repeats, the wall clock decides, as it does for the filter.
 */

/** When the state next changes: the UTC instant, the same instant as local date-time with its offset, and which way. */
export interface NextChange {
  /** ISO 8601 in UTC, "2026-03-29T01:00:00.000Z". */
  utc: string;
  /** ISO 8601 local date-time with the zone's offset then, "2026-03-29T03:00:00+02:00". */
  local: string;
  /** "opens" or "closes" at that instant. */
  change: "opens" | "closes";
}

/** Unknown hours: neither open nor closed; a known week: open or not, and the next change (null when it never changes: 24/7, or never open). */
export type OpeningState = { hoursKnown: false; openNow: null; nextChange: null } | { hoursKnown: true; openNow: boolean; nextChange: NextChange | null };

const UNKNOWN: OpeningState = { hoursKnown: false, openNow: null, nextChange: null };
/** A week plus a day either side covers any next change, a DST shift included. */
const HORIZON_MS = 9 * DAY_MS;

/**
 * The business's state at `at` in `timeZone` (its city's zone): openNow, and nextChange, the
 * first later instant at which it opens or closes. Candidates are the instants at which the wall
 * clock shows a range's start or end (each mapped through every offset the zone has in the
 * coming days) and the zone's offset changes; the first one with the other state is the change.
 * The zone's offsets come from a per-zone, per-day cache (zoneWindow), so a business costs no
 * Intl call once its city's zone has been read that day.
 */
export function openingState(hours: readonly OpeningHoursSpec[], timeZone: string, at: Date): OpeningState {
  const intervals = weeklyIntervals(hours);
  if (!intervals) return UNKNOWN;
  const now = Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS;
  const zone = zoneWindow(timeZone, now);
  const wallOf = (instant: number) => instant + zone.offsetAt(instant) * MINUTE_MS;
  const openAt = (instant: number) => isOpenAtWeekMinute(intervals, weekMinuteOfWallClock(wallOf(instant)));
  const wallNow = wallOf(now);
  const openNow = isOpenAtWeekMinute(intervals, weekMinuteOfWallClock(wallNow));
  if (intervals.length === 0 || isAlwaysOpen(intervals)) return { hoursKnown: true, openNow, nextChange: null };
  const transitions = zone.transitions.filter((t) => t.instant > now && t.instant <= now + HORIZON_MS);
  const offsets = new Set([zone.offsetAt(now), ...transitions.flatMap((t) => [t.offsetBefore, t.offsetAfter])]);
  // Wall-clock boundaries from the start of this local week to past the horizon.
  const weekStart = wallNow - weekMinuteOfWallClock(wallNow) * MINUTE_MS;
  const boundaries = [...new Set(intervals.flatMap(([start, end]) => [start, end % MINUTES_PER_WEEK]))];
  const candidates = transitions.map((t) => t.instant);
  for (let week = 0; week <= 2; week++) {
    for (const minute of boundaries) {
      const wall = weekStart + (week * MINUTES_PER_WEEK + minute) * MINUTE_MS;
      for (const offset of offsets) {
        const instant = wall - offset * MINUTE_MS;
        if (instant > now && instant <= now + HORIZON_MS) candidates.push(instant);
      }
    }
  }
  candidates.sort((a, b) => a - b);
  for (const instant of new Set(candidates)) {
    const state = openAt(instant);
    if (state === openNow) continue;
    return {
      hoursKnown: true,
      openNow,
      nextChange: { utc: new Date(instant).toISOString(), local: localIso(wallOf(instant), zone.offsetAt(instant)), change: state ? "opens" : "closes" },
    };
  }
  return { hoursKnown: true, openNow, nextChange: null };
}

/** Today's hours in the zone: the local day and the ranges that open on it (a bar's 18:00-02:00 belongs to the day it opens). */
export interface TodaysHours {
  day: DayName;
  /** "09:00-18:00", several joined by ","; "closed" on a closed day; "24 hours" when open all day. */
  hours: string;
}

/** Today's hours for the business at `at`, or null when no hours are known. */
export function todaysHours(hours: readonly OpeningHoursSpec[], timeZone: string, at: Date): TodaysHours | null {
  if (hours.length === 0) return null;
  const dayIndex = Math.floor(weekMinuteOfWallClock(wallClockOf(at, timeZone)) / MINUTES_PER_DAY);
  const ranges = dayRanges(hours)[dayIndex] ?? [];
  const allDay = ranges.some(([opens, closes]) => opens === 0 && closes >= MINUTES_PER_DAY);
  return { day: DAY_NAMES[dayIndex]!, hours: allDay ? "24 hours" : ranges.length === 0 ? "closed" : ranges.map(rangeText).join(",") };
}

/**
 * The hours part of a listing's text line: "Today (Tuesday) 09:00-18:00, open now until 18:00",
 * "Today (Sunday) closed, opens Monday 09:00", "Open 24/7". Null when no hours are known.
 */
export function todaysHoursLine(hours: readonly OpeningHoursSpec[], timeZone: string, at: Date): string | null {
  const today = todaysHours(hours, timeZone, at);
  const state = openingState(hours, timeZone, at);
  if (!today || !state.hoursKnown) return null;
  if (state.openNow && !state.nextChange) return "Open 24/7";
  const head = `Today (${today.day}) ${today.hours}`;
  if (!state.nextChange) return `${head}, ${state.openNow ? "open now" : "closed now"}`;
  const localClock = state.nextChange.local.slice(11, 16);
  const changeDay = DAY_NAMES[Math.floor(weekMinuteOfWallClock(wallClockOf(new Date(state.nextChange.utc), timeZone)) / MINUTES_PER_DAY)]!;
  const when = changeDay === today.day && new Date(state.nextChange.utc).getTime() - at.getTime() < DAY_MS ? localClock : `${changeDay} ${localClock}`;
  return state.openNow ? `${head}, open now until ${when}` : `${head}, closed now, opens ${when}`;
}
