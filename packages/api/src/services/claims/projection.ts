import { sql } from "drizzle-orm";
import { listingFreshness, rowsOf, type ClaimProperty, type Db, type HeldClaim } from "@directory/db";
import { DomainError } from "../../errors";
import { textList, uuidList } from "../shared/sql-lists";

/*
 * The listing columns are the projection of the current claims: this file is the one map from a
 * claim property to the columns it sets, used when a business is created and whenever a claim
 * becomes current. Column names are the database's, as the set-based statements read them.
 */

/** The columns the current claims decide, as a row of the businesses table. */
export interface ProjectionRow {
  id: string;
  slug: string;
  name: string;
  category_slug: string;
  city_id: number;
  state: string;
  country: string;
  address: string | null;
  postal_code: string | null;
  lat: number | null;
  lng: number | null;
  phone: string | null;
  website: string | null;
  email: string | null;
  description: string | null;
  services: string[];
  usp: string | null;
  tagline: string | null;
  keywords: string[];
  opening_hours: unknown[];
  rating: number | null;
  review_count: number;
  status: "active" | "inactive";
  inactive_reason: string | null;
  temporary_closure: { status: "temporarily_closed"; reopensOn?: string } | null;
  /** The freshness of the current claims (@directory/db claim-freshness.ts): set by withFreshness, not by a claim's value. */
  last_verified_at: string | null;
  facts_stale_after: number[] | null;
}

const PROJECTED_COLUMNS = [
  "name",
  "category_slug",
  "city_id",
  "state",
  "country",
  "address",
  "postal_code",
  "lat",
  "lng",
  "phone",
  "website",
  "email",
  "description",
  "services",
  "usp",
  "tagline",
  "keywords",
  "opening_hours",
  "rating",
  "review_count",
  "status",
  "inactive_reason",
  "temporary_closure",
  "last_verified_at",
  "facts_stale_after",
] as const satisfies readonly (keyof ProjectionRow)[];

export interface ProjectedBusiness {
  row: ProjectionRow;
  changes: Partial<Record<ClaimProperty, unknown>>;
}

interface CityReference {
  id: number;
  slug: string;
  country_code: string;
  admin_region: string;
}

/** The cities and categories a batch of claims names, checked to exist. */
export interface References {
  cities: Map<string, CityReference>;
  categories: Set<string>;
}

/** The listing rows about to change, locked in id order (so two batches never wait on each other in a cycle). */
export async function businessRowsForUpdate(tx: Db, ids: readonly string[]): Promise<Map<string, ProjectionRow>> {
  const unique = [...new Set(ids)].sort();
  const result = await tx.execute(sql`
    select id, slug, ${sql.raw(PROJECTED_COLUMNS.join(", "))} from businesses
    where id = any(${uuidList(unique)}) order by id for update`);
  return new Map(rowsOf<ProjectionRow>(result).map((row) => [row.id, row]));
}

/** Looks up every city and category the changes name; an unknown one is a 400 naming it. */
export async function resolveReferences(tx: Db, changes: readonly Partial<Record<ClaimProperty, unknown>>[]): Promise<References> {
  const citySlugs = [...new Set(changes.flatMap((change) => (typeof change.city === "string" ? [change.city] : [])))];
  const categorySlugs = [...new Set(changes.flatMap((change) => (typeof change.category === "string" ? [change.category] : [])))];
  const cities = citySlugs.length
    ? rowsOf<CityReference>(await tx.execute(sql`select id, slug, country_code, admin_region from cities where slug = any(${textList(citySlugs)})`))
    : [];
  const categories = categorySlugs.length
    ? rowsOf<{ slug: string }>(await tx.execute(sql`select slug from categories where slug = any(${textList(categorySlugs)})`))
    : [];
  const references = { cities: new Map(cities.map((city) => [city.slug, city])), categories: new Set(categories.map((category) => category.slug)) };
  const unknownCity = citySlugs.find((slug) => !references.cities.has(slug));
  if (unknownCity) throw new DomainError("INVALID_INPUT", `Invalid city: no city has the slug "${unknownCity}"`, { property: "city" });
  const unknownCategory = categorySlugs.find((slug) => !references.categories.has(slug));
  if (unknownCategory) throw new DomainError("INVALID_INPUT", `Invalid category: no category has the slug "${unknownCategory}"`, { property: "category" });
  return references;
}

/** The row with the changed claims' values in their columns. Values are already validated (claim-values.ts). */
export function projectClaims(row: ProjectionRow, changes: Partial<Record<ClaimProperty, unknown>>, references: References): ProjectionRow {
  const next = { ...row };
  for (const [property, value] of Object.entries(changes) as [ClaimProperty, unknown][]) {
    switch (property) {
      case "category":
        next.category_slug = value as string;
        break;
      case "city": {
        const city = references.cities.get(value as string)!;
        Object.assign(next, { city_id: city.id, state: city.admin_region, country: city.country_code });
        break;
      }
      case "coordinates": {
        const { lat, lng } = value as { lat: number; lng: number };
        Object.assign(next, { lat, lng });
        break;
      }
      case "address":
        next.address = value as string | null;
        break;
      case "postalCode":
        next.postal_code = value as string | null;
        break;
      case "openingHours":
        next.opening_hours = value as unknown[];
        break;
      case "reviewCount":
        next.review_count = value as number;
        break;
      case "operatingStatus": {
        // A permanent closure leaves every list through the servable condition (status = 'active'),
        // so no search query changes; any other status brings back only what a closure took out
        // (an admin's decommission or a registry's removal stays).
        const { status, reopensOn } = value as { status: string; reopensOn?: string };
        if (status === "permanently_closed" && next.status === "active") Object.assign(next, { status: "inactive", inactive_reason: "closed" });
        else if (status !== "permanently_closed" && next.inactive_reason === "closed") Object.assign(next, { status: "active", inactive_reason: null });
        // A temporary closure keeps the business listed, marked, and out of open filters.
        next.temporary_closure = status === "temporarily_closed" ? { status, ...(reopensOn ? { reopensOn } : {}) } : null;
        break;
      }
      case "openingHoursText":
        // Shown as a claim beside the parsed hours; no column of its own.
        break;
      default:
        Object.assign(next, { [property]: value });
    }
  }
  return next;
}

/** The row with the freshness of the business's current claims (all of them, after the write). */
export function withFreshness(row: ProjectionRow, current: readonly HeldClaim[]): ProjectionRow {
  const freshness = listingFreshness(current);
  return { ...row, last_verified_at: freshness.lastVerifiedAt?.toISOString() ?? null, facts_stale_after: freshness.factsStaleAfter };
}

/** Writes the projected columns of each row in one statement; the keyword-search row follows through its trigger. */
export async function writeProjections(tx: Db, rows: readonly ProjectionRow[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  const assignments = sql.raw(PROJECTED_COLUMNS.map((column) => `${column} = v.${column}`).join(", "));
  await tx.execute(sql`
    update businesses b set ${assignments}, updated_at = ${at.toISOString()}::timestamptz
    from jsonb_populate_recordset(null::businesses, ${JSON.stringify(rows)}::jsonb) v
    where b.id = v.id`);
}
