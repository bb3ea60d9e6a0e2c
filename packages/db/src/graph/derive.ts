import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";

/**
 * Everything derived from documents, as SQL over their mentions. `documentIds` limits the work to
 * newly stored documents (ingest: incremental); null derives from all of them (seed: once).
 */
function documentFilter(alias: string, documentIds: readonly string[] | null): SQL {
  if (documentIds === null) return sql`true`;
  if (documentIds.length === 0) return sql`false`;
  return sql`${sql.raw(alias)}.id = any(${`{${documentIds.join(",")}}`}::uuid[])`;
}

/** Adds each new document's business pairs to their edges (weight = documents naming both). */
export async function addCoMentionEdges(db: Db, documentIds: readonly string[] | null): Promise<void> {
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
 * A citation check per AI answer and owner-verified business it concerns: the businesses of the
 * answer's city and category (mentioned or not) and any business it names. The id is derived from
 * the pair, so deriving twice writes nothing new. Owners are filtered before the pairs are formed:
 * at a million businesses the unfiltered pairs are millions more rows to de-duplicate.
 */
export async function addCitationChecks(db: Db, documentIds: readonly string[] | null): Promise<void> {
  await db.execute(sql`
    with concerned as (
      select d.id as document_id, b.id as business_id
      from documents d join businesses b on b.city_id = d.city_id and b.category_slug = d.category_slug and b.ownership = 'owner_verified'
      where d.kind = 'ai_answer' and ${documentFilter("d", documentIds)}
      union
      select d.id, m.business_id
      from documents d
      join document_mentions m on m.document_id = d.id
      join businesses b on b.id = m.business_id and b.ownership = 'owner_verified'
      where d.kind = 'ai_answer' and ${documentFilter("d", documentIds)}
    )
    insert into citation_checks (id, business_id, engine, query, mentioned, checked_at, document_id, position)
    select md5(c.document_id::text || c.business_id::text)::uuid, c.business_id, d.engine, d.query,
           m.business_id is not null, d.fetched_at, d.id, m.position
    from concerned c
    join documents d on d.id = c.document_id
    left join document_mentions m on m.document_id = c.document_id and m.business_id = c.business_id
    on conflict (document_id, business_id) do nothing`);
}

/**
 * The internal visibility score (0..100; orders ties within a plan tier): over the AI answers that
 * concern a business (those of its city and category, and any that name it), the mean of
 * 1/sqrt(position) where it is named and 0 where it is not. Computed from counts, not pairs: the
 * credit sums over the business's mentions, the denominator is its context's answers plus the
 * answers that name it from outside that context (one mention per document and business).
 * `documentIds` selects whose score to recompute: the businesses of the new documents' cities and
 * categories and those they name; null recomputes every business that is named.
 */
export async function refreshVisibilityScores(db: Db, documentIds: readonly string[] | null): Promise<void> {
  const affected =
    documentIds === null
      ? sql`select distinct business_id as id from document_mentions`
      : sql`select b.id from documents d join businesses b on b.city_id = d.city_id and b.category_slug = d.category_slug
            where d.kind = 'ai_answer' and ${documentFilter("d", documentIds)}
            union
            select m.business_id from documents d join document_mentions m on m.document_id = d.id where ${documentFilter("d", documentIds)}`;
  await db.execute(sql`
    with affected as (${affected}),
    context_answers as (
      select city_id, category_slug, count(*) as answers from documents where kind = 'ai_answer' group by city_id, category_slug
    ),
    named as (
      select m.business_id,
             sum(1 / sqrt(m.position)) as credit,
             count(*) filter (where d.city_id is distinct from b.city_id or d.category_slug is distinct from b.category_slug) as outside
      from affected a
      join document_mentions m on m.business_id = a.id
      join documents d on d.id = m.document_id and d.kind = 'ai_answer'
      join businesses b on b.id = m.business_id
      group by m.business_id
    ),
    scored as (
      select a.id, coalesce(round(100 * n.credit / nullif(coalesce(c.answers, 0) + n.outside, 0))::int, 0) as score
      from affected a
      join businesses b on b.id = a.id
      left join named n on n.business_id = a.id
      left join context_answers c on c.city_id = b.city_id and c.category_slug = b.category_slug
    )
    update businesses target set visibility_score = scored.score
    from scored
    where target.id = scored.id and target.visibility_score <> scored.score`);
}
