import { escapeHtml } from "../html";
import { csrfField, type Me } from "./account-parts";
import type { Caller } from "./errors";
import { claimsTable } from "./facts";

/**
 * The owner dashboard's facts: every current fact with its source, confidence and freshness (the
 * public profile's own table), and the form for the facts an owner states (owner.updateListing).
 * The form shows each fact's current value; only what the person changed is sent, so a fact left
 * alone keeps its source. An emptied field removes the fact (the procedure's null).
 */

export type Profile = Awaited<ReturnType<Caller["entities"]["getEntityProfile"]>>;

type FieldName = "phone" | "website" | "email" | "address" | "tagline" | "usp" | "description" | "services" | "keywords";

interface EditableField {
  name: FieldName;
  label: string;
  /** text: one line; long: a paragraph; list: one item a line. */
  kind: "text" | "long" | "list";
  type?: "tel" | "url" | "email";
  hint: string;
  autocomplete?: string;
}

export const EDITABLE_FIELDS: readonly EditableField[] = [
  {
    name: "phone",
    label: "Phone",
    kind: "text",
    type: "tel",
    autocomplete: "tel",
    hint: "International form: + and the country code, such as +91 22 1234 5678.",
  },
  { name: "website", label: "Website", kind: "text", type: "url", autocomplete: "url", hint: "Starting with https:// or http://." },
  { name: "email", label: "Email", kind: "text", type: "email", autocomplete: "email", hint: "Where customers can write to the business." },
  { name: "address", label: "Address", kind: "text", autocomplete: "street-address", hint: "Street address." },
  { name: "tagline", label: "Tagline", kind: "text", hint: "One line." },
  { name: "usp", label: "What sets it apart", kind: "text", hint: "One line: why customers choose the business." },
  { name: "description", label: "Description", kind: "long", hint: "What the business does, in a few sentences." },
  { name: "services", label: "Services", kind: "list", hint: "One service a line." },
  { name: "keywords", label: "Keywords", kind: "list", hint: "One keyword or phrase a line; they help people and agents find the business." },
];

/** What a field shows: the current fact as text (a list one item a line), or empty. */
function currentText(profile: Profile, field: EditableField): string {
  const value = profile.claims.find((claim) => claim.property === field.name)?.value;
  if (Array.isArray(value)) return value.map(String).join("\n");
  return typeof value === "string" ? value : "";
}

export function currentValues(profile: Profile): Record<string, string> {
  return Object.fromEntries(EDITABLE_FIELDS.map((field) => [field.name, currentText(profile, field)]));
}

const listItems = (text: string) =>
  text
    .split(/\r?\n/)
    .map((item) => item.trim())
    .filter((item) => item !== "");

/** What owner.updateListing takes besides the slug: text or null, lists as arrays. */
export type ListingChanges = Omit<NonNullable<Parameters<Caller["owner"]["updateListing"]>[0]>, "slug" | "openingHours">;

/**
 * The fields the person changed, as owner.updateListing takes them: text trimmed (empty: null, the
 * fact removed), lists one item a line. A field the form did not send, or sent unchanged, is left out.
 */
export function changedFields(submitted: Record<string, string | undefined>, current: Record<string, string>): ListingChanges {
  const changes: Record<string, string | string[] | null> = {};
  for (const field of EDITABLE_FIELDS) {
    const text = submitted[field.name];
    if (text === undefined) continue;
    if (field.kind === "list") {
      const items = listItems(text);
      if (items.join("\n") !== listItems(current[field.name] ?? "").join("\n")) changes[field.name] = items;
    } else if (text.trim() !== (current[field.name] ?? "").trim()) {
      changes[field.name] = text.trim() === "" ? null : text.trim();
    }
  }
  // Each field's kind is its property's type (text or null; a list), so the procedure's input takes them.
  return changes;
}

/** The fields a refusal names ("Invalid parameter phone: ..."), to mark them invalid. */
function fieldsNamedIn(message: string): Set<string> {
  return new Set(EDITABLE_FIELDS.filter((field) => new RegExp(`\\b${field.name}(\\.\\d+)?:`).test(message)).map((field) => field.name));
}

function fieldHtml(field: EditableField, value: string, invalid: boolean): string {
  const id = `fact-${field.name}`;
  const describedBy = `${id}-help${invalid ? " facts-error" : ""}`;
  const common = `id="${id}" name="${field.name}" aria-describedby="${describedBy}"${invalid ? ' aria-invalid="true"' : ""}`;
  const control =
    field.kind === "text"
      ? `<input ${common} type="${field.type ?? "text"}"${field.autocomplete ? ` autocomplete="${field.autocomplete}"` : ""} maxlength="2048" value="${escapeHtml(value)}">`
      : `<textarea ${common} rows="${field.kind === "long" ? 5 : 4}" maxlength="10000">${escapeHtml(value)}</textarea>`;
  return `<div><label for="${id}">${escapeHtml(field.label)}</label>${control}<span id="${id}-help" class="hint">${escapeHtml(field.hint)}</span></div>`;
}

export interface FactsForm {
  /** What the person typed, shown again after a refusal; otherwise the current facts. */
  values?: Record<string, string>;
  error?: string;
}

/** The form that posts to owner.updateListing (through POST /dashboard/business/{slug}/listing). */
function editForm(slug: string, profile: Profile, me: Me, form: FactsForm): string {
  const values = form.values ?? currentValues(profile);
  const invalid = form.error ? fieldsNamedIn(form.error) : new Set<string>();
  const error = form.error ? `<p id="facts-error" class="notice error" role="alert">Nothing was saved: ${escapeHtml(form.error)}</p>` : "";
  const fields = EDITABLE_FIELDS.map((field) => fieldHtml(field, values[field.name] ?? "", invalid.has(field.name))).join("\n");
  return `<h3 id="edit-facts">Edit the facts</h3>${error}
<p>What you save here is published as stated by the owner, and replaces the value from other sources. Empty a field to remove the fact.</p>
<form class="stack" method="post" action="/dashboard/business/${encodeURIComponent(slug)}/listing">${csrfField(me)}
${fields}
<button type="submit">Save</button></form>`;
}

/** The facts section: the table, then the edit form; without the profile (it could not be read) only why. */
export function factsSection(slug: string, profile: Profile | null, profileError: string | null, me: Me, form: FactsForm, notice: string): string {
  const body = profile
    ? `${claimsTable(profile.claims, profile.identity)}${editForm(slug, profile, me, form)}`
    : `<p class="notice error">The listing's facts cannot be shown: ${escapeHtml(profileError ?? "unknown reason")}</p>`;
  return `<section aria-labelledby="facts"><h2 id="facts">Facts</h2>${notice}
<p>Every fact the directory publishes about the business, who stated it, how sure it is and when it was last seen.</p>${body}</section>`;
}
