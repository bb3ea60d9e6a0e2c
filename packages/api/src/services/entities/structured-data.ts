import type { BusinessRecord } from "./business-lookup";
import { recordUrlOf } from "../registry/attribution";
import { roundedRating } from "../search/listing";
import { publicUrls } from "../shared/public-urls";

/**
 * What the JSON-LD is built from: the partner feed selects exactly these columns. updatedAt is a
 * Date, or epoch milliseconds as the feed's raw rows carry it (no Date per row to read it).
 * registryRecordId is the in-service registry record the business came from (registryRecordIdOf),
 * or null.
 */
export type JsonLdSource = Pick<
  BusinessRecord,
  | "schemaOrgType"
  | "id"
  | "slug"
  | "name"
  | "description"
  | "website"
  | "phone"
  | "email"
  | "address"
  | "cityName"
  | "state"
  | "postalCode"
  | "country"
  | "lat"
  | "lng"
  | "openingHours"
  | "rating"
  | "reviewCount"
  | "services"
  | "temporaryClosure"
  | "factsStaleAfter"
> & { updatedAt: Date | number; lastVerifiedAt: Date | number | null; registryRecordId: string | null };

/** schema.org day URLs, built once rather than per business and day. */
const DAY_URLS: Record<string, string> = Object.fromEntries(
  ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].map((day) => [day, `https://schema.org/${day}`]),
);

/**
 * schema.org JSON-LD for a business, typed with its category's LocalBusiness subtype. The one
 * builder: the entity profile's structuredData and every partner feed location come from here.
 */
export function toJsonLd(business: JsonLdSource, baseUrl: string) {
  return {
    "@context": "https://schema.org" as const,
    "@type": business.schemaOrgType,
    "@id": publicUrls.canonicalEntity(baseUrl, business.id),
    identifier: business.id,
    name: business.name,
    description: business.description ?? undefined,
    url: business.website ?? undefined,
    telephone: business.phone ?? undefined,
    email: business.email ?? undefined,
    address: {
      "@type": "PostalAddress" as const,
      // No street rather than an empty one: the rest of the postal address is still known.
      streetAddress: business.address ?? undefined,
      addressLocality: business.cityName,
      addressRegion: business.state,
      postalCode: business.postalCode ?? undefined,
      addressCountry: business.country,
    },
    geo: business.lat !== null && business.lng !== null ? { "@type": "GeoCoordinates", latitude: business.lat, longitude: business.lng } : undefined,
    openingHoursSpecification: business.openingHours.map((spec) => ({
      "@type": "OpeningHoursSpecification",
      dayOfWeek: spec.days.map((day) => DAY_URLS[day] ?? `https://schema.org/${day}`),
      opens: spec.opens,
      closes: spec.closes,
    })),
    aggregateRating:
      business.rating !== null && business.reviewCount > 0
        ? { "@type": "AggregateRating", ratingValue: roundedRating(business), reviewCount: business.reviewCount, bestRating: 5 }
        : undefined,
    makesOffer: business.services.map((service) => ({
      "@type": "Offer",
      itemOffered: { "@type": "Service", name: service },
    })),
    // The registry record's own page names the same business: an OpenStreetMap element's, say.
    sameAs: [publicUrls.profile(baseUrl, business.slug), ...sourceRecordPages(business.registryRecordId)],
    dateModified: new Date(business.updatedAt).toISOString(),
    additionalProperty: directoryFacts(business),
  };
}

function sourceRecordPages(recordId: string | null): string[] {
  const url = recordUrlOf(recordId);
  return url === null ? [] : [url];
}

const MINUTE_MS = 60_000;

/**
 * What schema.org has no property for, as PropertyValues: a temporary closure (with its reopening
 * date), when a person last vouched for a fact, and when the first current fact goes stale (the
 * profile's claims say which; a stored feed document cannot say "stale now" as time passes).
 */
function directoryFacts(business: JsonLdSource) {
  const fact = (propertyID: string, value: string) => ({ "@type": "PropertyValue" as const, propertyID, value });
  const facts = [
    ...(business.temporaryClosure ? [fact("operatingStatus", business.temporaryClosure.status)] : []),
    ...(business.temporaryClosure?.reopensOn ? [fact("reopensOn", business.temporaryClosure.reopensOn)] : []),
    ...(business.lastVerifiedAt === null ? [] : [fact("lastVerifiedAt", new Date(business.lastVerifiedAt).toISOString())]),
    ...(business.factsStaleAfter?.length ? [fact("firstFactStaleAt", new Date(Math.min(...business.factsStaleAfter) * MINUTE_MS).toISOString())] : []),
  ];
  return facts.length > 0 ? facts : undefined;
}
