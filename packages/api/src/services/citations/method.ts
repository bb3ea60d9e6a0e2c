import { CITATION_QUESTION_LANGUAGE_RULE, CITATION_QUESTION_TEMPLATES } from "./questions";

const questionList = CITATION_QUESTION_TEMPLATES.map((template) => `"${template}"`).join(", ");

/**
 * How citation checks are made and scored, written once: owner.citations and owner.visibility
 * serve it with every answer (get_my_citations, get_my_visibility_score, the owner dashboard), and
 * docs/citation-checks.md quotes each part word for word (citation-recheck.test.ts holds them to it).
 */
export const CITATION_METHOD = {
  questions:
    `A check asks one engine one question about a category in a city, in English: ${questionList}. ` +
    "The UTC day picks the variant in turn. The question is sent as it is, with no system prompt and no listing data. " +
    CITATION_QUESTION_LANGUAGE_RULE,
  schedule:
    "Each UTC day the worker queues the pairs of a category and a city not yet checked that day, those with an owner-verified " +
    "listing first, then the least recently checked, then the largest, as many as CITATION_CHECKS_PER_DAY engine calls cover; " +
    "one check per engine, model, pair and question a day. A failed call is retried after 1 minute, 10 minutes and 1 hour, then recorded as failed.",
  recheck:
    "An owner may ask for a recheck of their own category and city once per UTC day: one check per configured engine, " +
    "queued for the worker, within the same daily budget; businesses of one pair asking the same day share it.",
  mentions:
    "The answer is stored with the engine, the model, the question and the time. Business names of the pair's city are found in " +
    "it as whole words (current and former names, case-insensitive); a business's position is its rank among the businesses " +
    "the answer names, by first occurrence.",
  score:
    "The visibility score is, over every AI answer on record for the business's city and category (and any other answer naming it), " +
    "the mean of 1/sqrt(position) where it is named and 0 where it is not, times 100: named first in every answer is 100, never named is 0.",
} as const;
