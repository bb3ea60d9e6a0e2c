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
 * the pair, so deriving twice writes nothing new.
 */
export async function addCitationChecks(db: Db, documentIds: readonly string[] | null): Promise<void> {
  await db.execute(sql`
    with concerned as (
      select d.id as document_id, b.id as business_id
      from documents d join businesses b on b.city_id = d.city_id and b.category_slug = d.category_slug
      where d.kind = 'ai_answer' and ${documentFilter("d", documentIds)}
      union
      select d.id, m.business_id
      from documents d join document_mentions m on m.document_id = d.id
      where d.kind = 'ai_answer' and ${documentFilter("d", documentIds)}
    )
    insert into citation_checks (id, business_id, engine, query, mentioned, checked_at, document_id, position)
    select md5(c.document_id::text || c.business_id::text)::uuid, c.business_id, d.engine, d.query,
           m.business_id is not null, d.fetched_at, d.id, m.position
    from concerned c
    join documents d on d.id = c.document_id
    join businesses b on b.id = c.business_id and b.ownership = 'owner_verified'
    left join document_mentions m on m.document_id = c.document_id and m.business_id = c.business_id
    on conflict (document_id, business_id) do nothing`);
}

/**
 * The internal visibility score (0..100; orders ties within a plan tier): over the AI answers that
 * concern a business (as for citation checks), the mean of 1/sqrt(position) where it is named and
 * 0 where it is not. `businesses` selects whose score to recompute: those of the new documents'
 * cities and categories and those they name; null recomputes every business that is named.
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
    concerned as (
      select d.id as document_id, b.id as business_id
      from affected a
      join businesses b on b.id = a.id
      join documents d on d.kind = 'ai_answer' and d.city_id = b.city_id and d.category_slug = b.category_slug
      union
      select m.document_id, m.business_id
      from affected a
      join document_mentions m on m.business_id = a.id
      join documents d on d.id = m.document_id and d.kind = 'ai_answer'
    )
    update businesses target set visibility_score = scored.score
    from (
      select c.business_id as id, round(100 * avg(case when m.position is null then 0 else 1 / sqrt(m.position) end))::int as score
      from concerned c
      left join document_mentions m on m.document_id = c.document_id and m.business_id = c.business_id
      group by c.business_id
    ) scored
    where target.id = scored.id and target.visibility_score <> scored.score`);
}
