import type { NewBusiness } from "../schema/businesses";
import type { NewBuyerQuestion } from "./buyer-questions";
import { generateBusiness, type DemoWorld, type NewSlugHistory } from "./businesses";
import type { NewClaim } from "./claims";
import type { NewOffer } from "./offers";

/** The rows of one batch of businesses: all that is held in memory at a time. */
export interface BatchRows {
  businesses: NewBusiness[];
  currentClaims: NewClaim[];
  supersededClaims: NewClaim[];
  slugHistory: NewSlugHistory[];
  offers: NewOffer[];
  questions: NewBuyerQuestion[];
}

export function generateBatch(world: DemoWorld, start: number, end: number): BatchRows {
  const rows: BatchRows = { businesses: [], currentClaims: [], supersededClaims: [], slugHistory: [], offers: [], questions: [] };
  for (let index = start; index < end; index++) {
    const generated = generateBusiness(world, index);
    rows.businesses.push(generated.business);
    rows.currentClaims.push(...generated.claims.current);
    rows.supersededClaims.push(...generated.claims.superseded);
    if (generated.retiredSlug) rows.slugHistory.push(generated.retiredSlug);
    rows.offers.push(...generated.offers);
    rows.questions.push(...generated.questions);
  }
  return rows;
}

export function claimCount(rows: BatchRows): number {
  return rows.currentClaims.length + rows.supersededClaims.length;
}
