import { isSupportedCountry, parsePhoneNumberFromString } from "libphonenumber-js";
import { cleanOwnerText, OWNER_TEXT_LIMITS } from "../../shared/owner-text";

/**
 * The contact facts of an OSM element, cleaned and checked. Each returns null for a value it
 * cannot stand behind: the fact is left out (and the caller counts it), never repaired by guessing.
 */

/** The first value of an OSM multi-value tag ("a;b" means two values). */
function firstValue(value: string | undefined): string | null {
  const first = value?.split(";")[0]?.trim();
  return first ? first : null;
}

/** The value of the first of `keys` that the element has. */
export function tagValue(tags: Readonly<Record<string, string>>, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = firstValue(tags[key]);
    if (value) return value;
  }
  return null;
}

/** E.164, reading a number without international prefix in the city's country. */
export function normalizePhone(raw: string, countryCode: string): string | null {
  const country = countryCode.toUpperCase();
  const parsed = isSupportedCountry(country) ? parsePhoneNumberFromString(raw, country) : parsePhoneNumberFromString(raw);
  return parsed?.isValid() ? parsed.number : null;
}

/** A domain-looking host: labels of letters, digits and hyphens, a top-level label of letters. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** An http(s) URL; "www.example.li" gets https://. Other schemes and non-hosts give null. */
export function normalizeWebsite(raw: string): string | null {
  const text = raw.trim();
  if (/\s/.test(text)) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(text);
  if (hasScheme && !/^https?:\/\//i.test(text)) return null;
  let url: URL;
  try {
    url = new URL(hasScheme ? text : `https://${text}`);
  } catch {
    return null;
  }
  if (!HOST.test(url.hostname) || url.username || url.password) return null;
  const href = url.href;
  return href.length <= OWNER_TEXT_LIMITS.short ? href : null;
}

/** Basic shape only (one @, a dotted domain, no spaces): deliverability is not ours to check. */
export function normalizeEmail(raw: string): string | null {
  const text = raw.trim().replace(/^mailto:/i, "");
  if (text.length > OWNER_TEXT_LIMITS.short) return null;
  const match = /^[^\s@]+@([^\s@]+)$/.exec(text);
  return match?.[1] && HOST.test(match[1]) ? text : null;
}

/**
 * The countries (ISO 3166-1 alpha-2) whose addresses put the house number before the street:
 * "1939 Fleet Street". Everywhere else it follows: "Städtle 43". The list is the street line of
 * OpenCage's address-formatting templates (MIT; conf/countries/worldwide.yaml), territories that
 * take their country's template included. A whole formatting library would bring every country's
 * multi-line template for the one line we store; postcode and city are facts of their own.
 */
const NUMBER_FIRST = new Set(
  (
    "AD AE AG AM AS AU AZ BB BD BF BH BJ BL BM BN BZ CA CC CD CG CI CK CX DJ DM DZ EG FJ FK FM FR " +
    "GA GB GF GG GH GI GM GN GP GS GU GY HK HM IE IM IN IO IQ JE JM JP KE KH KN KY LA LB LK LS LU " +
    "MA MC MF MG MH MM MP MQ MR MS MT MU MV MW MY NA NC NE NF NG NR NU NZ OM PF PG PH PK PM PR RE " +
    "RW SA SC SG SH SL SN TC TF TG TH TK TM TN TO TT TV TZ UG UM US VG VI VN WF XK YE YT ZA ZM ZW"
  ).split(" "),
);

/**
 * The street line in the country's order ("Street 12" or "12 Street"), or the place name when the
 * address has no street (addr:place), which takes the number the same way.
 */
export function streetAddress(tags: Readonly<Record<string, string>>, countryCode: string): string | null {
  const street = tags["addr:street"]?.trim() || tags["addr:place"]?.trim();
  if (!street) return null;
  const number = tags["addr:housenumber"]?.trim();
  if (!number) return ownerShort(street);
  return ownerShort(NUMBER_FIRST.has(countryCode.toUpperCase()) ? `${number} ${street}` : `${street} ${number}`);
}

/** Owner text of the short limit; null when nothing visible is left. */
export function ownerShort(text: string): string | null {
  const cleaned = cleanOwnerText(text.trim(), OWNER_TEXT_LIMITS.short).trim();
  return cleaned === "" ? null : cleaned;
}

export function ownerLong(text: string): string | null {
  const cleaned = cleanOwnerText(text.trim(), OWNER_TEXT_LIMITS.long).trim();
  return cleaned === "" ? null : cleaned;
}
