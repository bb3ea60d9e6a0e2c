import { z } from "zod";
import { OPERATING_STATUSES, type ClaimProperty, type OpeningHoursSpec } from "@directory/db";
import { DomainError } from "../../errors";
import { cleanOwnerList, cleanOwnerText, hasVisibleText, OWNER_TEXT_LIMITS } from "../shared/owner-text";

/*
 * What a claim's value may be, per property: the one rule every writer passes (owner edits, admin
 * procedures, registry imports, the demo's business add). Text is cleaned and capped here, when it
 * is written, like owner text everywhere; doors build their input schemas from these, so a request
 * is refused with the same words before it reaches the write path.
 */

const shortText = z.string().transform((text) => cleanOwnerText(text, OWNER_TEXT_LIMITS.short));
const longText = z.string().transform((text) => cleanOwnerText(text, OWNER_TEXT_LIMITS.long));
const nonEmpty = (what: string) => shortText.refine(hasVisibleText, `${what} must hold visible characters`);
const textList = z
  .array(z.string())
  .max(OWNER_TEXT_LIMITS.listItems, `at most ${OWNER_TEXT_LIMITS.listItems} items`)
  .transform((items) => cleanOwnerList(items).filter(hasVisibleText));
const slugValue = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "a slug: lower-case letters, digits and single hyphens");

/** E.164-ish: a leading +, 7 to 15 digits, spaces, dots, hyphens and parentheses between them. */
export const ZPhoneValue = z
  .string()
  .trim()
  .max(32)
  .regex(/^\+[0-9 ().-]+$/, "a phone number in international form, starting with + and the country code")
  .refine((phone) => {
    const digits = phone.replace(/\D/g, "").length;
    return digits >= 7 && digits <= 15;
  }, "a phone number has 7 to 15 digits");

/** An http(s) URL only: a javascript: or data: link never reaches an agent or a page. */
export const ZWebsiteValue = z
  .string()
  .trim()
  .max(2_048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
    } catch {
      return false;
    }
  }, "an http:// or https:// URL");

export const ZEmailValue = z.string().trim().max(254).pipe(z.email("an email address"));

export const DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
const clockTime = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, "a time HH:MM (00:00 to 24:00)");

/** Opening hours: days with one time range each; closes before opens means past midnight. */
export const ZOpeningHoursValue = z
  .array(z.object({ days: z.array(z.enum(DAY_NAMES)).min(1).max(7), opens: clockTime, closes: clockTime }).strict())
  .max(OWNER_TEXT_LIMITS.listItems) satisfies z.ZodType<OpeningHoursSpec[]>;

export const ZCoordinatesValue = z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }).strict();

/** A short pattern and a real-date check: z.iso.date's pattern would cost every MCP tools/list ~150 tokens. */
const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "a date YYYY-MM-DD")
  .refine((text) => {
    const day = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text);
  }, "a date YYYY-MM-DD that exists");

/**
 * open, temporarily_closed (reopensOn optional) or permanently_closed (closedOn required): a
 * permanent closure takes the business out of every list; a temporary one keeps it findable, marked.
 */
export const ZOperatingStatusValue = z
  .object({ status: z.enum(OPERATING_STATUSES), closedOn: calendarDate.optional(), reopensOn: calendarDate.optional() })
  .strict()
  .refine((value) => value.status !== "permanently_closed" || value.closedOn !== undefined, "closedOn (YYYY-MM-DD) is required for permanently_closed")
  .refine((value) => value.status === "temporarily_closed" || value.reopensOn === undefined, "reopensOn is only for temporarily_closed")
  .refine((value) => value.status !== "open" || value.closedOn === undefined, "closedOn is not for open");

export type OperatingStatusValue = z.output<typeof ZOperatingStatusValue>;

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();

/** The value schema of each claim property. */
export const CLAIM_VALUE_SCHEMAS = {
  name: nonEmpty("a name"),
  category: slugValue,
  city: slugValue,
  address: nullable(shortText),
  postalCode: nullable(
    z
      .string()
      .trim()
      .max(16)
      .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, "a postal code: letters, digits, spaces and hyphens"),
  ),
  coordinates: ZCoordinatesValue,
  phone: nullable(ZPhoneValue),
  website: nullable(ZWebsiteValue),
  email: nullable(ZEmailValue),
  description: nullable(longText),
  services: textList,
  usp: nullable(shortText),
  tagline: nullable(shortText),
  keywords: textList,
  openingHours: ZOpeningHoursValue,
  openingHoursText: nullable(shortText),
  rating: nullable(z.number().min(0).max(5)),
  reviewCount: z.number().int().min(0),
  operatingStatus: ZOperatingStatusValue,
} as const satisfies Record<ClaimProperty, z.ZodType>;

export type ClaimValue<P extends ClaimProperty> = z.output<(typeof CLAIM_VALUE_SCHEMAS)[P]>;

/** The cleaned value, or a 400 naming the property (and the record, for imports) and what it must be. */
export function parseClaimValue(property: ClaimProperty, value: unknown, context = ""): unknown {
  const parsed = CLAIM_VALUE_SCHEMAS[property].safeParse(value);
  if (parsed.success) return parsed.data;
  const reason = parsed.error.issues[0]?.message ?? "invalid";
  throw new DomainError("INVALID_INPUT", `Invalid ${property}${context ? ` of ${context}` : ""}: ${reason}`, { property });
}

/** Same JSON value, whatever the key order: what "a write that changes nothing" compares. */
export function sameClaimValue(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** One JSON text per value whatever its key order: what "the same proposal" (corrections) compares. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
