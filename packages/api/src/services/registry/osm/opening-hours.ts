import type { OpeningHoursSpec } from "@directory/db";

/**
 * The common forms of OSM's `opening_hours` (https://wiki.openstreetmap.org/wiki/Key:opening_hours)
 * read into our hours structure. Our own parser: the reference one (opening_hours.js) is LGPL.
 *
 * Read: `24/7`; rules separated by `;`, a later rule replacing the hours of the days it names
 * (`Mo-Sa 08:00-18:00; Sa 09:00-12:00`); day lists and ranges, wrapping ones too (`Mo,We`,
 * `Mo-We,Fr`, `Fr-Mo`), in any case; several time ranges (`08:00-12:00,13:30-18:00`); one-digit
 * hours; ranges past midnight (`18:00-02:00` opens 18:00, closes 02:00); `off` / `closed`; a rule
 * without days (every day). Anything else (holidays, months, weeks, sunrise, `+`, comments, `||`,
 * full day names, German day abbreviations...) gives null: the caller keeps the raw string and
 * reports it. Never a guess.
 */

const DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
const DAY_CODES = ["mo", "tu", "we", "th", "fr", "sa", "su"];
/** The demo seed and JSON-LD write "open all day" as 00:00-23:59; an OSM closing time of 24:00 is written the same way. */
const END_OF_DAY = "23:59";

const DAY = "(?:mo|tu|we|th|fr|sa|su)";
const DAY_ITEM = `${DAY}(?:\\s*-\\s*${DAY})?`;
const DAY_SELECTOR = new RegExp(`^${DAY_ITEM}(?:\\s*,\\s*${DAY_ITEM})*$`);
const TIME = "(\\d{1,2}):(\\d{2})";
const TIME_RANGE = new RegExp(`^${TIME}\\s*-\\s*${TIME}$`);
const CLOSED = /^(?:off|closed)$/;

type Range = readonly [opens: string, closes: string];

export function parseOpeningHours(raw: string): OpeningHoursSpec[] | null {
  const text = raw.trim().toLowerCase();
  if (text === "") return null;
  if (text === "24/7") return [{ days: [...DAY_NAMES], opens: "00:00", closes: END_OF_DAY }];
  const week: (Range[] | null)[] = DAY_NAMES.map(() => null);
  const rules = text
    .split(";")
    .map((rule) => rule.trim())
    .filter((rule) => rule !== "");
  if (rules.length === 0) return null;
  for (const rule of rules) {
    const parsed = parseRule(rule);
    if (!parsed) return null;
    // A later rule replaces, for the days it names, whatever earlier rules said.
    for (const day of parsed.days) week[day] = parsed.ranges;
  }
  return toSpecs(week);
}

function parseRule(rule: string): { days: number[]; ranges: Range[] } | null {
  // The day selector, if any, is everything before the first digit or the off/closed word.
  const match = /^([a-z][a-z\s,-]*?)?\s*(\d.*|off|closed)$/.exec(rule);
  if (!match) return null;
  const selector = match[1]?.trim();
  const days = selector ? parseDays(selector) : [0, 1, 2, 3, 4, 5, 6];
  if (!days) return null;
  const timePart = (match[2] ?? "").trim();
  if (CLOSED.test(timePart)) return { days, ranges: [] };
  const ranges: Range[] = [];
  for (const piece of timePart.split(",")) {
    const range = parseTimeRange(piece.trim());
    if (!range) return null;
    ranges.push(range);
  }
  return { days, ranges };
}

function parseDays(selector: string): number[] | null {
  if (!DAY_SELECTOR.test(selector)) return null;
  const days = new Set<number>();
  for (const item of selector.split(",")) {
    const [from, to] = item.split("-").map((code) => DAY_CODES.indexOf(code.trim()));
    if (from === undefined || from < 0) return null;
    if (to === undefined) {
      days.add(from);
      continue;
    }
    if (to < 0) return null;
    // Fr-Mo wraps over the weekend: Friday, Saturday, Sunday, Monday.
    for (let day = from; ; day = (day + 1) % 7) {
      days.add(day);
      if (day === to) break;
    }
  }
  return [...days];
}

function parseTimeRange(piece: string): Range | null {
  const match = TIME_RANGE.exec(piece);
  if (!match) return null;
  const [openHour, openMinute, closeHour, closeMinute] = match.slice(1).map(Number) as [number, number, number, number];
  if (openHour > 23 || openMinute > 59 || closeMinute > 59) return null;
  // 24:00 is the end of the day; later "extended hours" (26:00) are a form we do not read.
  if (closeHour > 24 || (closeHour === 24 && closeMinute !== 0)) return null;
  const opens = clock(openHour, openMinute);
  const closes = closeHour === 24 ? END_OF_DAY : clock(closeHour, closeMinute);
  if (opens === closes) return null;
  return [opens, closes];
}

function clock(hour: number, minute: number): string {
  return `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}

/**
 * One spec per time range and run of consecutive days (Monday first), so "Mo,We 09:00-12:00"
 * gives two specs rather than one whose days a reader would take as Monday-Wednesday.
 */
function toSpecs(week: readonly (Range[] | null)[]): OpeningHoursSpec[] {
  const specs: (OpeningHoursSpec & { first: number })[] = [];
  const open = new Map<string, { days: number[]; range: Range }>();
  week.forEach((ranges, day) => {
    for (const range of ranges ?? []) {
      const key = range.join("-");
      const entry = open.get(key);
      if (entry) entry.days.push(day);
      else open.set(key, { days: [day], range });
    }
  });
  for (const { days, range } of open.values()) {
    let run: number[] = [];
    const flush = () => {
      const first = run[0];
      if (first !== undefined) specs.push({ first, days: run.map((day) => DAY_NAMES[day] as string), opens: range[0], closes: range[1] });
      run = [];
    };
    for (const day of days) {
      if (run.length > 0 && run[run.length - 1] !== day - 1) flush();
      run.push(day);
    }
    flush();
  }
  return specs.sort((a, b) => a.first - b.first || a.opens.localeCompare(b.opens)).map(({ days, opens, closes }) => ({ days, opens, closes }));
}
