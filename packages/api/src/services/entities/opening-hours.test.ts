import { describe, expect, it } from "vitest";
import { hoursAsWritten } from "./opening-hours";

const at = (iso: string) => new Date(iso);
const text = { property: "openingHoursText", value: "Mo-Fr 08:00-12:00; PH off", recordedAt: at("2026-01-01T00:00:00Z") };
const ranges = [{ days: ["Monday"], opens: "08:00", closes: "12:00" }];

describe("hours as the source wrote them", () => {
  it("are given when there are no structured hours, also beside the registry's own empty hours of the same import", () => {
    expect(hoursAsWritten([text], [])).toBe("Mo-Fr 08:00-12:00; PH off");
    expect(hoursAsWritten([text, { property: "openingHours", value: [], recordedAt: text.recordedAt }], [])).toBe("Mo-Fr 08:00-12:00; PH off");
  });

  it("give way to structured hours, and to hours an owner cleared after the text was recorded", () => {
    expect(hoursAsWritten([text], ranges)).toBeNull();
    expect(hoursAsWritten([text, { property: "openingHours", value: [], recordedAt: at("2026-02-01T00:00:00Z") }], [])).toBeNull();
    expect(hoursAsWritten([{ ...text, value: null }], [])).toBeNull();
    expect(hoursAsWritten([], [])).toBeNull();
  });
});
