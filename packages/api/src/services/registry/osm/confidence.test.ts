import { describe, expect, it } from "vitest";
import { osmConfidence } from "./confidence";

const newestEdit = new Date("2015-07-01T00:00:00Z");
const none = { hasAddress: false, hasPhone: false, hasWebsite: false, hasOpeningHours: false };

describe("osmConfidence", () => {
  it("starts at 0.7, adds 0.05 per completeness sign and takes 0.1 off edits over 5 years old", () => {
    const recent = new Date("2014-01-01T00:00:00Z");
    expect(osmConfidence({ ...none, observedAt: recent, newestEdit })).toBe(0.7);
    expect(osmConfidence({ ...none, hasAddress: true, hasPhone: true, observedAt: recent, newestEdit })).toBe(0.8);
    expect(osmConfidence({ hasAddress: true, hasPhone: true, hasWebsite: true, hasOpeningHours: true, observedAt: recent, newestEdit })).toBe(0.9);
    expect(osmConfidence({ ...none, observedAt: new Date("2009-01-01T00:00:00Z"), newestEdit })).toBe(0.6);
  });
});
