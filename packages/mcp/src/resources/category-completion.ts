import type { DirectoryClient } from "@directory/sdk";

/** The MCP specification's cap on the values of one completion. */
const MAX_COMPLETIONS = 100;

const fold = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[-_\s]+/g, " ")
    .trim();

interface CategoryWords {
  slug: string;
  name: string;
  synonyms: string[];
  listings: number;
}

/**
 * How well a category answers what was typed: 0 = its slug or name starts with it, 1 = a word of
 * them or a synonym starts with it, 2 = any of them contains it; null = not at all.
 */
function rankOf(category: CategoryWords, typed: string): number | null {
  const own = [fold(category.slug), fold(category.name)];
  const synonyms = category.synonyms.map(fold);
  if (own.some((text) => text.startsWith(typed))) return 0;
  if ([...own, ...synonyms].some((text) => text.startsWith(typed) || text.split(" ").some((word) => word.startsWith(typed)))) return 1;
  if ([...own, ...synonyms].some((text) => text.includes(typed))) return 2;
  return null;
}

/** The category slugs that fit what was typed, best first, then most listings: the values category arguments take. */
export function matchCategories(categories: readonly CategoryWords[], value: string): string[] {
  const typed = fold(value);
  return categories
    .map((category) => ({ category, rank: typed === "" ? 0 : rankOf(category, typed) }))
    .filter((entry): entry is { category: CategoryWords; rank: number } => entry.rank !== null)
    .sort((a, b) => a.rank - b.rank || b.category.listings - a.category.listings || a.category.slug.localeCompare(b.category.slug))
    .slice(0, MAX_COMPLETIONS)
    .map((entry) => entry.category.slug);
}

/**
 * A completion callback for category arguments (prompts and resource templates), from the
 * category list the service publishes (GET /api/v2/categories); a failed call completes nothing
 * rather than failing the client's keystroke.
 */
export function completeCategory(client: DirectoryClient): (value: string) => Promise<string[]> {
  return async (value) => {
    try {
      const { categories } = await client.search.listCategories.query({});
      return matchCategories(categories, value);
    } catch {
      return [];
    }
  };
}
