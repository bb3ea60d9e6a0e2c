/**
 * The questions a check asks, one per period: the variant is chosen by the day, so each engine and
 * pair is asked one question a day and every variant in turn. Stated in docs/citation-checks.md.
 */
export const CITATION_QUESTION_TEMPLATES = [
  "Who is the best {category} in {city}?",
  "Which {category} in {city} would you recommend?",
  "I need a good {category} in {city}. Who should I call?",
] as const;

/** The UTC day of a moment, as the checks' period ("2026-11-29"). */
export function periodOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The question of a category and a city for the period (its day picks the variant). */
export function citationQuestion(categoryName: string, cityName: string, period: string): string {
  const day = Math.floor(Date.parse(`${period}T00:00:00Z`) / 86_400_000);
  const template = CITATION_QUESTION_TEMPLATES[day % CITATION_QUESTION_TEMPLATES.length]!;
  return template.replace("{category}", categoryName.toLowerCase()).replace("{city}", cityName);
}
