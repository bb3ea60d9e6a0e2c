import type { ClaimProperty } from "@directory/db";

/*
 * How long a fact stays worth trusting without being seen again: the one table of useful lives,
 * per property, in days. A claim's staleAfter is its observedAt plus its property's life; past it,
 * the claim is marked stale: true on every door (it is still served: an old fact beats none, but
 * an agent should say how old it is or check it). Chosen from how often each kind of fact changes:
 * - opening hours, 180: they change with seasons, staff and leases, the facts people complain of most;
 * - rating and review count, 180: aggregates that move with every review;
 * - operating status, 180: a closure (or a reopening) needs checking about twice a year;
 * - phone, website, email, services, 365: contact details change with providers and owners,
 *   about once in a few years, so a yearly check catches most;
 * - description, tagline, USP, keywords, address, postal code, 730: what a business does and where
 *   it is change when it moves or reinvents itself;
 * - name, category, city, coordinates, 1,095: they change with a rebrand or a move, rarely.
 */
export const USEFUL_LIFE_DAYS: Record<ClaimProperty, number> = {
  openingHours: 180,
  openingHoursText: 180,
  rating: 180,
  reviewCount: 180,
  operatingStatus: 180,
  phone: 365,
  website: 365,
  email: 365,
  services: 365,
  description: 730,
  tagline: 730,
  usp: 730,
  keywords: 730,
  address: 730,
  postalCode: 730,
  name: 1_095,
  category: 1_095,
  city: 1_095,
  coordinates: 1_095,
};

const DAY_MS = 86_400_000;

/** When a fact observed at observedAt stops being fresh. Unknown properties (none today) get a year. */
export function staleAfterOf(property: string, observedAt: Date): Date {
  const days = USEFUL_LIFE_DAYS[property as ClaimProperty] ?? 365;
  return new Date(observedAt.getTime() + days * DAY_MS);
}

/**
 * What a claim's confidence means, stated once for the OpenAPI description and the MCP
 * instructions: its scale, and what raises or lowers it.
 */
export const CONFIDENCE_MEANING =
  "confidence (0 to 1) is how sure the directory is that a claim's value was true when observed: 1 for a value an admin verified (or an accepted correction), " +
  "0.8 for the business's own statement, 0.6 to 0.9 for a registry import (OpenStreetMap: 0.7, +0.05 per address, phone, website or hours it lists, -0.1 for an element unedited for 5 years). " +
  "A newer claim supersedes an older one; confidence never decays with time: age is what staleAfter and stale say (each property has a useful life: hours 180 days, phone 365, description 730).";
