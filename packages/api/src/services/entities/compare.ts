import type { Db } from "@directory/db";
import { DomainError } from "../../errors";
import { requireServableBySlug, type BusinessRecord } from "./business-lookup";
import { toListing } from "../search/listing";

function side(business: BusinessRecord, baseUrl: string) {
  const { slug, name, category, city, rating, planTier, verified, directoryCompletenessScore, services, usp, profileUrl } = toListing(business, baseUrl);
  return {
    slug,
    name,
    category,
    city,
    rating,
    planTier,
    verified,
    directoryCompletenessScore,
    services: business.services,
    servicesText: services,
    usp,
    profileUrl,
  };
}

export interface CompareBusinessesParams {
  slugA: string;
  slugB: string;
  baseUrl: string;
}

/** Two businesses side by side with the differences spelled out; public scores only. */
export async function compareBusinesses(db: Db, params: CompareBusinessesParams) {
  const [a, b] = await Promise.all([requireServableBySlug(db, params.slugA), requireServableBySlug(db, params.slugB)]);
  if (a.id === b.id) throw new DomainError("INVALID_INPUT", "Invalid parameter slugB: both slugs name the same business");
  const left = side(a, params.baseUrl);
  const right = side(b, params.baseUrl);
  const onlyA = a.services.filter((service) => !b.services.includes(service));
  const onlyB = b.services.filter((service) => !a.services.includes(service));
  const differences: string[] = [];
  if (left.rating !== right.rating) differences.push(`Rating: ${left.name} ${left.rating ?? "unrated"} vs ${right.name} ${right.rating ?? "unrated"}.`);
  if (left.directoryCompletenessScore !== right.directoryCompletenessScore) {
    differences.push(
      `Profile completeness: ${left.directoryCompletenessScore} vs ${right.directoryCompletenessScore} (a directory metric, not a recommendation).`,
    );
  }
  if (left.verified !== right.verified)
    differences.push(`${left.verified ? left.name : right.name} is owner-verified; the other is an unclaimed registry listing.`);
  if (left.city !== right.city) differences.push(`Location: ${left.city} vs ${right.city}.`);
  if (onlyA.length > 0) differences.push(`Only ${left.name} lists: ${onlyA.join(", ")}.`);
  if (onlyB.length > 0) differences.push(`Only ${right.name} lists: ${onlyB.join(", ")}.`);
  if (left.usp !== right.usp) differences.push(`Selling points: "${left.usp}" vs "${right.usp}".`);
  return {
    businesses: [left, right] as [typeof left, typeof right],
    sharedServices: a.services.filter((service) => b.services.includes(service)),
    differences,
  };
}
