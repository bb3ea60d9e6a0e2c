import type { NewClaim } from "./claim-writes";

/** Tests: a claim as the business's owner states it (self-reported, through the write path like any edit). */
export const ownerClaim = (property: NewClaim["property"], value: unknown): NewClaim => ({
  property,
  value,
  source: "owner:test",
  confidence: 0.9,
  verification: "self_reported",
});
