/*
 * Freshness: the useful life of each property and when a fact goes stale live in @directory/db
 * (claim-freshness.ts), where the listing's own freshness columns are projected from them too.
 */
export { staleAfterOf, USEFUL_LIFE_DAYS } from "@directory/db";

/**
 * What a claim's confidence means, stated once for the OpenAPI description and the MCP
 * instructions: its scale, and what raises or lowers it.
 */
export const CONFIDENCE_MEANING =
  "confidence (0 to 1) is how sure the directory is that a claim's value was true when observed: 1 for a value an admin verified (or an accepted correction), " +
  "0.8 for the business's own statement, 0.6 to 0.9 for a registry import (OpenStreetMap: 0.7, +0.05 per address, phone, website or hours it lists, -0.1 for an element unedited for 5 years). " +
  "A newer claim supersedes an older one; confidence never decays with time: age is what staleAfter and stale say (each property has a useful life: hours 180 days, phone 365, description 730).";
