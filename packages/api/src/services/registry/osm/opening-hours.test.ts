import { describe, expect, it } from "vitest";
import { parseOpeningHours } from "./opening-hours";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];
const ALL_WEEK = [...WEEKDAYS, "Saturday", "Sunday"];

describe("parseOpeningHours", () => {
  // Real strings from the Liechtenstein and Andorra extracts, then the common forms of the wiki.
  it.each([
    ["24/7", [{ days: ALL_WEEK, opens: "00:00", closes: "23:59" }]],
    ["Mo-Fr 08:00-16:30", [{ days: WEEKDAYS, opens: "08:00", closes: "16:30" }]],
    [
      "Tu-Su 10:00-17:00; We 10:00-20:00",
      [
        { days: ["Tuesday"], opens: "10:00", closes: "17:00" },
        { days: ["Wednesday"], opens: "10:00", closes: "20:00" },
        { days: ["Thursday", "Friday", "Saturday", "Sunday"], opens: "10:00", closes: "17:00" },
      ],
    ],
    [
      "Fr 14:00-20:00; Sa, Su 14:00-18:00",
      [
        { days: ["Friday"], opens: "14:00", closes: "20:00" },
        { days: ["Saturday", "Sunday"], opens: "14:00", closes: "18:00" },
      ],
    ],
    [
      "Mo-Fr 08:00-12:00, 13:30-18:30; Sa 08:00-16:00",
      [
        { days: WEEKDAYS, opens: "08:00", closes: "12:00" },
        { days: WEEKDAYS, opens: "13:30", closes: "18:30" },
        { days: ["Saturday"], opens: "08:00", closes: "16:00" },
      ],
    ],
    [
      "Mo-Fr 08:30-20:30; Sa 09:00-19:00; Su 9:00-1:00",
      [
        { days: WEEKDAYS, opens: "08:30", closes: "20:30" },
        { days: ["Saturday"], opens: "09:00", closes: "19:00" },
        { days: ["Sunday"], opens: "09:00", closes: "01:00" },
      ],
    ],
    ["Tu-Su 11:00-24:00", [{ days: ALL_WEEK.slice(1), opens: "11:00", closes: "23:59" }]],
    [
      "Mo 09:00-17:00; Tu-Fr 09:00-17:00, 18:00-22:00; Sa 18:00-22:00",
      [
        { days: WEEKDAYS, opens: "09:00", closes: "17:00" },
        { days: ["Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"], opens: "18:00", closes: "22:00" },
      ],
    ],
    // Past midnight: opens 18:00, closes 02:00 on each of those days.
    ["Tu-Sa 18:00-02:00", [{ days: ["Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"], opens: "18:00", closes: "02:00" }]],
    // A later rule replaces the days it names.
    [
      "Mo-Sa 08:00-18:00; Sa 09:00-12:00",
      [
        { days: WEEKDAYS, opens: "08:00", closes: "18:00" },
        { days: ["Saturday"], opens: "09:00", closes: "12:00" },
      ],
    ],
    ["Mo-Su 08:00-18:00; Su off", [{ days: ALL_WEEK.slice(0, 6), opens: "08:00", closes: "18:00" }]],
    [
      "Mo-Fr 09:00-18:00; We closed",
      [
        { days: ["Monday", "Tuesday"], opens: "09:00", closes: "18:00" },
        { days: ["Thursday", "Friday"], opens: "09:00", closes: "18:00" },
      ],
    ],
    // Lists are split into runs of consecutive days, so a reader never sees Monday-Wednesday.
    [
      "Mo,We 10:00-12:00",
      [
        { days: ["Monday"], opens: "10:00", closes: "12:00" },
        { days: ["Wednesday"], opens: "10:00", closes: "12:00" },
      ],
    ],
    [
      "Mo-We,Fr 8:00-18:00",
      [
        { days: ["Monday", "Tuesday", "Wednesday"], opens: "08:00", closes: "18:00" },
        { days: ["Friday"], opens: "08:00", closes: "18:00" },
      ],
    ],
    ["mo-fr 8:00-18:00", [{ days: WEEKDAYS, opens: "08:00", closes: "18:00" }]],
    ["08:00-18:00", [{ days: ALL_WEEK, opens: "08:00", closes: "18:00" }]],
    [
      "08:00 - 12:00 , 14:00 - 18:00",
      [
        { days: ALL_WEEK, opens: "08:00", closes: "12:00" },
        { days: ALL_WEEK, opens: "14:00", closes: "18:00" },
      ],
    ],
    [
      "Fr-Mo 10:00-16:00",
      [
        { days: ["Monday"], opens: "10:00", closes: "16:00" },
        { days: ["Friday", "Saturday", "Sunday"], opens: "10:00", closes: "16:00" },
      ],
    ],
    ["Mo-Fr 09:00-18:00;", [{ days: WEEKDAYS, opens: "09:00", closes: "18:00" }]],
    ["off", []],
  ])("%s", (raw, expected) => {
    expect(parseOpeningHours(raw)).toEqual(expected);
  });

  // Forms we do not read are kept raw by the caller, never guessed.
  it.each([
    "Mo,Do,Fr 08.30-22.00;Sa 17:00-24:00;So 10:00-22:00",
    "+423 232 48 18",
    "Mo-Fr 08:00-18:00; PH off",
    "Mo-Fr 08:00-12:00; SH off",
    "Jan-Mar Mo-Fr 09:00-17:00",
    "week 1-20 Mo 10:00-12:00",
    "sunrise-sunset",
    "Mo-Fr 10:00+",
    'Mo-Fr 08:00-18:00 "by appointment"',
    "Mo-Fr 08:00-12:00 || Sa 09:00-12:00",
    "Monday-Friday 9am-5pm",
    "Mo-Fr: 08:00-18:00",
    "Mo-Fr 08:00-18:00, Sa 09:00-12:00",
    "Mo-Fr 25:00-26:00",
    "Mo-Fr 08:00-08:00",
    "Mo-Fr 8-18",
    "",
    "by appointment",
  ])("%s is not read", (raw) => {
    expect(parseOpeningHours(raw)).toBeNull();
  });
});
