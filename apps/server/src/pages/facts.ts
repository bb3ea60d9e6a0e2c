import { escapeHtml } from "../html";
import type { Caller } from "./errors";

type Profile = Awaited<ReturnType<Caller["entities"]["getEntityProfile"]>>;
type Claim = Profile["claims"][number];

/*
 * The profile's facts table, said in words: each property by its name, each value as text (never
 * JSON), each source and verification as a person would say it. An unknown property or shape still
 * reads as words ("postalCode" -> "Postal code", {a: 1} -> "A: 1").
 */

const PROPERTY_LABELS: Record<string, string> = {
  name: "Name",
  category: "Category",
  city: "City",
  address: "Address",
  postalCode: "Postal code",
  coordinates: "Map position",
  phone: "Phone",
  website: "Website",
  email: "Email",
  description: "Description",
  services: "Services",
  usp: "What sets it apart",
  tagline: "Tagline",
  keywords: "Keywords",
  openingHours: "Opening hours",
  openingHoursText: "Opening hours as written",
  rating: "Rating",
  reviewCount: "Number of reviews",
  operatingStatus: "Operating status",
};

const VERIFICATION_LABELS: Record<string, string> = {
  self_reported: "Stated by the owner",
  admin_verified: "Checked by the directory",
  registry: "From a public registry",
};

/** "postalCode" -> "Postal code", "temporarily_closed" -> "Temporarily closed". */
export function words(code: string): string {
  const spaced = code
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

export function propertyLabel(property: string): string {
  return PROPERTY_LABELS[property] ?? words(property);
}

export function verificationLabel(verification: string): string {
  return VERIFICATION_LABELS[verification] ?? words(verification);
}

/** Who stated a fact: "openstreetmap" -> "OpenStreetMap", "owner:..." -> "The owner", "demo:seed" -> "Demo data (seed)". */
export function sourceLabel(source: string): string {
  if (source === "openstreetmap") return "OpenStreetMap";
  const [kind, detail] = source.includes(":") ? [source.slice(0, source.indexOf(":")), source.slice(source.indexOf(":") + 1)] : [source, ""];
  if (kind === "owner") return "The owner";
  if (kind === "admin") return "Directory staff";
  if (kind === "demo") return detail ? `Demo data (${words(detail).toLowerCase()})` : "Demo data";
  return detail ? `${words(kind)} (${detail})` : `Registry: ${source}`;
}

/** Who stated a fact and, for a registry's, its record there: linked to the record's page when the source has one. */
function sourceCell(claim: Claim): string {
  const label = escapeHtml(sourceLabel(claim.source));
  if (claim.recordId === null) return label;
  const record = escapeHtml(claim.recordId);
  return claim.recordUrl === null ? `${label}, record ${record}` : `${label}, <a href="${escapeHtml(claim.recordUrl)}">${record}</a>`;
}

const DAY_ORDER = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** "Monday to Friday", "Saturday, Sunday": runs of three or more days as a range. */
function dayList(days: readonly string[]): string {
  const indexes = [...new Set(days.map((day) => DAY_ORDER.indexOf(day)))].filter((i) => i >= 0).sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const index of indexes) {
    const run = runs.at(-1);
    if (run?.at(-1) === index - 1) run.push(index);
    else runs.push([index]);
  }
  const unknown = days.filter((day) => !DAY_ORDER.includes(day));
  return [
    ...runs.map((run) => (run.length >= 3 ? `${DAY_ORDER[run[0]!]} to ${DAY_ORDER[run.at(-1)!]}` : run.map((i) => DAY_ORDER[i]).join(", "))),
    ...unknown,
  ].join(", ");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hoursText(value: unknown[]): string | null {
  const ranges = value.filter(isRecord);
  if (ranges.length !== value.length) return null;
  return ranges.map((r) => `${dayList(Array.isArray(r.days) ? r.days.map(String) : [])} ${String(r.opens)}–${String(r.closes)}`).join("; ");
}

function operatingStatusText(value: Record<string, unknown>): string {
  const status = typeof value.status === "string" ? value.status : "";
  const closedOn = typeof value.closedOn === "string" ? ` since ${value.closedOn}` : "";
  const reopensOn = typeof value.reopensOn === "string" ? `, reopening ${value.reopensOn}` : "";
  if (status === "permanently_closed") return `Permanently closed${closedOn}`;
  if (status === "temporarily_closed") return `Temporarily closed${reopensOn}`;
  return status === "open" ? "Open" : genericText(value);
}

function genericText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "Not known";
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (Array.isArray(value)) return value.length ? value.map(genericText).join(", ") : "None";
  if (isRecord(value))
    return Object.entries(value)
      .map(([key, inner]) => `${words(key)}: ${genericText(inner)}`)
      .join("; ");
  // What JSON leaves (bigint, symbol, function) never reaches a claim value.
  return "";
}

/** A claim's value as text, by what the property holds. */
export function claimValueText(claim: Pick<Claim, "property" | "value">, identity: Profile["identity"]): string {
  const { property, value } = claim;
  if (value === null || value === undefined) return "Not known";
  switch (property) {
    case "openingHours":
      if (Array.isArray(value)) return value.length === 0 ? "Not known" : (hoursText(value) ?? genericText(value));
      break;
    case "coordinates":
      if (isRecord(value) && typeof value.lat === "number" && typeof value.lng === "number") {
        const lat = `${Math.abs(value.lat).toFixed(5)}° ${value.lat < 0 ? "S" : "N"}`;
        const lng = `${Math.abs(value.lng).toFixed(5)}° ${value.lng < 0 ? "W" : "E"}`;
        return `${lat}, ${lng}`;
      }
      break;
    case "operatingStatus":
      if (isRecord(value)) return operatingStatusText(value);
      break;
    case "rating":
      if (typeof value === "number") return `${value} out of 5`;
      break;
    case "category":
      if (value === identity.categorySlug) return identity.category;
      if (typeof value === "string") return words(value);
      break;
    case "city":
      // City slugs end in the country code ("mumbai-in").
      if (typeof value === "string") {
        const match = /^(.+)-([a-z]{2})$/.exec(value);
        return match ? `${words(match[1]!).replace(/\b\w/g, (c) => c.toUpperCase())}, ${match[2]!.toUpperCase()}` : words(value);
      }
      break;
  }
  return genericText(value);
}

/** The facts table: every current fact, its value, who stated it, how it was checked, how sure, and when seen. */
export function claimsTable(claims: Profile["claims"], identity: Profile["identity"]): string {
  const rows = claims
    .map(
      (c) =>
        `<tr><th scope="row" data-label="Fact">${escapeHtml(propertyLabel(c.property))}</th><td class="value" data-label="Value">${escapeHtml(claimValueText(c, identity))}</td><td data-label="Source">${sourceCell(c)}</td><td data-label="Verification">${escapeHtml(verificationLabel(c.verification))}</td><td class="num" data-label="Confidence">${Math.round(c.confidence * 100)}%</td><td data-label="Observed"><span class="date">${escapeHtml(c.observedAt.slice(0, 10))}</span>${c.stale ? ' <strong class="stale">(stale)</strong>' : ""}</td></tr>`,
    )
    .join("");
  return `<table class="claims"><caption class="muted">Each fact, its value and who stated it</caption><thead><tr><th scope="col">Fact</th><th scope="col">Value</th><th scope="col">Source</th><th scope="col">Verification</th><th scope="col">Confidence</th><th scope="col">Observed</th></tr></thead><tbody>${rows}</tbody></table>`;
}
