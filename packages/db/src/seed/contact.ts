import { getCountryCallingCode, isSupportedCountry } from "libphonenumber-js";
import mobileExamples from "libphonenumber-js/mobile/examples";
import type { Locale } from "./locales";
import type { Rng } from "./random";

/** Leading digits kept from the country's example mobile number, so numbers look local and plausible. */
const KEPT_PREFIX_DIGITS = 3;
/** North American exchange codes cannot start with 0 or 1, so keep the exchange's first digit too. */
const KEPT_PREFIX_DIGITS_NANP = 4;

/**
 * Postal code shapes: 9 = digit, A = letter, anything else literal. Countries missing here use five
 * digits; `null` means the country has no postal codes.
 */
const POSTAL_FORMATS: Readonly<Record<string, string | null>> = {
  US: "99999",
  IN: "999999",
  GB: "AA9 9AA",
  CA: "A9A 9A9",
  JP: "999-9999",
  BR: "99999-999",
  CN: "999999",
  RU: "999999",
  BY: "999999",
  KZ: "999999",
  AU: "9999",
  AT: "9999",
  ZA: "9999",
  PH: "9999",
  HU: "9999",
  NL: "9999 AA",
  SE: "999 99",
  PL: "99-999",
  PT: "9999-999",
  AR: "A9999AAA",
  IR: "9999999999",
  KR: "99999",
  HK: null,
  AE: null,
  YE: null,
  GH: null,
  AO: null,
  SO: null,
  KP: null,
  ZW: null,
  LB: "9999 9999",
};

const LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ";

/**
 * E.164, so every door shows the same canonical number: the country calling code, then the
 * example mobile number's leading digits (a valid mobile prefix) followed by random digits.
 */
export function phoneNumber(rng: Rng, countryCode: string): string {
  const country = isSupportedCountry(countryCode) ? countryCode : "US";
  const example = (mobileExamples as Partial<Record<string, string>>)[country] ?? "2015550123";
  const callingCode = getCountryCallingCode(country);
  const kept = callingCode === "1" ? KEPT_PREFIX_DIGITS_NANP : KEPT_PREFIX_DIGITS;
  let digits = example.slice(0, Math.min(kept, example.length - 4));
  while (digits.length < example.length) digits += String(rng.int(0, 9));
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
