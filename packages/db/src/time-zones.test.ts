import { describe, expect, it } from "vitest";
import { loadDemoCities } from "./seed/cities";
import { timeZoneAt } from "./time-zones";

describe("a city's time zone from its coordinates", () => {
  it("finds the zone of well-known cities", () => {
    expect(timeZoneAt(52.52, 13.405, "DE")).toBe("Europe/Berlin");
    expect(timeZoneAt(19.07, 72.87, "IN")).toBe("Asia/Kolkata");
    expect(timeZoneAt(-23.55, -46.63, "BR")).toBe("America/Sao_Paulo");
    expect(timeZoneAt(47.141, 9.521, "LI")).toBe("Europe/Vaduz");
  });

  it("the country corrects a coarse border: Sarandë is in Albania, not Greece", () => {
    expect(timeZoneAt(39.8756, 20.0053)).toBe("Europe/Athens");
    expect(timeZoneAt(39.8756, 20.0053, "AL")).toBe("Europe/Tirane");
  });

  it("gives every demo city a zone Intl knows", () => {
    const cities = loadDemoCities();
    expect(cities).toHaveLength(150);
    for (const city of cities) {
      expect(city.timeZone, city.name).toMatch(/^[A-Z][A-Za-z_]+\/[A-Za-z_/-]+$/);
      expect(() => new Intl.DateTimeFormat("en", { timeZone: city.timeZone! }), city.name).not.toThrow();
    }
    expect(cities.find((city) => city.slug === "mumbai-in")?.timeZone).toBe("Asia/Kolkata");
  });
});
