import { describe, expect, it } from "vitest";
import type { OpeningHoursSpec } from "@directory/db";
import { parseOpeningHours } from "../registry/osm/opening-hours";
import { localIsoString, localWeekMinute, offsetTransitions } from "./local-time";
import { openingState, todaysHours, todaysHoursLine } from "./opening-hours-time";
import { compactOpeningHours, weeklyIntervals } from "./week-hours";

const osm = (text: string): OpeningHoursSpec[] => {
  const hours = parseOpeningHours(text);
  if (!hours) throw new Error(`unparsed: ${text}`);
  return hours;
};
const at = (iso: string) => new Date(iso);

const OFFICE = osm("Mo-Fr 09:00-18:00; Sa 10:00-14:00");
const BAR = osm("Tu-Sa 18:00-02:00");

describe("open at an instant, in the business's zone", () => {
  it("a weekday morning: open, closing at 18:00 local", () => {
    // Wednesday 13 May 2026, 09:30 in Berlin (CEST, +02:00).
    expect(openingState(OFFICE, "Europe/Berlin", at("2026-05-13T07:30:00Z"))).toEqual({
      hoursKnown: true,
      openNow: true,
      nextChange: { utc: "2026-05-13T16:00:00.000Z", local: "2026-05-13T18:00:00+02:00", change: "closes" },
    });
  });

  it("a Sunday: closed, opening Monday 09:00 local", () => {
    expect(openingState(OFFICE, "Europe/Berlin", at("2026-05-17T09:00:00Z"))).toEqual({
      hoursKnown: true,
      openNow: false,
      nextChange: { utc: "2026-05-18T07:00:00.000Z", local: "2026-05-18T09:00:00+02:00", change: "opens" },
    });
  });

  it("the same local hours are other UTC instants in another zone", () => {
    // 09:30 on a Wednesday in Mumbai (IST, +05:30, no DST) is 04:00Z.
    const state = openingState(OFFICE, "Asia/Kolkata", at("2026-05-13T04:00:00Z"));
    expect(state).toMatchObject({ openNow: true, nextChange: { utc: "2026-05-13T12:30:00.000Z", local: "2026-05-13T18:00:00+05:30" } });
    expect(openingState(OFFICE, "Asia/Kolkata", at("2026-05-13T03:00:00Z")).openNow).toBe(false);
  });

  it("a bar past midnight: the range belongs to the day it opens", () => {
    const zone = "Europe/Berlin";
    // Wednesday 01:00 local: still Tuesday's night, open until 02:00.
    expect(openingState(BAR, zone, at("2026-05-12T23:00:00Z"))).toMatchObject({
      openNow: true,
      nextChange: { local: "2026-05-13T02:00:00+02:00", change: "closes" },
    });
    // Tuesday 01:00 local: Monday has no night, closed until Tuesday 18:00.
    expect(openingState(BAR, zone, at("2026-05-11T23:00:00Z"))).toMatchObject({
      openNow: false,
      nextChange: { local: "2026-05-12T18:00:00+02:00", change: "opens" },
    });
    // Sunday 01:30 local: Saturday's night; Sunday 03:00: closed.
    expect(openingState(BAR, zone, at("2026-05-16T23:30:00Z")).openNow).toBe(true);
    expect(openingState(BAR, zone, at("2026-05-17T01:00:00Z")).openNow).toBe(false);
  });

  it("24/7 is open with no next change; unknown hours are neither open nor closed", () => {
    expect(openingState(osm("24/7"), "Europe/Vaduz", at("2026-05-13T03:00:00Z"))).toEqual({ hoursKnown: true, openNow: true, nextChange: null });
    // The demo seed writes around the clock as 00:00-23:59 every day.
    const demoAllDay = [{ days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"], opens: "00:00", closes: "23:59" }];
    expect(openingState(demoAllDay, "Asia/Tokyo", at("2026-05-13T14:59:30Z"))).toEqual({ hoursKnown: true, openNow: true, nextChange: null });
    expect(openingState([], "Europe/Berlin", at("2026-05-13T07:30:00Z"))).toEqual({ hoursKnown: false, openNow: null, nextChange: null });
  });

  it("a closing of 00:00 or 24:00 is the end of the day", () => {
    const friday = [{ days: ["Friday"], opens: "18:00", closes: "00:00" }];
    expect(openingState(friday, "UTC", at("2026-05-15T23:59:00Z"))).toMatchObject({ openNow: true, nextChange: { utc: "2026-05-16T00:00:00.000Z" } });
    expect(openingState(friday, "UTC", at("2026-05-16T00:00:00Z")).openNow).toBe(false);
    expect(openingState(osm("Tu-Su 11:00-24:00"), "Europe/Vaduz", at("2026-05-13T21:30:00Z"))).toMatchObject({
      openNow: true,
      nextChange: { local: "2026-05-14T00:00:00+02:00", change: "closes" },
    });
  });
});

describe("daylight saving", () => {
  // Europe/Berlin springs forward on Sunday 29 March 2026 at 01:00Z (02:00 -> 03:00 local) and
  // falls back on Sunday 25 October 2026 at 01:00Z (03:00 -> 02:00).
  it("a city each side of the spring change: the same local hours, an hour apart in UTC", () => {
    expect(openingState(OFFICE, "Europe/Berlin", at("2026-03-27T08:30:00Z"))).toMatchObject({ openNow: true, nextChange: { utc: "2026-03-27T17:00:00.000Z" } });
    expect(openingState(OFFICE, "Europe/Berlin", at("2026-03-30T07:30:00Z"))).toMatchObject({ openNow: true, nextChange: { utc: "2026-03-30T16:00:00.000Z" } });
    // Saturday after 14:00, before the change: the next opening is Monday 09:00 CEST, after it.
    expect(openingState(OFFICE, "Europe/Berlin", at("2026-03-28T15:00:00Z")).nextChange).toEqual({
      utc: "2026-03-30T07:00:00.000Z",
      local: "2026-03-30T09:00:00+02:00",
      change: "opens",
    });
  });

  it("a closing at a local time the jump skips happens at the jump", () => {
    const lateBar = [{ days: ["Saturday"], opens: "22:00", closes: "02:30" }];
    expect(openingState(lateBar, "Europe/Berlin", at("2026-03-29T00:30:00Z"))).toEqual({
      hoursKnown: true,
      openNow: true,
      nextChange: { utc: "2026-03-29T01:00:00.000Z", local: "2026-03-29T03:00:00+02:00", change: "closes" },
    });
  });

  it("an opening at a skipped local time happens at the jump", () => {
    const early = [{ days: ["Sunday"], opens: "02:30", closes: "10:00" }];
    expect(openingState(early, "Europe/Berlin", at("2026-03-28T23:00:00Z")).nextChange).toEqual({
      utc: "2026-03-29T01:00:00.000Z",
      local: "2026-03-29T03:00:00+02:00",
      change: "opens",
    });
  });

  it("a closing after the autumn change is in the later offset", () => {
    // New York falls back on Sunday 1 November 2026 at 06:00Z (02:00 EDT -> 01:00 EST).
    const bar = osm("Sa 20:00-03:00");
    expect(openingState(bar, "America/New_York", at("2026-11-01T05:30:00Z"))).toMatchObject({
      openNow: true,
      nextChange: { utc: "2026-11-01T08:00:00.000Z", local: "2026-11-01T03:00:00-05:00", change: "closes" },
    });
  });

  it("a city with no DST keeps one offset all year", () => {
    expect(offsetTransitions("Asia/Kolkata", Date.parse("2026-01-01T00:00:00Z"), Date.parse("2026-12-31T00:00:00Z"))).toEqual([]);
    expect(offsetTransitions("Europe/Berlin", Date.parse("2026-03-25T00:00:00Z"), Date.parse("2026-04-01T00:00:00Z"))).toEqual([
      { instant: Date.parse("2026-03-29T01:00:00Z"), offsetBefore: 60, offsetAfter: 120 },
    ]);
    expect(localIsoString(at("2026-07-01T12:00:00Z"), "Asia/Kolkata")).toBe("2026-07-01T17:30:00+05:30");
    expect(localIsoString(at("2026-07-01T12:00:00Z"), "America/Sao_Paulo")).toBe("2026-07-01T09:00:00-03:00");
  });
});

describe("hours as listings show them", () => {
  it("compact, in OSM's syntax", () => {
    expect(compactOpeningHours(OFFICE)).toBe("Mo-Fr 09:00-18:00; Sa 10:00-14:00");
    expect(compactOpeningHours(BAR)).toBe("Tu-Sa 18:00-02:00");
    expect(compactOpeningHours(osm("24/7"))).toBe("24/7");
    expect(compactOpeningHours(osm("Mo-Fr 08:00-12:00, 13:30-18:30; Sa 08:00-16:00"))).toBe("Mo-Fr 08:00-12:00,13:30-18:30; Sa 08:00-16:00");
    expect(compactOpeningHours(osm("Mo,Th,Fr 08:30-22:00; Sa 17:00-24:00; Su 10:00-22:00"))).toBe("Mo,Th,Fr 08:30-22:00; Sa 17:00-24:00; Su 10:00-22:00");
    expect(compactOpeningHours([{ days: ["Saturday", "Sunday"], opens: "09:00", closes: "17:00" }])).toBe("Sa,Su 09:00-17:00");
    expect(compactOpeningHours([])).toBeNull();
  });

  it("today's hours and the text line", () => {
    expect(todaysHours(OFFICE, "Europe/Berlin", at("2026-05-13T07:30:00Z"))).toEqual({ day: "Wednesday", hours: "09:00-18:00" });
    expect(todaysHours(OFFICE, "Europe/Berlin", at("2026-05-17T09:00:00Z"))).toEqual({ day: "Sunday", hours: "closed" });
    expect(todaysHoursLine(OFFICE, "Europe/Berlin", at("2026-05-13T07:30:00Z"))).toBe("Today (Wednesday) 09:00-18:00, open now until 18:00");
    expect(todaysHoursLine(OFFICE, "Europe/Berlin", at("2026-05-17T09:00:00Z"))).toBe("Today (Sunday) closed, closed now, opens Monday 09:00");
    expect(todaysHoursLine(osm("24/7"), "Europe/Berlin", at("2026-05-17T09:00:00Z"))).toBe("Open 24/7");
    expect(todaysHoursLine([], "Europe/Berlin", at("2026-05-17T09:00:00Z"))).toBeNull();
  });

  it("the week's intervals merge a night into the next day and wrap Sunday into Monday", () => {
    expect(weeklyIntervals(osm("Su 22:00-02:00; Mo 02:00-05:00"))).toEqual([
      [0, 300],
      [9960, 10080],
    ]);
    expect(localWeekMinute(at("2026-05-17T21:59:00Z"), "Europe/Berlin")).toBe(10079);
  });
});
