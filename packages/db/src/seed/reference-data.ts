import type { Db } from "../client";
import { buyerQuestions } from "../schema/buyer-questions";
import { categories } from "../schema/categories";
import { cities } from "../schema/cities";
import type { City } from "../schema/cities";
import { categoryQuestionTemplates } from "./buyer-questions";
import { CATEGORIES } from "./categories";
import { CATEGORY_PROFILES } from "./category-profiles";
import { insertAsJson, insertInChunks } from "./insert";
import { createRng } from "./random";

/** Categories, cities and the per-category question templates, in one transaction. */
export async function insertReferenceData(db: Db, seed: number, demoCities: readonly City[]): Promise<void> {
  const rng = createRng(seed, "category-questions");
  const templates = CATEGORIES.flatMap((category) => categoryQuestionTemplates(rng, category, CATEGORY_PROFILES[category.slug]));
  await db.transaction(async (tx) => {
    await insertInChunks(
      tx,
      categories,
      CATEGORIES.map((category) => ({ ...category, synonyms: [...category.synonyms] })),
    );
    await insertInChunks(tx, cities, [...demoCities]);
    await insertAsJson(tx, buyerQuestions, templates);
  });
}

/**
 * Adds the categories of the taxonomy a database does not have yet: an empty database before its
 * first import, or one seeded before a category was added. Existing rows are left as they are.
 */
export async function insertMissingCategories(db: Db): Promise<void> {
  await db
    .insert(categories)
    .values(CATEGORIES.map((category) => ({ ...category, synonyms: [...category.synonyms] })))
    .onConflictDoNothing({ target: categories.slug });
}
