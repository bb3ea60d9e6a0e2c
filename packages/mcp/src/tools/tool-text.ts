/*
 * The text a tool result carries beside its structuredContent.
 *
 * Why a compact rendering and not the JSON again: most clients (Claude Desktop among them) put
 * the text content in front of the model and bill it, and several bill structuredContent as
 * well, so the same JSON twice cost every search ~2.1x. structuredContent stays the exact,
 * schema-checked data (cursors and all) for programs; the text is for the model: every value
 * it needs to answer or to make the next call, once. The MCP spec says a tool that returns
 * structured content SHOULD also return the serialized JSON in a text block; SHOULD, not MUST,
 * and a compact rendering of the same data is what keeps results affordable.
 *
 * The rendering: `key: value` lines, nested objects indented, lists of scalars comma-joined,
 * lists of objects as a table (header once, one row each). It renders what the tool's MCP view
 * (tool-views.ts) left in: a listing row has its slug and the fields an agent picks by, the
 * boilerplate every listing shares is the envelope's everyListing, said once; the id stays in
 * structuredContent, long owner text and URLs are get_business_profile's, and the text says so.
 */

import { LEFT_TO_PROFILE } from "./tool-views";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Listing fields not in a listing table: the id (structuredContent has it) and what the MCP view leaves to get_business_profile. */
const LEFT_TO_STRUCTURED = new Set<string>(["id", ...LEFT_TO_PROFILE]);
/** Fields no reader needs in text: JSON-LD repeats the profile's own fields. */
const NOT_RENDERED = new Set(["structuredData"]);

/** Marks a response with a listing table, whose omitted fields the text then names. */
const LISTING_TABLE = "\u0000listings";

const isObject = (value: Json | undefined): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);
const isScalar = (value: Json | undefined) => !isObject(value) && !Array.isArray(value);

/** One line of text: owner text may hold newlines or our column separator, which would forge rows. */
function scalar(value: Json | undefined): string {
  if (value === null || value === undefined) return "-";
  return (typeof value === "object" ? JSON.stringify(value) : String(value)).replace(/\s*\n\s*/g, " ").replace(/\|/g, "/");
}

const WEEKDAYS = ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"];

/**
 * A listing's next opening change, as a reader says it: "closes Tu 19:00", local time and weekday
 * (within the coming week; structuredContent keeps the UTC instant and the offset).
 */
function nextChangeText(value: JsonObject): string | null {
  const local = typeof value.local === "string" ? /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(value.local) : null;
  if (typeof value.change !== "string" || !local) return null;
  return `${value.change} ${WEEKDAYS[new Date(`${local[1]}T00:00:00Z`).getUTCDay()]} ${local[2]}`;
}

function inline(value: Json, key?: string): string {
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.every(isScalar) ? value.map(scalar).join(", ") : scalar(JSON.stringify(value));
  if (isObject(value)) {
    const said = key === "nextChange" ? nextChangeText(value) : null;
    if (said) return said;
    const entries = Object.entries(value);
    return entries.every(([, cell]) => isScalar(cell)) ? entries.map(([name, cell]) => `${name}=${scalar(cell)}`).join(", ") : scalar(JSON.stringify(value));
  }
  return scalar(value);
}

/** A listing is what search tools return: a business row with its slug and plan tier (a city has a slug too). */
const isListing = (item: Json): item is JsonObject => isObject(item) && typeof item.slug === "string" && "planTier" in item;

/** The columns of a table of objects: every key of any row, but a listing's long or repeated fields. */
function columnsOf(rows: JsonObject[], listing: boolean, said: Map<string, Json>): string[] {
  const columns: string[] = [];
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (columns.includes(key) || NOT_RENDERED.has(key)) continue;
      if (listing && (LEFT_TO_STRUCTURED.has(key) || said.has(key))) continue;
      columns.push(key);
    }
  }
  // A column that says the same in every row (a city search's city) is noise in a table.
  return columns.filter((key) => rows.length < 2 || new Set(rows.map((row) => JSON.stringify(row[key] ?? null))).size > 1 || key === "slug");
}

function table(key: string, rows: JsonObject[], indent: string, said: Map<string, Json>): string[] {
  const listing = rows.every(isListing);
  if (listing) said.set(LISTING_TABLE, true);
  const columns = columnsOf(rows, listing, said);
  const lines = [`${indent}${key} (${rows.length}): ${columns.join(" | ")}`];
  for (const row of rows) lines.push(`${indent}- ${columns.map((column) => inline(row[column] ?? null, column)).join(" | ")}`);
  // Columns dropped because every row said the same still say it, once.
  if (rows.length > 1) {
    const same = Object.keys(rows[0]!).filter(
      (column) => !columns.includes(column) && !NOT_RENDERED.has(column) && !(listing && (LEFT_TO_STRUCTURED.has(column) || said.has(column))),
    );
    if (same.length) lines.push(`${indent}  (every row: ${same.map((column) => `${column} ${inline(rows[0]![column]!)}`).join("; ")})`);
  }
  return lines;
}

function render(object: JsonObject, indent: string, said: Map<string, Json>): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (NOT_RENDERED.has(key)) continue;
    if (Array.isArray(value) && value.length > 0 && value.every(isObject)) {
      lines.push(...table(key, value, indent, said));
    } else if (Array.isArray(value) && value.some((item) => typeof item === "string" && item.includes(","))) {
      // Sentences (compare's differences) hold commas: one a line, not comma-joined.
      lines.push(`${indent}${key}:`, ...value.map((item) => `${indent}- ${scalar(item)}`));
    } else if (isObject(value)) {
      if (Object.values(value).every(isScalar) && Object.keys(value).length <= 6) {
        lines.push(`${indent}${key}: ${inline(value)}`);
      } else {
        lines.push(`${indent}${key}:`, ...render(value, `${indent}  `, said));
      }
    } else {
      lines.push(`${indent}${key}: ${inline(value)}`);
    }
  }
  return lines;
}

/** The model's text of a tool result: compact, every listing named by its slug. */
export function toolText(result: Record<string, unknown>): string {
  const said = new Map<string, Json>();
  const body = render(result as JsonObject, "", said);
  const listings = said.delete(LISTING_TABLE);
  if (listings) body.push(`Not shown per listing: id (structuredContent); ${LEFT_TO_PROFILE.join(", ")} (get_business_profile).`);
  return body.join("\n");
}

type Attribution = { text?: unknown; licence?: unknown; url?: unknown };

/**
 * A search's text: the listings as toolText renders them, then one line under them for each licence
 * notice the page owes (OpenStreetMap's ODbL line when an imported listing is on it), and none, not
 * an empty field, when the page owes none: a demo page reads as it did before attributions existed.
 */
export function listingsText(result: Record<string, unknown>): string {
  const { attributions, ...rest } = result;
  const notices = Array.isArray(attributions) ? (attributions as Attribution[]) : [];
  const lines = notices.map((notice) => `${scalar(notice.text as Json)} (${scalar(notice.licence as Json)}, ${scalar(notice.url as Json)})`);
  return [toolText(rest), ...lines].join("\n");
}

/**
 * A profile's standing, in the one line the model reads first: whether it is open, which facts are
 * past their useful life, and when an owner or the directory last checked one. It replaces the
 * operatingStatus and freshness fields in the text (structuredContent keeps both).
 */
export function standingLine(profile: Record<string, unknown>): string {
  const status = (profile.operatingStatus ?? {}) as { status?: string; closedOn?: string; reopensOn?: string; since?: string };
  const freshness = (profile.freshness ?? {}) as { lastVerifiedAt?: string | null; staleCount?: number };
  const claims = Array.isArray(profile.claims) ? (profile.claims as { property?: string; stale?: boolean }[]) : [];
  const closure =
    status.status === "permanently_closed"
      ? `PERMANENTLY CLOSED${status.closedOn ? ` since ${status.closedOn}` : ""}`
      : status.status === "temporarily_closed"
        ? `TEMPORARILY CLOSED${status.reopensOn ? `, reopens ${status.reopensOn}` : ""}`
        : status.status === "unverified"
          ? `UNVERIFIED since ${status.since?.slice(0, 10) ?? "unknown"} (no one states it open and every fact is stale: check before sending anyone)`
          : "open";
  const stale = [...new Set(claims.filter((claim) => claim.stale).map((claim) => String(claim.property)))];
  const staleCount = freshness.staleCount ?? stale.length;
  const staleText = staleCount === 0 ? "no stale facts" : `${staleCount} stale fact${staleCount === 1 ? "" : "s"} (${stale.join(", ")}: check or say how old)`;
  const verified = freshness.lastVerifiedAt ? `last verified ${freshness.lastVerifiedAt.slice(0, 10)}` : "never verified by owner or directory";
  return `standing: ${closure}; ${staleText}; ${verified}`;
}

/** The profile's text: its standing line, then the rest without the two fields that line said. */
export function profileText(profile: Record<string, unknown>): string {
  const { operatingStatus: _status, freshness: _freshness, ...rest } = profile;
  return `${standingLine(profile)}\n${toolText(rest)}`;
}
