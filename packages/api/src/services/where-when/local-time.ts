/*
 * Wall-clock time in an IANA zone through Intl (the ICU Node ships with): no date library. Local
 * times travel as "fake UTC" epoch milliseconds (the wall clock read as if it were UTC), so day
 * and minute arithmetic on them is plain arithmetic and never meets a DST gap.
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
export const MINUTES_PER_DAY = 1_440;
export const MINUTES_PER_WEEK = 10_080;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      ...{ year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" },
    });
    // Zones are few (one per city, a few hundred at most): the cache stays small.
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock at `instant` in the zone, as fake-UTC epoch milliseconds (whole seconds). */
export function wallClockOf(instant: Date | number, timeZone: string): number {
  const parts = formatterFor(timeZone).formatToParts(instant);
  const field = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value);
  return Date.UTC(field("year"), field("month") - 1, field("day"), field("hour"), field("minute"), field("second"));
}

/** The zone's offset from UTC at `instant`, in minutes (Berlin in summer: 120). */
export function offsetMinutesAt(instant: Date | number, timeZone: string): number {
  const ms = typeof instant === "number" ? instant : instant.getTime();
  const whole = Math.floor(ms / 1_000) * 1_000;
  return Math.round((wallClockOf(whole, timeZone) - whole) / MINUTE_MS);
}

/** Monday 00:00 = 0 ... Sunday 23:59 = 10079, of a fake-UTC wall clock. */
export function weekMinuteOfWallClock(wallClock: number): number {
  const weekday = (new Date(wallClock).getUTCDay() + 6) % 7;
  return weekday * MINUTES_PER_DAY + Math.floor((((wallClock % DAY_MS) + DAY_MS) % DAY_MS) / MINUTE_MS);
}

/** The local minute of the week at `instant` in the zone: what opening hours are compared with. */
export function localWeekMinute(instant: Date | number, timeZone: string): number {
  return weekMinuteOfWallClock(wallClockOf(instant, timeZone));
}

/** "2026-03-29T03:00:00+02:00": the local date-time at `instant` with the zone's offset then. */
export function localIsoString(instant: Date | number, timeZone: string): string {
  const ms = typeof instant === "number" ? instant : instant.getTime();
  const offset = offsetMinutesAt(ms, timeZone);
  return localIso(ms + offset * MINUTE_MS, offset);
}

/** A fake-UTC wall clock and its offset as ISO 8601 with the offset. */
export function localIso(wallClock: number, offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${new Date(wallClock).toISOString().slice(0, 19)}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** A change of the zone's offset: at `instant` (epoch ms, to the minute) the offset becomes `offsetAfter`. */
export interface OffsetTransition {
  instant: number;
  offsetBefore: number;
  offsetAfter: number;
}

/**
 * The offset changes (DST starts and ends) between two instants, each to the minute. Offsets are
 * sampled daily (no zone changes its offset twice within a day) and each change found is then
 * located by bisection: ~20 Intl calls for a week.
 */
export function offsetTransitions(timeZone: string, from: number, to: number): OffsetTransition[] {
  const transitions: OffsetTransition[] = [];
  // Offsets change on whole minutes: bisect over whole minutes.
  let previous = Math.floor(from / MINUTE_MS) * MINUTE_MS;
  let previousOffset = offsetMinutesAt(previous, timeZone);
  for (let at = Math.min(previous + DAY_MS, to); previous < to; at = Math.min(at + DAY_MS, to)) {
    const offset = offsetMinutesAt(at, timeZone);
    if (offset !== previousOffset) {
      // Bisect to the first minute with the new offset.
      let low = previous;
      let high = at;
      while (high - low > MINUTE_MS) {
        const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
        if (offsetMinutesAt(middle, timeZone) === previousOffset) low = middle;
        else high = middle;
      }
      transitions.push({ instant: high, offsetBefore: previousOffset, offsetAfter: offset });
    }
    previous = at;
    previousOffset = offset;
  }
  return transitions;
}

/** A zone's offsets over a span of days: offsetAt() without Intl, for many businesses in one zone. */
export interface ZoneWindow {
  from: number;
  to: number;
  transitions: readonly OffsetTransition[];
  /** The offset in minutes at an instant inside [from, to]. */
  offsetAt(instant: number): number;
}

const WINDOW_DAYS = 12;
const windows = new Map<string, ZoneWindow>();
/** Zones times windows in use at once: a few hundred zones, one or two days each. */
const MAX_WINDOWS = 2_000;

/**
 * The zone's offsets from the UTC day before `instant` to WINDOW_DAYS later, computed once per
 * zone and day and cached: a page of listings in one city costs the Intl work once, not per
 * business (measured: ~250 µs a business uncached, a few µs cached).
 */
export function zoneWindow(timeZone: string, instant: number): ZoneWindow {
  const from = Math.floor(instant / DAY_MS) * DAY_MS - DAY_MS;
  const key = `${timeZone}|${from}`;
  const cached = windows.get(key);
  if (cached) return cached;
  const to = from + WINDOW_DAYS * DAY_MS;
  const transitions = offsetTransitions(timeZone, from, to);
  const base = offsetMinutesAt(from, timeZone);
  const window: ZoneWindow = {
    from,
    to,
    transitions,
    offsetAt: (at) => {
      let offset = base;
      for (const transition of transitions) if (transition.instant <= at) offset = transition.offsetAfter;
      return offset;
    },
  };
  if (windows.size >= MAX_WINDOWS) windows.clear();
  windows.set(key, window);
  return window;
}
