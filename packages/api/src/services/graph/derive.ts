import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@directory/db";

/**
 * Everything derived from documents, as SQL over their mentions. `documentIds` limits the work to
 * newly stored documents (ingest: incremental); null derives from all of them (seed: once).
 */
export interface DerivationScope {
  documentIds: readonly string[] | null;
}

function documentFilter(alias: string, documentIds: readonly string[] | null): SQL {
  if (documentIds === null) return sql`true`;
  if (documentIds.length === 0) return sql`false`;
  return sql`${sql.raw(alias)}.id = any(${`{${documentIds.join(",")}}`}::uuid[])`;
}

/** Adds each new document's business pairs to their edges (weight = documents naming both). */
export async function addCoMentionEdges(db: Db, { documentIds }: DerivationScope): Promise<void> {
  await db.execute(sql`
    insert into co_mention_edges (business_a, business_b, weight)
    select a.business_id, b.business_id, count(*)::int
    from documents d
    join document_mentions a on a.document_id = d.id
    join document_mentions b on b.document_id = d.id and a.business_id < b.business_id
    where ${documentFilter("d", documentIds)}
    group by a.business_id, b.business_id
    on conflict (business_a, business_b) do update set weight = co_mention_edges.weight + excluded.weight`);
}

/**
 * The internal visibility score (0..100; orders ties within a plan tier): over the AI answers that
 * concern a business (those of its city and category, and any that name it), the mean of
 * 1/sqrt(position) where it is named and 0 where it is not. A business never named scores 0, so
 * only named businesses are computed, from counts rather than answer x business pairs: the credit
 * sums over its mentions, the denominator is its context's answers plus the answers that name it
 * from outside that context (one mention per document and business). Mentions carry their
 * business's city and category, so no businesses row is read until the update.
 * `documentIds` limits the work to the businesses the new documents affect: those they name, and
 * those named before in the new answers' cities and categories (their denominators grew); null
 * recomputes every named business.
 */
export async function refreshVisibilityScores(db: Db, { documentIds }: DerivationScope): Promise<void> {
  const affected =
    documentIds === null
      ? sql`select distinct business_id as id, city_id, category_slug from document_mentions`
      : sql`select m.business_id as id, m.city_id, m.category_slug from document_mentions m
            where (m.city_id, m.category_slug) in (
              select d.city_id, d.category_slug from documents d where d.kind = 'ai_answer' and ${documentFilter("d", documentIds)})
            union
            select m.business_id, m.city_id, m.category_slug from documents d join document_mentions m on m.document_id = d.id
            where ${documentFilter("d", documentIds)}`;
  await db.execute(sql`
    with affected as (${affected}),
    context_answers as (
      select city_id, category_slug, count(*) as answers from documents where kind = 'ai_answer' group by city_id, category_slug
    ),
    named as (
      select m.business_id,
             sum(1 / sqrt(m.position)) as credit,
             count(*) filter (where d.city_id is distinct from m.city_id or d.category_slug is distinct from m.category_slug) as outside
      from affected a
      join document_mentions m on m.business_id = a.id
      join documents d on d.id = m.document_id and d.kind = 'ai_answer'
      group by m.business_id
    ),
    scored as (
      select a.id, coalesce(round(100 * n.credit / nullif(coalesce(c.answers, 0) + n.outside, 0))::int, 0) as score
      from affected a
      left join named n on n.business_id = a.id
      left join context_answers c on c.city_id = a.city_id and c.category_slug = a.category_slug
    )
    update businesses target set visibility_score = scored.score
    from scored
    where target.id = scored.id and target.visibility_score <> scored.score`);
}
