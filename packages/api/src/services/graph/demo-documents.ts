import { asc, desc, eq, sql } from "drizzle-orm";
import { businesses, cities, documentMentions, documents, type City, type Db } from "@directory/db";
import { CATEGORIES, createRng, DAY_SECONDS, DEFAULT_SEED, DEMO_EPOCH_MS, insertAsJson, type JsonRow, type Rng } from "@directory/db/seed";
import { addCoMentionEdges, refreshVisibilityScores } from "./derive";
import { loadDictionary } from "./dictionary";
import { MentionMatcher } from "./extract";
import { contentHash, type IncomingDocument } from "./ingest";

/** Documents written per transaction (with their mentions). */
const DOCUMENTS_PER_TRANSACTION = 5_000;
const ENGINES = ["chatgpt", "perplexity", "gemini", "claude", "copilot"] as const;
/**
 * AI answers per city and category: each is a citation check for that pair's businesses. A category
 * with one business in the city gets one (there is nothing to co-cite in it).
 */
const ANSWERS_PER_PAIR = 3;
/** City guides (articles) per city, each naming businesses of related categories. */
const GUIDES_PER_CITY = 6;
/** Categories a buyer tends to need together; guides draw from one theme. */
const THEMES: readonly (readonly string[])[] = [
  ["dentist", "doctor", "pharmacy", "optician", "dermatologist", "pediatrician", "physiotherapist", "hospital", "psychologist"],
  ["plumber", "electrician", "painter", "roofer", "carpenter", "general-contractor", "hvac-contractor", "locksmith", "hardware-store"],
  ["restaurant", "cafe", "bakery", "bar", "fast-food", "ice-cream-shop", "hotel"],
  ["hair-salon", "beauty-salon", "spa", "gym", "yoga-studio"],
  ["real-estate-agent", "moving-company", "cleaning-service", "self-storage", "furniture-store", "interior-designer"],
  ["car-repair", "tire-shop", "car-wash", "car-dealer", "insurance-agency"],
  ["photographer", "event-planner", "florist", "tailor", "jewelry-store", "hotel"],
  ["accountant", "lawyer", "financial-advisor", "insurance-agency", "web-designer", "printing-service"],
];
const singularOf = new Map<string, string>(CATEGORIES.map((category) => [category.slug, category.singular]));

interface Candidate {
  id: string;
  name: string;
  categorySlug: string;
  reviewCount: number;
}

/** Better-known businesses (more reviews) are named more often, as in real answers. */
function pickKnown(rng: Rng, pool: readonly Candidate[], count: number): Candidate[] {
  const left = [...pool];
  const picked: Candidate[] = [];
  while (picked.length < count && left.length > 0) {
    const total = left.reduce((sum, candidate) => sum + candidate.reviewCount + 20, 0);
    let roll = rng.next() * total;
    let index = 0;
    while (index < left.length - 1 && (roll -= left[index]!.reviewCount + 20) >= 0) index++;
    picked.push(...left.splice(index, 1));
  }
  return picked;
}

function answerText(rng: Rng, named: readonly Candidate[], singular: string, city: string): { query: string; body: string } {
  const query = rng.pick([`best ${singular} in ${city}`, `which ${singular} in ${city} do you recommend?`, `top rated ${singular} near ${city} centre`]);
  if (named.length === 2 && rng.chance(0.5)) {
    const [first, second] = named as [Candidate, Candidate];
    return {
      query,
      body: `Both ${first.name} and ${second.name} are popular choices for a ${singular} in ${city}. ${first.name} has more reviews, while ${second.name} is often said to be easier to book. Compare prices before you decide.`,
    };
  }
  const lines = named.map(
    (candidate, index) =>
      `${index + 1}. ${candidate.name} - ${rng.pick(["well reviewed", "good value", "friendly staff", "quick to respond", "long established"])}`,
  );
  return { query, body: `Here are some ${singular} options in ${city} that people recommend:\n${lines.join("\n")}\nCheck opening hours before you visit.` };
}

function guideText(rng: Rng, named: readonly Candidate[], city: string): string {
  const parts = named.map((candidate) => `${rng.pick(["for a", "if you need a", "as a"])} ${singularOf.get(candidate.categorySlug)}, ${candidate.name}`);
  return `A local's guide to ${city}: ${parts.join("; ")}. These are the names that come up again and again.`;
}

function documentsForCity(seed: number, city: Pick<City, "id" | "name">, byCategory: Map<string, Candidate[]>): IncomingDocument[] {
  const rng = createRng(seed, "documents", city.id);
  const docs: IncomingDocument[] = [];
  const fetchedAt = (slot: number) => new Date(DEMO_EPOCH_MS + (slot * 45 + rng.int(0, 40)) * DAY_SECONDS * 1000);
  for (const [categorySlug, pool] of byCategory) {
    const singular = singularOf.get(categorySlug) ?? categorySlug;
    const answers = pool.length > 1 ? ANSWERS_PER_PAIR : 1;
    for (let answer = 0; answer < answers; answer++) {
      const named = pickKnown(rng, pool, Math.min(pool.length, rng.int(2, 5)));
      const { query, body } = answerText(rng, named, singular, city.name);
      docs.push({
        kind: "ai_answer",
        source: "demo:assistant-answers",
        engine: rng.pick(ENGINES),
        query,
        fetchedAt: fetchedAt(answer),
        language: "en",
        cityId: city.id,
        categorySlug,
        body,
      });
    }
  }
  for (let guide = 0; guide < GUIDES_PER_CITY; guide++) {
    const present = rng.pick(THEMES).filter((slug) => byCategory.has(slug));
    if (present.length < 2) continue;
    const named = rng.sample(present, Math.min(present.length, rng.int(2, 4))).flatMap((slug) => pickKnown(rng, byCategory.get(slug)!, 1));
    docs.push({
      kind: "article",
      source: "demo:city-guides",
      engine: null,
      query: null,
      fetchedAt: fetchedAt(guide % 4),
      language: "en",
      cityId: city.id,
      categorySlug: null,
      body: guideText(rng, named, city.name),
    });
  }
  return docs;
}

export interface DemoDocumentsParams {
  /** The seed the world's businesses were written with; default the demo seed's. */
  seed?: number;
}

/**
 * The demo world's documents, written as text first (AI answers per city and category, city
 * guides across related categories), then read with the same extractor an ingest uses. Citation
 * checks, co-mention edges and visibility scores are derived from them afterwards. Runs per city
 * after the businesses are stored, so memory holds one city at a time. Also gives a world seeded
 * before documents existed (its graph is empty) its documents.
 */
export async function seedDemoDocuments(db: Db, { seed = DEFAULT_SEED }: DemoDocumentsParams = {}): Promise<void> {
  let docRows: JsonRow<typeof documents>[] = [];
  let mentionRows: JsonRow<typeof documentMentions>[] = [];
  const flush = async () => {
    const [docs, mentions] = [docRows, mentionRows];
    [docRows, mentionRows] = [[], []];
    await db.transaction(async (tx) => {
      await insertAsJson(tx, documents, docs);
      await insertAsJson(tx, documentMentions, mentions);
    });
  };
  // The seeded cities in the seed's order (largest first), read back rather than loaded again from GeoNames.
  const demoCities = await db.select({ id: cities.id, name: cities.name }).from(cities).orderBy(desc(cities.population), asc(cities.id));
  for (const city of demoCities) {
    const rows = await db
      .select({ id: businesses.id, name: businesses.name, categorySlug: businesses.categorySlug, reviewCount: businesses.reviewCount })
      .from(businesses)
      .where(eq(businesses.cityId, city.id))
      .orderBy(asc(businesses.categorySlug), asc(businesses.id));
    if (rows.length === 0) continue;
    const byCategory = new Map<string, Candidate[]>();
    for (const row of rows) {
      const pool = byCategory.get(row.categorySlug);
      if (pool) pool.push(row);
      else byCategory.set(row.categorySlug, [row]);
    }
    const matcher = new MentionMatcher(await loadDictionary(db, { cityId: city.id, categorySlug: null }));
    const ids = createRng(seed, "document-ids", city.id);
    for (const doc of documentsForCity(seed, city, byCategory)) {
      const id = ids.uuid();
      const fetchedAt = doc.fetchedAt.getTime();
      docRows.push({ ...doc, model: doc.model ?? null, sources: doc.sources ?? [], id, fetchedAt, contentHash: contentHash(doc), ingestedAt: fetchedAt });
      // city_id and category_slug are the business's, filled by the insert trigger (migration 0012).
      for (const mention of matcher.extract(doc.body, doc)) mentionRows.push({ documentId: id, ...mention, cityId: null, categorySlug: null });
    }
    if (docRows.length >= DOCUMENTS_PER_TRANSACTION) await flush();
  }
  await flush();
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    await addCoMentionEdges(tx, { documentIds: null });
    await refreshVisibilityScores(tx, { documentIds: null });
  });
}
