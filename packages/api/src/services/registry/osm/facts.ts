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

/** "Street 12", or the place name when the address has no street (addr:place). */
export function streetAddress(tags: Readonly<Record<string, string>>): string | null {
  const street = tags["addr:street"]?.trim() || tags["addr:place"]?.trim();
  if (!street) return null;
  const number = tags["addr:housenumber"]?.trim();
  return ownerShort(number ? `${street} ${number}` : street);
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
