import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@directory/db";
import type { DictionaryEntry, DocumentContext } from "./extract";

interface NameRow extends Record<string, unknown> {
  business_id: string;
  name: string;
  /** What the SQL below yields: a current name, a former name from claims, or a retired slug. */
  kind: "name" | "former_name" | "slug";
  city_id: number;
  city_name: string;
  city_slug: string;
  category_slug: string;
}

/**
 * The names to look for in a document of this context: every business of the city (else of the
 * category), decommissioned ones too (they are left out when the graph is read, so reinstating a
 * business brings its edges back), with the former names from claim and slug history.
 *
 * With `withinText` (the document's text, folded by foldForMatching), only the current names that
 * can occur in it are read: a large city has tens of thousands of names, and reading and compiling
 * them all for one answer cost the better part of a second. The narrowing keeps every name the
 * matcher could find: an ASCII name matches only where its lower case is a substring of the
 * folded text (ASCII lower-cases alike in JavaScript and PostgreSQL); names with other characters
 * are all kept, as the two may fold those differently.
 */
export async function loadDictionary(db: Db, context: DocumentContext, withinText?: string): Promise<DictionaryEntry[]> {
  if (context.cityId === null && context.categorySlug === null) return [];
  const scope = context.cityId !== null ? sql`b.city_id = ${context.cityId}` : sql`b.category_slug = ${context.categorySlug}`;
  const canOccur =
    withinText === undefined
      ? sql`true`
      : sql`(strpos(${withinText}, lower(btrim(name, E' \\t\\n\\r\\f\\x0b'))) > 0 or octet_length(name) <> char_length(name))`;
  const rows = await db.execute<NameRow>(sql`
    with scoped as (
      select b.id, b.name, b.city_id, b.category_slug, c.name as city_name, c.slug as city_slug
      from businesses b join cities c on c.id = b.city_id
      where ${scope}
    )
    select id as business_id, name, 'name' as kind, city_id, city_name, city_slug, category_slug from scoped where ${canOccur}
    union all
    select s.id, cl.value #>> '{}', 'former_name', s.city_id, s.city_name, s.city_slug, s.category_slug
    from scoped s join claims cl on cl.business_id = s.id and cl.property = 'name' and cl.superseded_at is not null
    union all
    select s.id, h.slug, 'slug', s.city_id, s.city_name, s.city_slug, s.category_slug
    from scoped s join slug_history h on h.business_id = s.id
    order by business_id, kind, name`);
  return rowsOf<NameRow>(rows).map((row) => ({
    businessId: row.business_id,
    name: row.kind === "slug" ? (nameFromSlug(row.name, row.city_slug) ?? "") : row.name,
    kind: row.kind === "name" ? "name" : "former_name",
    cityId: row.city_id,
    cityName: row.city_name,
    categorySlug: row.category_slug,
  }));
}

/** "old-name-mumbai" or "old-name-mumbai-2" -> "old name": a retired slug as the name it spelled. */
function nameFromSlug(slug: string, citySlug: string): string | null {
  const match = new RegExp(`^(.+)-${citySlug}(?:-\\d+)?$`).exec(slug);
  return match ? match[1]!.replace(/-/g, " ") : null;
}
