import { describe, expect, it } from "vitest";
import { normalizeEmail, normalizePhone, normalizeWebsite, streetAddress, tagValue } from "./facts";

describe("OSM contact facts", () => {
  it("reads phones as E.164 in the city's country, the first of several, and refuses what does not parse", () => {
    expect(normalizePhone("+423 232 48 18", "LI")).toBe("+4232324818");
    expect(normalizePhone("232 48 18", "LI")).toBe("+4232324818");
    expect(normalizePhone("828 206", "AD")).toBe("+376828206");
    expect(tagValue({ "contact:phone": "+423 232 48 18; +423 232 48 19" }, "phone", "contact:phone")).toBe("+423 232 48 18");
    expect(normalizePhone("call us", "LI")).toBeNull();
    expect(normalizePhone("12", "LI")).toBeNull();
  });

  it("keeps http(s) websites, adds https:// to a bare domain and refuses other schemes", () => {
    expect(normalizeWebsite("http://www.lescloses.com/")).toBe("http://www.lescloses.com/");
    expect(normalizeWebsite("www.landesmuseum.li")).toBe("https://www.landesmuseum.li/");
    expect(normalizeWebsite("javascript:alert(1)")).toBeNull();
    expect(normalizeWebsite("ftp://example.com")).toBeNull();
    expect(normalizeWebsite("not a site")).toBeNull();
    expect(normalizeWebsite("localhost")).toBeNull();
  });

  it("checks an email's shape and builds the street address", () => {
    expect(normalizeEmail("mailto:info@example.li")).toBe("info@example.li");
    expect(normalizeEmail("info at example.li")).toBeNull();
    expect(streetAddress({ "addr:street": "Städtle", "addr:housenumber": "43" })).toBe("Städtle 43");
    expect(streetAddress({ "addr:place": "Malbun", "addr:housenumber": "7" })).toBe("Malbun 7");
    expect(streetAddress({ "addr:housenumber": "7" })).toBeNull();
  });
});
