import type { OpeningHoursSpec } from "../schema/businesses";
import type { DemoCategory } from "./categories";
import type { CategoryProfile } from "./category-profiles";
import type { Rng } from "./random";
import type { BuyerQuestionRow } from "./rows";
import { DAY_SECONDS, DEMO_EPOCH_MS, addSeconds } from "./time";

/** Categories people book ahead rather than walk into. */
const APPOINTMENT_HOURS = new Set(["clinic", "office", "trades", "childCare"]);

/** Three questions every business of a category answers; one of them is left open on purpose. */
export function categoryQuestionTemplates(rng: Rng, category: DemoCategory, profile: CategoryProfile): BuyerQuestionRow[] {
  const service = (profile.services[0] ?? category.singular).toLowerCase();
  const third = APPOINTMENT_HOURS.has(profile.hours)
    ? `Do I need to book an appointment with a ${category.singular}?`
    : `Does a typical ${category.singular} offer home delivery or online orders?`;
  const rows: [string, string | null][] = [
    [`How much does ${service} usually cost?`, `Prices vary by ${category.singular} and city; ask for a written quote before you commit.`],
    [
      `How do I choose a good ${category.singular}?`,
      "Compare verified reviews, check qualifications and licences, and ask at least two businesses for a quote.",
    ],
    [third, null],
  ];
  return rows.map(([question, answer]) => ({
    id: rng.uuid(),
    businessId: null,
    categorySlug: category.slug,
    question,
    answer,
    createdAt: DEMO_EPOCH_MS,
  }));
}

function sundayAnswer(hours: readonly OpeningHoursSpec[]): string {
  const sunday = hours.find((spec) => spec.days.includes("Sunday"));
  return sunday ? `Yes, on Sundays we are open from ${sunday.opens} to ${sunday.closes}.` : "No, we are closed on Sundays.";
}

/** 1-2 questions an owner added to their own listing, each with the owner's answer. */
export function ownerQuestions(
  rng: Rng,
  business: { id: string; services: readonly string[]; openingHours: readonly OpeningHoursSpec[]; state: string; createdAt: number },
  cityName: string,
): BuyerQuestionRow[] {
  const service = (business.services[0] ?? "this service").toLowerCase();
  const pool: [string, string][] = [
    [`Do you offer ${service}?`, `Yes, ${service} is one of our core services. Contact us to book a time.`],
    ["Are you open on Sundays?", sundayAnswer(business.openingHours)],
    [
      `Do you serve customers outside ${cityName}?`,
      business.state === cityName ? `Yes, we serve ${cityName} and the surrounding areas.` : `Yes, we serve ${cityName} and nearby areas of ${business.state}.`,
    ],
    ["Is parking available?", "Yes, customer parking is available close to our entrance."],
    ["Which payment methods do you accept?", "We accept cash, cards and the common mobile payment apps."],
  ];
  return rng.sample(pool, rng.int(1, 2)).map(([question, answer]) => ({
    id: rng.uuid(),
    businessId: business.id,
    categorySlug: null,
    question,
    answer,
    createdAt: addSeconds(business.createdAt, rng.int(DAY_SECONDS, 120 * DAY_SECONDS)),
  }));
}
