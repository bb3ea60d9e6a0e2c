import type { City } from "../schema/cities";
import type { DemoCategory } from "./categories";
import type { CategoryProfile } from "./category-profiles";
import type { Rng } from "./random";
import { DEMO_EPOCH_MS } from "./time";
import { article, capitalize, listSentence } from "./text";

/** Marketing copy a listing carries: description, unique selling point, tagline, keywords. */
export interface ListingCopy {
  description: string;
  usp: string;
  tagline: string;
  keywords: string[];
}

const USPS = [
  "Over {years} years of experience",
  "Transparent, upfront pricing with no hidden fees",
  "Rated highly by local customers",
  "Multilingual staff",
  "Family-run since {founded}",
  "Eco-friendly products and practices",
];
/** Only for businesses that serve by appointment or on site (clinics, offices, trades). */
const SERVICE_USPS = [
  "Same-day appointments available",
  "Free initial consultation",
  "Certified and fully insured team",
  "Satisfaction guaranteed on every job",
  "Free home visits within {city}",
];
/** Only for shops, food and other walk-in businesses. */
const WALK_IN_USPS = ["Open seven days a week", "Free delivery within {city}", "Loyalty rewards for regular customers", "Friendly staff and easy parking"];
const SERVICE_HOURS = new Set(["clinic", "office", "trades", "childCare"]);

const TAGLINES = [
  "Your trusted {singular} in {city}",
  "Quality you can count on since {founded}",
  "{city}'s friendly {singular}",
  "Care, craft and honesty",
  "Done right, the first time",
  "Where {city} comes first",
  "Local experts, lasting results",
  "Serving {city} with pride",
];

const CLOSINGS = [
  "Serving customers across {city} since {founded}.",
  "Call ahead or walk in: the team is happy to help.",
  "Customers value the friendly service and clear advice.",
  "Conveniently located with easy access from across {city}.",
  "Bookings are available by phone, email or the website.",
];

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? "");
}

export function listingCopy(rng: Rng, name: string, category: DemoCategory, profile: CategoryProfile, city: City, services: readonly string[]): ListingCopy {
  const founded = String(rng.int(1975, 2022));
  const values = { singular: category.singular, city: city.name, founded, years: String(new Date(DEMO_EPOCH_MS).getUTCFullYear() - Number(founded)) };
  const usp = fill(rng.pick([...USPS, ...(SERVICE_HOURS.has(profile.hours) ? SERVICE_USPS : WALK_IN_USPS)]), values);
  const highlighted = services.slice(0, 3).map((service) => service.toLowerCase());
  // "in Shanghai, Shanghai" reads badly: name the region only when it differs from the city.
  const place = city.adminRegion === city.name ? city.name : `${city.name}, ${city.adminRegion}`;
  const sentences = [`${name} is ${article(category.singular)} ${category.singular} in ${place}, offering ${listSentence(highlighted)}.`, `${usp}.`];
  if (rng.chance(0.6)) sentences.push(fill(rng.pick(CLOSINGS), values));

  const cityTerm = city.name.toLowerCase();
  const candidates = [
    category.singular.toLowerCase(),
    `${category.singular.toLowerCase()} in ${cityTerm}`,
    `best ${category.singular.toLowerCase()} ${cityTerm}`,
    `${category.singular.toLowerCase()} near me`,
    ...category.synonyms.slice(0, 3),
    ...services.map((service) => service.toLowerCase()),
  ];
  const keywords = rng.sample([...new Set(candidates)], rng.int(3, 6));
  return { description: sentences.join(" "), usp, tagline: capitalize(fill(rng.pick(TAGLINES), values)), keywords };
}
