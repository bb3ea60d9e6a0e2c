import { generateBusiness, type DemoWorld } from "./businesses";
import type { BusinessRow, BuyerQuestionRow, ClaimRow, OfferRow, SlugHistoryRow } from "./rows";

/** The rows of one batch of businesses: all that is held in memory at a time. */
export interface BatchRows {
  businesses: BusinessRow[];
  currentClaims: ClaimRow[];
  supersededClaims: ClaimRow[];
  slugHistory: SlugHistoryRow[];
  offers: OfferRow[];
  questions: BuyerQuestionRow[];
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
