import { sql, type SQL } from "drizzle-orm";

/** SQL pieces every graph answer shares: which businesses may appear, and how a business is shown. */

/** Every answer is bounded: neighbours, pairs and categories per answer; documents per edge. */
export const GRAPH_LIMITS = { neighbours: 20, documentsPerEdge: 3, pairs: 20, categories: 20 } as const;
/** SQL twin of isDecommissioned for a businesses alias: only servable businesses enter an answer. */
export function servable(alias: string): SQL {
  const b = sql.raw(alias);
  return sql`${b}.status = 'active' and (${b}.subscription_expires_at is null or ${b}.subscription_expires_at > now())`;
}

/**
 * The businesses no graph answer may show (inactive or expired), as a CTE body: a few rows read
 * from businesses_inactive_idx and businesses_expiry_idx, so answers can leave them out without
 * reading a wide businesses row per mention.
 */
export const NOT_LIVE = sql`select id from businesses where status <> 'active'
  union select id from businesses where subscription_expires_at is not null and subscription_expires_at <= now()`;

/** Both ends live; two anti-joins, since one with an OR of the ends becomes a nested loop (minutes at 1M). */
export const edgeIsLive = sql`not exists (select 1 from not_live n where n.id = e.business_a) and not exists (select 1 from not_live n where n.id = e.business_b)`;

export interface BusinessRefRow {
  id: string;
  slug: string;
  name: string;
  category_slug: string;
  city_name: string;
}

export function businessRef(row: BusinessRefRow) {
  return { id: row.id, slug: row.slug, name: row.name, categorySlug: row.category_slug, city: row.city_name };
}
