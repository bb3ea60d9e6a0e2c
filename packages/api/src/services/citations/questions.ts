/**
 * The questions a check asks, one per period: the variant is chosen by the day, so each engine and
 * pair is asked one question a day and every variant in turn, in the city's language where it is
 * known (its country's one language), else in English. Stated in docs/citation-checks.md.
 */
export const CITATION_QUESTION_TEMPLATES_BY_LANGUAGE = {
  en: ["Who is the best {category} in {city}?", "Which {category} in {city} would you recommend?", "I need a good {category} in {city}. Who should I call?"],
  de: [
    "Wer ist der beste Anbieter für {category} in {city}?",
    "Welchen Anbieter für {category} in {city} würden Sie empfehlen?",
    "Ich brauche einen guten Anbieter für {category} in {city}. Wen soll ich anrufen?",
  ],
  fr: [
    "Quel est le meilleur professionnel pour {category} à {city} ?",
    "Quelle adresse pour {category} à {city} recommanderiez-vous ?",
    "J'ai besoin d'un bon professionnel pour {category} à {city}. Qui dois-je appeler ?",
  ],
  es: [
    "¿Quién es el mejor profesional de {category} en {city}?",
    "¿Qué {category} de {city} me recomendarías?",
    "Necesito un buen profesional de {category} en {city}. ¿A quién debería llamar?",
  ],
  it: [
    "Chi è il miglior professionista di {category} a {city}?",
    "Quale {category} a {city} mi consiglieresti?",
    "Ho bisogno di un buon professionista di {category} a {city}. Chi dovrei chiamare?",
  ],
  pt: [
    "Quem é o melhor profissional de {category} em {city}?",
    "Qual {category} em {city} você recomendaria?",
    "Preciso de um bom profissional de {category} em {city}. Para quem devo ligar?",
  ],
  nl: ["Wie is de beste {category} in {city}?", "Welke {category} in {city} zou je aanraden?", "Ik zoek een goede {category} in {city}. Wie moet ik bellen?"],
} as const;

export type QuestionLanguage = keyof typeof CITATION_QUESTION_TEMPLATES_BY_LANGUAGE;

/** The English variants, asked where a city's language is not known. */
export const CITATION_QUESTION_TEMPLATES = CITATION_QUESTION_TEMPLATES_BY_LANGUAGE.en;

/** The languages questions are asked in besides English, as the method states them. */
export const CITATION_QUESTION_LANGUAGES = Object.keys(CITATION_QUESTION_TEMPLATES_BY_LANGUAGE).filter((language) => language !== "en");

/**
 * Countries with one language most of their people use day to day (ISO 3166-1 alpha-2). Countries
 * with several (Belgium, Switzerland, Canada, India, Luxembourg...) are left out: their language
 * depends on the city, which the data does not say, so they are asked in English.
 */
const COUNTRY_LANGUAGES: Record<string, QuestionLanguage> = {
  DE: "de",
  AT: "de",
  LI: "de",
  FR: "fr",
  MC: "fr",
  SN: "fr",
  CI: "fr",
  ES: "es",
  MX: "es",
  AR: "es",
  CO: "es",
  PE: "es",
  CL: "es",
  VE: "es",
  EC: "es",
  GT: "es",
  CU: "es",
  BO: "es",
  DO: "es",
  HN: "es",
  PY: "es",
  SV: "es",
  NI: "es",
  CR: "es",
  PA: "es",
  UY: "es",
  IT: "it",
  SM: "it",
  PT: "pt",
  BR: "pt",
  AO: "pt",
  MZ: "pt",
  NL: "nl",
  SR: "nl",
};

/** The language rule as the method states it (docs/citation-checks.md quotes it word for word). */
export const CITATION_QUESTION_LANGUAGE_RULE =
  "Where the city's country has one language, the question is asked in it instead: German (DE, AT, LI), French (FR, MC, SN, CI), " +
  "Spanish (ES and the Spanish-speaking countries of the Americas), Italian (IT, SM), Portuguese (PT, BR, AO, MZ) or Dutch (NL, SR), " +
  "the same three variants translated, with the category's English name (the category table holds no translations). Countries of " +
  "several languages (Belgium, Switzerland, Canada, India...) and all others are asked in English. The question stored and shown is the one asked.";

/** The language a city's checks are asked in: its country's, or English when not known. */
export function questionLanguageOf(countryCode: string | null | undefined): QuestionLanguage {
  return COUNTRY_LANGUAGES[countryCode?.toUpperCase() ?? ""] ?? "en";
}

/** The UTC day of a moment, as the checks' period ("2026-11-29"). */
export function periodOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * The question of a category and a city for the period (its day picks the variant), in the
 * language. The category's name is its English one: the category table holds no translations.
 * German capitalises nouns, so it keeps the name as written; the others take it in lower case.
 */
export function citationQuestion(categoryName: string, cityName: string, period: string, language: QuestionLanguage = "en"): string {
  const templates = CITATION_QUESTION_TEMPLATES_BY_LANGUAGE[language];
  const day = Math.floor(Date.parse(`${period}T00:00:00Z`) / 86_400_000);
  const template = templates[day % templates.length]!;
  const category = language === "de" ? categoryName : categoryName.toLowerCase();
  return template.replace("{category}", category).replace("{city}", cityName);
}

const TEMPLATE_PATTERNS = Object.entries(CITATION_QUESTION_TEMPLATES_BY_LANGUAGE).flatMap(([language, templates]) =>
  templates.map((template) => ({
    language: language as QuestionLanguage,
    pattern: new RegExp(`^${template.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\\\{(category|city)\\\}/g, ".+")}$`, "s"),
  })),
);

/** The language of a question a check asked (its document's language), by the template it was made from; English when none matches. */
export function languageOfQuestion(question: string): QuestionLanguage {
  return TEMPLATE_PATTERNS.find((entry) => entry.pattern.test(question))?.language ?? "en";
}
