/**
 * Text that owners or third parties wrote (descriptions, USPs, questions, offers) reaches agents as
 * data. Whatever a person cannot see is removed, because it can hide instructions from people while
 * an agent still reads them (a message spelled in variation selectors decodes intact): control
 * characters (tab and line breaks stay), every default-ignorable code point and format character by
 * Unicode's own properties (zero-width and bidirectional controls, variation selectors, tags, the
 * Hangul fillers, the combining grapheme joiner...), and combining marks with no letter to sit on.
 * Long text is cut with a visible note. The output schemas apply these (services/shared/owner-text-schemas.ts),
 * so every door serves the cleaned text and no service calls them by hand.
 */
const HIDDEN_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\p{Default_Ignorable_Code_Point}\p{Cf}]|(?<=^|\s)\p{M}+/gu;
/** The same class, unflagged, for a side-effect-free test. */
const HAS_HIDDEN_CHARACTER = new RegExp(HIDDEN_CHARACTERS.source, "u");

/**
 * Removes hidden characters until none is left: removing one can leave a combining mark with no
 * letter to sit on, which the next pass removes. The cleaner and the visible-text rule both start
 * here, so they never disagree on what is hidden.
 */
function withoutHiddenCharacters(text: string): string {
  let current = text;
  let next = current.replace(HIDDEN_CHARACTERS, "");
  while (next !== current) {
    current = next;
    next = current.replace(HIDDEN_CHARACTERS, "");
  }
  return current;
}

/**
 * The visible-text rule (Unicode TR36/TR39): of the cleaned text, only letters, digits and
 * punctuation count, one per code point. Everything else never counts: white space, symbols and the
 * blanks and placeholders among them (U+2800 blank Braille, U+1D159 null notehead, U+FFFC, U+FFFD),
 * unassigned code points and noncharacters (Cn), private use (Co), and combining marks, which add
 * nothing a person could read without the letter they sit on. The letters that render as nothing
 * (the Hangul fillers) are default-ignorable, so the cleaning has removed them already.
 */
const COUNTED = /[\p{L}\p{N}\p{P}]/gu;

/** How many characters of the cleaned text a person could read: what "at least N visible characters" counts. */
export function visibleLength(text: string): number {
  return withoutHiddenCharacters(text).match(COUNTED)?.length ?? 0;
}

/** The one rule for "holds something to read": consent, names, messages, owner text and correction evidence. */
export function hasVisibleText(text: string): boolean {
  return visibleLength(text) > 0;
}

/**
 * short: names, taglines, USPs, questions, titles, list items. long: descriptions, answers, composed
 * sentences, any string inside owner JSON. A list (services, keywords, a JSON array) keeps at most
 * `listItems` items and stops once its text passes `long` characters.
 */
export const OWNER_TEXT_LIMITS = { short: 300, long: 1_000, listItems: 50 } as const;

export const TRUNCATION_NOTE = "… [truncated]";

export function cleanOwnerText(text: string, maxLength: number): string {
  // Most text is clean and short: one scan, no copy (the partner feed cleans ~20,000 strings a second).
  if (text.length <= maxLength && !HAS_HIDDEN_CHARACTER.test(text)) return text;
  const visible = withoutHiddenCharacters(text);
  if (visible.length <= maxLength) return visible;
  // Never cut a surrogate pair in half: a lone surrogate is not text.
  const end = /[\uD800-\uDBFF]/.test(visible.charAt(maxLength - 1)) ? maxLength - 1 : maxLength;
  return `${visible.slice(0, end).trimEnd()}${TRUNCATION_NOTE}`;
}

/** Keeps the first items while their text fits the long limit (the first always); items are cleaned and at most listItems. */
function boundedList<T>(items: readonly T[], sizeOf: (item: T) => number): T[] {
  const kept: T[] = [];
  let size = 0;
  for (const item of items) {
    size += sizeOf(item);
    if (kept.length > 0 && size > OWNER_TEXT_LIMITS.long) break;
    kept.push(item);
  }
  return kept;
}

/** A list of short owner texts (services, keywords), cleaned and bounded. */
export function cleanOwnerList(items: readonly string[]): string[] {
  return boundedList(
    items.slice(0, OWNER_TEXT_LIMITS.listItems).map((item) => cleanOwnerText(item, OWNER_TEXT_LIMITS.short)),
    (item) => item.length,
  );
}

/**
 * Any JSON that carries owner text (claim values, schema.org JSON-LD): every string and key is
 * cleaned, strings capped at the long limit, arrays bounded like a list (by their text), objects
 * to `listItems` entries.
 */
export function cleanOwnerJson(value: unknown): unknown {
  return cleanJson(value);
}

/*
 * The partner feed cleans 500 JSON-LD documents a page, nearly all already clean, so the walk
 * allocates nothing until something changes: it hands back the input itself, copies an array or
 * object only from its first changed item on, and reports each value's text length (its strings
 * and keys) through `measured` rather than a result object per node.
 */
let measured = 0;

function cleanJson(value: unknown): unknown {
  if (typeof value === "string") {
    const cleaned = cleanOwnerText(value, OWNER_TEXT_LIMITS.long);
    measured = cleaned.length;
    return cleaned;
  }
  if (Array.isArray(value)) return cleanArray(value);
  if (value !== null && typeof value === "object") return cleanObject(value as Record<string, unknown>);
  measured = 0;
  return value;
}

/** The first items while their text fits the long limit (the first always), at most listItems. */
function cleanArray(items: readonly unknown[]): unknown {
  const end = Math.min(items.length, OWNER_TEXT_LIMITS.listItems);
  let copy: unknown[] | null = null;
  let length = 0;
  let index = 0;
  for (; index < end; index++) {
    const item = items[index];
    const cleaned = cleanJson(item);
    if (index > 0 && length + measured > OWNER_TEXT_LIMITS.long) break;
    length += measured;
    if (copy) copy.push(cleaned);
    else if (cleaned !== item) copy = [...items.slice(0, index), cleaned];
  }
  measured = length;
  return copy ?? (index < items.length ? items.slice(0, index) : items);
}

/** The first listItems entries, keys and values cleaned. */
function cleanObject(object: Record<string, unknown>): unknown {
  const keys = Object.keys(object);
  const end = Math.min(keys.length, OWNER_TEXT_LIMITS.listItems);
  // Entries, not assignment to a fresh object: an owner's "__proto__" key stays a key.
  let entries: [string, unknown][] | null = keys.length > end ? [] : null;
  let length = 0;
  for (let index = 0; index < end; index++) {
    const key = keys[index]!;
    const item = object[key];
    const cleanKey = cleanOwnerText(key, OWNER_TEXT_LIMITS.short);
    const cleaned = cleanJson(item);
    length += cleanKey.length + measured;
    if (!entries && (cleanKey !== key || cleaned !== item)) entries = keys.slice(0, index).map((earlier) => [earlier, object[earlier]]);
    entries?.push([cleanKey, cleaned]);
  }
  measured = length;
  return entries ? Object.fromEntries(entries) : object;
}
