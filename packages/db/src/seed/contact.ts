import { getCountryCallingCode, isSupportedCountry } from "libphonenumber-js";
import type { Locale } from "./locales";
import type { Rng } from "./random";

/** Digits after the country code; most countries not listed use 9. */
const NATIONAL_NUMBER_LENGTH: Readonly<Record<string, number>> = {
  US: 10, CA: 10, IN: 10, GB: 10, CN: 11, BR: 11, JP: 10, KR: 10, MX: 10, PK: 10, BD: 10, NG: 10, TR: 10,
  RU: 10, UA: 9, ID: 10, DE: 11, IT: 10, AR: 10, CO: 10, VN: 9, PH: 10, EG: 10, IR: 10, TW: 9, HK: 8, SG: 8,
};

/**
 * Postal code shapes: 9 = digit, A = letter, anything else literal. Countries missing here use five
 * digits; `null` means the country has no postal codes.
 */
const POSTAL_FORMATS: Readonly<Record<string, string | null>> = {
  US: "99999", IN: "999999", GB: "AA9 9AA", CA: "A9A 9A9", JP: "999-9999", BR: "99999-999", CN: "999999",
  RU: "999999", BY: "999999", KZ: "999999", AU: "9999", AT: "9999", ZA: "9999", PH: "9999", HU: "9999",
  NL: "9999 AA", SE: "999 99", PL: "99-999", PT: "9999-999", AR: "A9999AAA", IR: "9999999999", KR: "99999",
  HK: null, AE: null, YE: null, GH: null, AO: null, SO: null, KP: null, ZW: null, LB: "9999 9999",
};

const LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ";

/** E.164, so every door shows the same canonical number. */
export function phoneNumber(rng: Rng, countryCode: string): string {
  const callingCode = isSupportedCountry(countryCode) ? getCountryCallingCode(countryCode) : "1";
  const length = NATIONAL_NUMBER_LENGTH[countryCode] ?? 9;
  // A leading 0 or 1 is a trunk or service prefix in many plans, never the first national digit.
  let digits = String(rng.int(2, 9));
  while (digits.length < length) digits += String(rng.int(0, 9));
  return `+${callingCode}${digits}`;
}

export function postalCode(rng: Rng, countryCode: string): string | null {
  const format = countryCode in POSTAL_FORMATS ? POSTAL_FORMATS[countryCode] : "99999";
  if (format == null) return null;
  let code = "";
  for (const char of format) {
    if (char === "9") code += String(code === "" ? rng.int(1, 9) : rng.int(0, 9));
    else if (char === "A") code += LETTERS.charAt(rng.int(0, LETTERS.length - 1));
    else code += char;
  }
  return code;
}

/** "<number> <street> <suffix>, <district?>, <city>" */
export function streetAddress(rng: Rng, locale: Locale, cityName: string): string {
  const street = `${rng.int(1, 480)} ${rng.pick(locale.streets)} ${rng.pick(locale.streetSuffixes)}`;
  return rng.chance(0.6) ? `${street}, ${rng.pick(locale.districts)}, ${cityName}` : `${street}, ${cityName}`;
}
