import type { OpeningHoursSpec } from "../schema/businesses";
import type { Rng } from "./random";

export type HoursProfile = "office" | "clinic" | "trades" | "retail" | "restaurant" | "cafe" | "bakery" | "bar" | "gym" | "pharmacy" | "childCare" | "allDay";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];
const MON_SAT = [...WEEKDAYS, "Saturday"];
const ALL_WEEK = [...MON_SAT, "Sunday"];

type Block = readonly [days: readonly string[], opens: string, closes: string];

/** Each profile lists plausible weekly timetables; a business takes one of them. */
const TIMETABLES: Record<HoursProfile, readonly (readonly Block[])[]> = {
  office: [
    [[WEEKDAYS, "09:00", "18:00"]],
    [
      [WEEKDAYS, "09:30", "18:30"],
      [["Saturday"], "10:00", "14:00"],
    ],
    [[WEEKDAYS, "08:30", "17:30"]],
    [[MON_SAT, "10:00", "19:00"]],
  ],
  clinic: [
    [[MON_SAT, "09:00", "19:00"]],
    [
      [WEEKDAYS, "08:00", "18:00"],
      [["Saturday"], "09:00", "13:00"],
    ],
    [
      [WEEKDAYS, "10:00", "20:00"],
      [["Saturday"], "10:00", "16:00"],
    ],
    [[MON_SAT, "08:30", "17:30"]],
  ],
  trades: [
    [[MON_SAT, "08:00", "18:00"]],
    [
      [WEEKDAYS, "07:30", "17:00"],
      [["Saturday"], "08:00", "13:00"],
    ],
    [[ALL_WEEK, "08:00", "20:00"]],
  ],
  retail: [
    [
      [MON_SAT, "10:00", "20:00"],
      [["Sunday"], "11:00", "18:00"],
    ],
    [[MON_SAT, "09:00", "19:00"]],
    [[ALL_WEEK, "10:00", "21:00"]],
    [
      [WEEKDAYS, "09:30", "18:30"],
      [["Saturday"], "10:00", "17:00"],
    ],
  ],
  restaurant: [
    [[ALL_WEEK, "11:00", "23:00"]],
    [[["Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"], "12:00", "22:30"]],
    [
      [WEEKDAYS, "11:30", "22:00"],
      [["Saturday", "Sunday"], "10:00", "23:00"],
    ],
  ],
  cafe: [
    [[ALL_WEEK, "07:00", "20:00"]],
    [
      [WEEKDAYS, "07:30", "18:00"],
      [["Saturday", "Sunday"], "09:00", "17:00"],
    ],
    [[ALL_WEEK, "08:00", "22:00"]],
  ],
  bakery: [
    [
      [MON_SAT, "06:30", "19:00"],
      [["Sunday"], "07:00", "13:00"],
    ],
    [[ALL_WEEK, "07:00", "20:00"]],
  ],
  bar: [
    [[ALL_WEEK, "17:00", "01:00"]],
    [
      [["Wednesday", "Thursday", "Friday", "Saturday"], "18:00", "02:00"],
      [["Sunday"], "16:00", "23:00"],
    ],
  ],
  gym: [
    [
      [WEEKDAYS, "06:00", "22:00"],
      [["Saturday", "Sunday"], "08:00", "20:00"],
    ],
    [[ALL_WEEK, "05:30", "23:00"]],
    [[MON_SAT, "06:00", "21:00"]],
  ],
  pharmacy: [
    [[ALL_WEEK, "00:00", "23:59"]],
    [[ALL_WEEK, "08:00", "22:00"]],
    [
      [MON_SAT, "09:00", "21:00"],
      [["Sunday"], "10:00", "14:00"],
    ],
  ],
  childCare: [[[WEEKDAYS, "07:30", "18:30"]], [[WEEKDAYS, "08:00", "17:00"]]],
  allDay: [[[ALL_WEEK, "00:00", "23:59"]], [[ALL_WEEK, "00:00", "23:59"]], [[MON_SAT, "08:00", "22:00"]]],
};

export function openingHoursFor(profile: HoursProfile, rng: Rng): OpeningHoursSpec[] {
  return rng.pick(TIMETABLES[profile]).map(([days, opens, closes]) => ({ days: [...days], opens, closes }));
}
