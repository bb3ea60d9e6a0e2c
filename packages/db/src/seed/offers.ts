import type { CategoryProfile } from "./category-profiles";
import { currencyFor, priceString } from "./money";
import type { Rng } from "./random";
import type { OfferRow } from "./rows";
import { DAY_SECONDS, FAR_FUTURE_MS, addSeconds } from "./time";

const TITLE_FORMS = ["{service}", "{service} package", "{service}: introductory offer", "Premium {service}"];

/** 1-3 priced offers for pro and premium listings, priced in the local currency. */
export function buildOffers(
  rng: Rng,
  business: { id: string; name: string; country: string; services: readonly string[]; createdAt: number },
  profile: CategoryProfile,
  cityName: string,
): OfferRow[] {
  const { currency, perUsd } = currencyFor(business.country);
  const [minUsd, maxUsd] = profile.priceUsd;
  return rng.sample(business.services, rng.int(1, 3)).map((service) => {
    const title = rng.pick(TITLE_FORMS).replace("{service}", service.toLowerCase());
    return {
      id: rng.uuid(),
      businessId: business.id,
      title: title.charAt(0).toUpperCase() + title.slice(1),
      description: `${service} from ${business.name} in ${cityName}. Price includes taxes; ask about availability.`,
      price: priceString((minUsd + rng.next() * (maxUsd - minUsd)) * perUsd),
      currency,
      validUntil: rng.chance(0.5) ? null : FAR_FUTURE_MS,
      createdAt: addSeconds(business.createdAt, rng.int(0, 60 * DAY_SECONDS)),
    };
  });
}
