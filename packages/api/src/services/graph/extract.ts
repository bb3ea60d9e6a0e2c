import { AhoCorasick } from "@monyone/aho-corasick";

/** A name the extractor looks for, and the business it stands for. */
export interface DictionaryEntry {
  businessId: string;
  name: string;
  /** "name" for the current name; "former_name" for one from claim or slug history. */
  kind: "name" | "former_name";
  cityId: number;
  cityName: string;
  categorySlug: string;
}

/** Where a document's names are looked up; a document with neither has no mentions. */
export interface DocumentContext {
  cityId: number | null;
  categorySlug: string | null;
}

export interface ExtractedMention {
  businessId: string;
  /** UTF-16 offset and length of the first occurrence in the original text. */
  offset: number;
  length: number;
  /** 1-based rank among the businesses the text names, by first occurrence. */
  position: number;
  confidence: number;
  matchedAs: DictionaryEntry["kind"];
}

/** Mentions below this confidence are not kept: a name this unsure is noise, not a citation. */
export const MIN_MENTION_CONFIDENCE = 0.3;
/** Names shorter than this (after folding) match too much ordinary text to mean a business. */
const MIN_NAME_LENGTH = 4;

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Lower-cases code point by code point, keeping every offset (a code point whose lower case has a
 * different length stays as it is) and folding typographic apostrophes, so a match in the folded
 * text is at the same offsets in the original.
 */
export function foldForMatching(text: string): string {
  let folded = "";
  for (const char of text) {
    const lower = char === "\u2019" ? "'" : char.toLowerCase();
    folded += lower.length === char.length ? lower : char;
  }
  return folded;
}

/** True unless a letter or digit sits on both sides of `at` (inside a word). */
function isWordBoundary(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return true;
  const before = Array.from(text.slice(Math.max(0, at - 2), at)).pop() ?? "";
  const after = String.fromCodePoint(text.codePointAt(at)!);
  return !(WORD_CHAR.test(before) && WORD_CHAR.test(after));
}

/** Compiled names of one context (a city, or a category); reuse it for every document there. */
export class MentionMatcher {
  private readonly automaton: AhoCorasick;
  private readonly entriesByName = new Map<string, DictionaryEntry[]>();

  constructor(entries: readonly DictionaryEntry[]) {
    for (const entry of entries) {
      const key = foldForMatching(entry.name.trim());
      if (key.length < MIN_NAME_LENGTH) continue;
      const list = this.entriesByName.get(key);
      if (!list) this.entriesByName.set(key, [entry]);
      else if (!list.some((other) => other.businessId === entry.businessId)) list.push(entry);
      // A current name wins over a former one of the same business.
      else if (entry.kind === "name")
        list.splice(
          list.findIndex((other) => other.businessId === entry.businessId),
          1,
          entry,
        );
    }
    this.automaton = new AhoCorasick([...this.entriesByName.keys()].sort());
  }

  /**
   * Business names in the text, as whole words, longest match first where names overlap. The same
   * text and dictionary always give the same mentions.
   *
   * Confidence: a current name 0.95, a former one 0.8, divided among the businesses of the context
   * sharing it (those of the document's category, if any share it).
   * With no city context (a category-wide dictionary) a shared name keeps its confidence only for
   * the businesses whose city the text also names; otherwise it is halved as well.
   */
  extract(text: string, context: DocumentContext): ExtractedMention[] {
    const folded = foldForMatching(text);
    const hits = this.automaton
      .matchInText(folded)
      .filter((hit) => isWordBoundary(folded, hit.begin) && isWordBoundary(folded, hit.end))
      .sort((x, y) => x.begin - y.begin || y.end - x.end);
    const mentions = new Map<string, ExtractedMention>();
    let coveredUntil = 0;
    for (const hit of hits) {
      if (hit.begin < coveredUntil) continue;
      coveredUntil = hit.end;
      const candidates = this.entriesByName.get(hit.keyword) ?? [];
      for (const { entry, confidence } of scoreCandidates(candidates, folded, context)) {
        if (confidence < MIN_MENTION_CONFIDENCE || mentions.has(entry.businessId)) continue;
        mentions.set(entry.businessId, {
          businessId: entry.businessId,
          offset: hit.begin,
          length: hit.end - hit.begin,
          position: mentions.size + 1,
          confidence,
          matchedAs: entry.kind,
        });
      }
    }
    return [...mentions.values()];
  }
}

function scoreCandidates(candidates: readonly DictionaryEntry[], folded: string, context: DocumentContext) {
  const base = (entry: DictionaryEntry) => (entry.kind === "name" ? 0.95 : 0.8);
  const inScope = candidates.filter((entry) => (context.cityId === null ? entry.categorySlug === context.categorySlug : entry.cityId === context.cityId));
  // A name shared within the city is narrowed to the document's category where that settles it.
  const inCategory = inScope.filter((entry) => entry.categorySlug === context.categorySlug);
  const inContext = inCategory.length > 0 ? inCategory : inScope;
  if (context.cityId !== null || inContext.length <= 1) {
    return inContext.map((entry) => ({ entry, confidence: round(base(entry) / inContext.length) }));
  }
  const cityNamed = inContext.filter((entry) => folded.includes(foldForMatching(entry.cityName)));
  if (cityNamed.length > 0) return cityNamed.map((entry) => ({ entry, confidence: round(base(entry) / cityNamed.length) }));
  return inContext.map((entry) => ({ entry, confidence: round(base(entry) / (2 * inContext.length)) }));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
