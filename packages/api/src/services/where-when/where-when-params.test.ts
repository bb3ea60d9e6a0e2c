import { z } from "zod";
import { describe, expect, it } from "vitest";
import type { DomainError } from "../../errors";
import { checkNearParameters, NEAR_RADIUS_DEFAULT_KM, NEAR_RADIUS_MAX_KM, requestedInstant, readWhereWhen, whereWhenInput } from "./where-when-params";

const Input = z.object(whereWhenInput);
/** The parameters zod's refusal names (its issue paths' first element), as the 400 names them. */
const refused = (input: unknown) => {
  const result = Input.safeParse(input);
  return result.success ? [] : [...new Set(result.error.issues.map((issue) => String(issue.path[0])))];
};

describe("near, radiusKm, openAt, openNow", () => {
  it("takes near as 'lat,lng' (REST) or as { lat, lng } (typed doors)", () => {
    expect(Input.parse({ near: "52.5200,13.4050" })).toEqual({ near: { lat: 52.52, lng: 13.405 } });
    expect(Input.parse({ near: " -33.86 , 151.2 " }).near).toEqual({ lat: -33.86, lng: 151.2 });
    expect(Input.parse({ near: { lat: 0, lng: -180 } }).near).toEqual({ lat: 0, lng: -180 });
  });

  it("refuses a malformed or out-of-range point, naming near (near.lat / near.lng for a coordinate out of range)", () => {
    for (const near of ["52.52", "52.52;13.4", "north,east", "91,0", "0,180.5", "1e3,2", { lat: 1 }, 5])
      expect(refused({ near }), JSON.stringify(near)).toEqual(["near"]);
  });

  it("radiusKm: default 5 (with near), above 0, at most 50", () => {
    expect(NEAR_RADIUS_DEFAULT_KM).toBe(5);
    expect(readWhereWhen({ near: { lat: 1, lng: 2 } }).near).toEqual({ point: { lat: 1, lng: 2 }, radiusKm: NEAR_RADIUS_DEFAULT_KM });
    expect(readWhereWhen({ near: { lat: 1, lng: 2 }, radiusKm: 0.5 }).near?.radiusKm).toBe(0.5);
    expect(readWhereWhen({})).toEqual({ at: null, openKey: null, near: null });
    expect(() => readWhereWhen({ radiusKm: 2 })).toThrow(/Invalid parameter radiusKm/);
    expect(() => readWhereWhen({ sort: "distance" })).toThrow(/Invalid parameter sort/);
    const now = () => new Date("2026-01-01T00:00:00Z");
    expect(readWhereWhen({ openNow: true }, now)).toMatchObject({ at: now(), openKey: "now" });
    expect(readWhereWhen({ openAt: "2026-05-10T09:30:00+02:00", openNow: false }, now).openKey).toBe("2026-05-10T09:30:00+02:00");
    expect(NEAR_RADIUS_MAX_KM).toBe(50);
    expect(Input.parse({ radiusKm: 50 }).radiusKm).toBe(50);
    for (const radiusKm of [0, -1, 50.1, "x"]) expect(refused({ radiusKm }), String(radiusKm)).toEqual(["radiusKm"]);
  });

  it("openAt: ISO 8601 with Z or an offset; openNow: a boolean or true/false", () => {
    expect(Input.parse({ openAt: "2026-05-10T09:30:00+02:00", openNow: "true" })).toMatchObject({ openAt: "2026-05-10T09:30:00+02:00", openNow: true });
    expect(Input.parse({ openNow: "false" }).openNow).toBe(false);
    for (const openAt of ["2026-05-10T09:30:00", "2026-05-10", "tomorrow", "2026-13-10T09:30:00Z"]) expect(refused({ openAt }), openAt).toEqual(["openAt"]);
    for (const openNow of ["yes", "1", 1]) expect(refused({ openNow }), String(openNow)).toEqual(["openNow"]);
  });

  it("the instant: openAt wins, openNow is the server clock, neither is none", () => {
    const now = () => new Date("2026-01-01T00:00:00Z");
    expect(requestedInstant({ openAt: "2026-05-10T09:30:00+02:00", openNow: true }, now)?.toISOString()).toBe("2026-05-10T07:30:00.000Z");
    expect(requestedInstant({ openNow: true }, now)?.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(requestedInstant({}, now)).toBeNull();
  });

  it("sort=distance and radiusKm need near: a 400 naming the parameter", () => {
    const error = (params: Parameters<typeof checkNearParameters>[0]) => {
      try {
        checkNearParameters(params);
        return null;
      } catch (caught) {
        return caught as DomainError;
      }
    };
    expect(error({ sort: "distance" })).toMatchObject({ code: "INVALID_INPUT", details: { parameter: "sort" }, httpStatus: 400 });
    expect(error({ radiusKmGiven: true })?.details).toEqual({ parameter: "radiusKm" });
    expect(error({ near: { lat: 1, lng: 2 }, sort: "distance", radiusKmGiven: true })).toBeNull();
  });
});
