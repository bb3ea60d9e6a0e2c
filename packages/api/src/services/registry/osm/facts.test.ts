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
    expect(streetAddress({ "addr:street": "Städtle", "addr:housenumber": "43" }, "LI")).toBe("Städtle 43");
    expect(streetAddress({ "addr:place": "Malbun", "addr:housenumber": "7" }, "LI")).toBe("Malbun 7");
    expect(streetAddress({ "addr:street": "Städtle" }, "LI")).toBe("Städtle");
    expect(streetAddress({ "addr:housenumber": "7" }, "LI")).toBeNull();
  });

  it("writes the house number where the country's custom puts it", () => {
    const fleetStreet = { "addr:street": "Fleet Street", "addr:housenumber": "1939" };
    for (const country of ["US", "CA", "GB", "IE", "AU", "NZ", "FR", "LU", "IN", "us"]) {
      expect(streetAddress(fleetStreet, country), country).toBe("1939 Fleet Street");
    }
    for (const country of ["DE", "AT", "CH", "LI", "IT", "ES", "NL", "SE", "NO", "DK", "FI", "PL", "BR"]) {
      expect(streetAddress(fleetStreet, country), country).toBe("Fleet Street 1939");
    }
    // A country the table does not know keeps the number after the street.
    expect(streetAddress(fleetStreet, "ZZ")).toBe("Fleet Street 1939");
    expect(streetAddress({ "addr:place": "Little Haven", "addr:housenumber": "2" }, "GB")).toBe("2 Little Haven");
  });
});
