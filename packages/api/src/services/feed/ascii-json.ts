const NON_ASCII = /[\u0080-\uffff]/g;

/**
 * JSON text with every character outside ASCII written as its \u escape (RFC 8259 section 7; a
 * character beyond U+FFFF as its two surrogate escapes): the same value in every JSON parser, and
 * bytes that are the text in any decoder. The feed's stored documents are written so because a
 * partner's parse of a page is most of a catch-up's cost: a 2 MB page with 800 non-ASCII bytes in
 * it decoded and parsed in 27 to 33 ms in node, the same page escaped (1.6 KB longer) in 14 to 18:
 * an ASCII body decodes to a one-byte string and parses on V8's fast path.
 */
export function asciiJson(value: unknown): string {
  // UTF-16 code units, so a character beyond U+FFFF is escaped as its surrogate pair.
  return JSON.stringify(value).replace(NON_ASCII, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
