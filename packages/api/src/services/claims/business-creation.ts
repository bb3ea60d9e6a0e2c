import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { rowsOf, type ClaimProperty, type Db } from "@directory/db";
import { kebab } from "@directory/db/seed";
import { DomainError } from "../../errors";
import { textList } from "../shared/sql-lists";
import { claimRecord, insertClaimRecords, validateClaims, type NewClaim } from "./claim-writes";
import { recordEntityUpdates } from "./outbox";
import { projectClaims, resolveReferences, withFreshness, type ProjectionRow } from "./projection";

/** A business to create: its first claims (name, category and city at least). */
export interface NewBusiness {
  claims: NewClaim[];
  /** Names it in errors ("node/123", "BUSINESS.json"). */
  label: string;
  ownership?: "unclaimed" | "owner_verified";
}

const REQUIRED: readonly ClaimProperty[] = ["name", "category", "city"];
/** Numbered slugs tried before a random suffix: "cafe-roma-vaduz-2" ... "-9". */
const NUMBERED_SLUGS = 9;

/**
 * Creates businesses in the caller's transaction through the same rules as every claim: values
 * validated and cleaned (claim-values.ts), the listing columns projected from the claims
 * (projection.ts), each claim current, one entity.updated ("created") per business.
 */
export async function createBusinesses(tx: Db, inputs: readonly NewBusiness[], at: Date = new Date()): Promise<{ id: string; slug: string }[]> {
  if (inputs.length === 0) return [];
  const valid = validateClaims(inputs);
  const values = valid.map((input) => {
    const byProperty = Object.fromEntries(input.claims.map((claim) => [claim.property, claim.value])) as Partial<Record<ClaimProperty, unknown>>;
    const missing = REQUIRED.find((property) => byProperty[property] === undefined);
    if (missing) throw new DomainError("INVALID_INPUT", `Invalid ${input.label}: a new business needs a ${missing}`, { property: missing });
    return byProperty;
  });
  const references = await resolveReferences(tx, values);
  const slugs = await allocateSlugs(
    tx,
    values.map((value) => slugBase(value.name as string, value.city as string)),
  );
  const rows = valid.map((input, index) => {
    const id = randomUUID();
    const empty: ProjectionRow = {
      ...{ id, slug: slugs[index]!, name: "", category_slug: "", city_id: 0, state: "", country: "", address: null, postal_code: null },
      ...{ lat: null, lng: null, phone: null, website: null, email: null, description: null, services: [], usp: null, tagline: null },
      ...{ keywords: [], opening_hours: [], rating: null, review_count: 0, status: "active", inactive_reason: null, temporary_closure: null },
      ...{ last_verified_at: null, facts_stale_after: null },
    };
    // Every claim of a new business is current.
    const held = input.claims.map((claim) => ({ property: claim.property, verification: claim.verification, observedAt: claim.observedAt ?? at }));
    const projected = withFreshness(projectClaims(empty, values[index]!, references), held);
    const times = { created_at: at.toISOString(), updated_at: at.toISOString() };
    return {
      ...projected,
      ...times,
      ownership: input.ownership ?? "unclaimed",
      plan_tier: "free",
      geo_score: 0,
      visibility_score: 0,
      is_demo: false,
    };
  });
  await tx.execute(sql`
    insert into businesses (id, slug, name, category_slug, city_id, state, country, address, postal_code, lat, lng, phone, website, email, description,
      services, usp, tagline, keywords, opening_hours, rating, review_count, ownership, plan_tier, status, inactive_reason, temporary_closure, last_verified_at, facts_stale_after, geo_score, visibility_score, is_demo, created_at, updated_at)
    select id, slug, name, category_slug, city_id, state, country, address, postal_code, lat, lng, phone, website, email, description,
      services, usp, tagline, keywords, opening_hours, rating, review_count, ownership, plan_tier, status, inactive_reason, temporary_closure, last_verified_at, facts_stale_after, geo_score, visibility_score, is_demo, created_at, updated_at
    from jsonb_populate_recordset(null::businesses, ${JSON.stringify(rows)}::jsonb)`);
  await insertClaimRecords(
    tx,
    valid.flatMap((input, index) => input.claims.map((claim) => claimRecord(rows[index]!.id, claim, at))),
  );
  await recordEntityUpdates(
    tx,
    rows.map((row, index) => ({
      businessId: row.id,
      slug: row.slug,
      change: "created" as const,
      properties: valid[index]!.claims.map((claim) => claim.property),
    })),
    at,
  );
  return rows.map((row) => ({ id: row.id, slug: row.slug }));
}

/** "Café Roma" in vaduz-li: "cafe-roma-vaduz"; a name with no Latin letters keeps the city and a short id. */
export function slugBase(name: string, citySlug: string): string {
  const city = citySlug.replace(/-[a-z]{2}$/, "");
  const words = kebab(name).slice(0, 80).replace(/-+$/, "");
  return words ? `${words}-${city}` : `${city}-${randomBytes(3).toString("hex")}`;
}

/** A free slug per base (current or retired slugs count as taken), checked by exact index lookups only. */
async function allocateSlugs(tx: Db, bases: readonly string[]): Promise<string[]> {
  const numbered = (base: string) => Array.from({ length: NUMBERED_SLUGS - 1 }, (_, n) => `${base}-${n + 2}`);
  // Most bases are free: look up the bases first, and numbered forms only for those taken.
  const taken = await takenSlugs(tx, [...new Set(bases)]);
  // Taken, or wanted twice in this batch (a set: indexOf per base was quadratic, 4 ms a batch of 500).
  const wanted = new Set<string>();
  const crowded = new Set<string>();
  for (const base of bases) {
    if (taken.has(base) || wanted.has(base)) crowded.add(base);
    wanted.add(base);
  }
  for (const slug of await takenSlugs(tx, [...crowded].flatMap(numbered))) taken.add(slug);
  return bases.map((base) => {
    const free = [base, ...numbered(base)].find((slug) => !taken.has(slug)) ?? `${base}-${randomBytes(3).toString("hex")}`;
    taken.add(free);
    return free;
  });
}

async function takenSlugs(tx: Db, candidates: readonly string[]): Promise<Set<string>> {
  if (candidates.length === 0) return new Set();
  const list = textList(candidates);
  const rows = rowsOf<{ slug: string }>(
    await tx.execute(sql`select slug from businesses where slug = any(${list}) union all select slug from slug_history where slug = any(${list})`),
  );
  return new Set(rows.map((row) => row.slug));
}
