import type { CategoryProfile } from "./category-profiles";
import type { Locale } from "./locales";
import type { Rng } from "./random";

const ADJECTIVES = [
  "Bright",
  "Prime",
  "Golden",
  "Royal",
  "Modern",
  "Trusted",
  "Classic",
  "Urban",
  "Premier",
  "Elite",
  "Sunrise",
  "Evergreen",
  "Silver",
  "Metro",
  "Smart",
  "First Choice",
  "Happy",
  "Crown",
  "Pioneer",
  "Apex",
  "Noble",
  "Reliable",
  "Swift",
  "True",
  "Grand",
  "Blue Sky",
  "Family",
  "Heritage",
  "Northstar",
  "Vista",
];

/** Categories where a practitioner's own name is the usual brand ("Dr. Mehta's Skin Clinic"). */
const PRACTITIONER_CATEGORIES = new Set(["dentist", "doctor", "dermatologist", "pediatrician", "physiotherapist", "veterinarian", "psychologist"]);
/** Trades and shops that are often family firms ("Kumar & Sons Plumbing"). */
const FAMILY_FIRM_CATEGORIES = new Set([
  "plumber",
  "electrician",
  "car-repair",
  "carpenter",
  "painter",
  "roofer",
  "general-contractor",
  "hardware-store",
  "jewelry-store",
  "grocery-store",
  "tailor",
  "moving-company",
  "furniture-store",
  "bakery",
  "tire-shop",
]);
/** Partnerships are named after two partners ("Haddad & Nasser Legal"). */
const PARTNERSHIP_CATEGORIES = new Set(["lawyer", "accountant", "architect", "financial-advisor", "insurance-agency"]);

type NamePattern = (parts: NameParts) => string;

interface NameParts {
  adjective: string;
  theme: string;
  suffix: string;
  surname: string;
  otherSurname: string;
  cityName: string;
}

const GENERIC_PATTERNS: readonly NamePattern[] = [
  (p) => `${p.adjective} ${p.theme} ${p.suffix}`,
  (p) => `${p.adjective} ${p.theme} ${p.suffix}`,
  (p) => `${p.theme} ${p.suffix}`,
  (p) => `The ${p.theme} ${p.suffix}`,
  (p) => `${p.adjective} ${p.suffix}`,
  (p) => `${p.surname} ${p.suffix}`,
  (p) => `${p.cityName} ${p.theme} ${p.suffix}`,
];
const PRACTITIONER_PATTERNS: readonly NamePattern[] = [(p) => `Dr. ${p.surname}'s ${p.suffix}`, (p) => `${p.surname} ${p.suffix}`];
const FAMILY_PATTERNS: readonly NamePattern[] = [(p) => `${p.surname} & Sons ${p.suffix}`, (p) => `${p.surname} Brothers ${p.suffix}`];
const PARTNERSHIP_PATTERNS: readonly NamePattern[] = [(p) => `${p.surname} & ${p.otherSurname} ${p.suffix}`];

function words(text: string): string[] {
  return text.toLowerCase().split(/\s+/);
}

/** A suffix that repeats no word of the theme: never "Gentle Smile Smile Clinic". */
function suffixFor(rng: Rng, theme: string, suffixes: readonly string[]): string {
  const themeWords = new Set(words(theme));
  const distinct = suffixes.filter((suffix) => !words(suffix).some((word) => themeWords.has(word)));
  return rng.pick(distinct.length > 0 ? distinct : suffixes);
}

/** A realistic, category-appropriate business name built from word lists. */
export function businessName(rng: Rng, categorySlug: string, profile: CategoryProfile, locale: Locale, cityName: string): string {
  const [surname = "", otherSurname = ""] = rng.sample(locale.surnames, 2);
  const theme = rng.pick(profile.themes);
  const parts: NameParts = {
    adjective: rng.pick(ADJECTIVES),
    theme,
    suffix: suffixFor(rng, theme, profile.suffixes),
    surname,
    otherSurname,
    cityName,
  };
  let patterns = GENERIC_PATTERNS;
  if (PRACTITIONER_CATEGORIES.has(categorySlug) && rng.chance(0.35)) patterns = PRACTITIONER_PATTERNS;
  else if (FAMILY_FIRM_CATEGORIES.has(categorySlug) && rng.chance(0.3)) patterns = FAMILY_PATTERNS;
  else if (PARTNERSHIP_CATEGORIES.has(categorySlug) && rng.chance(0.35)) patterns = PARTNERSHIP_PATTERNS;
  return rng.pick(patterns)(parts);
}
