import { closestMatch } from "leven";
import type { ReferenceData } from "./reference-data";

/**
 * Spelling correction for free-text search. A misspelt word ("dentst") matches no lexeme, and
 * matching it by trigram against a million names costs ~400 ms to find nothing. What people
 * misspell is mostly what they look for, so each unknown word is corrected against the words of
 * category names, singulars and synonyms, held in memory with the reference data: no round trip.
 */

/** Shorter words are too ambiguous to correct ("cat" is one edit from "car"). */
const MIN_CORRECTABLE_LENGTH = 4;

const vocabularies = new WeakMap<ReferenceData, { words: string[]; known: Set<string> }>();

const WORD = /[\p{L}\p{N}]+/gu;

/** Category words, most popular category first, so a tie between two corrections picks the likelier. */
function vocabularyOf(data: ReferenceData) {
  let vocabulary = vocabularies.get(data);
  if (!vocabulary) {
    const byPopularity = [...data.categories].sort((a, b) => b.popularity - a.popularity);
    const words = new Set<string>();
    for (const category of byPopularity) {
      for (const text of [category.name, category.singular, category.slug, ...category.synonyms]) {
        for (const word of text.toLowerCase().match(WORD) ?? []) if (word.length >= MIN_CORRECTABLE_LENGTH) words.add(word);
      }
    }
    vocabulary = { words: [...words], known: words };
    vocabularies.set(data, vocabulary);
  }
  return vocabulary;
}

/** One edit for words of up to five letters, two for longer ones. */
function maxEdits(word: string): number {
  return word.length <= 5 ? 1 : 2;
}

/**
 * The query with each unknown word replaced by its closest category word within maxEdits, or null
 * when no word changed or a word stays unknown. A word no category resembles ("Smil" in a
 * misspelt "Smil Denta Clinc") says the query names a business, not a kind of business: then
 * correcting the other words would turn it into a category search and lose the business, so the
 * caller's name match should have it.
 */
export function correctSpelling(data: ReferenceData, query: string): string | null {
  const vocabulary = vocabularyOf(data);
  let changed = false;
  let unknownLeft = false;
  const corrected = query.toLowerCase().replace(WORD, (word) => {
    if (word.length < MIN_CORRECTABLE_LENGTH || vocabulary.known.has(word)) return word;
    const closest = closestMatch(word, vocabulary.words, { maxDistance: maxEdits(word) });
    if (closest === undefined) {
      unknownLeft = true;
      return word;
    }
    changed = true;
    return closest;
  });
  return changed && !unknownLeft ? corrected : null;
}
