import { createRng } from "./random";
import type { CitationCheckRow } from "./rows";
import { DAY_SECONDS, DEMO_EPOCH_MS } from "./time";

const ENGINES = ["chatgpt", "perplexity", "gemini", "claude", "copilot"] as const;
const CHECKS_PER_BUSINESS = 6;

/**
 * Demo AI-platform citation checks for an owner-verified business: what its owner sees in
 * get_my_citations. Drawn from a stream of their own, so adding them changed no other demo row.
 */
export function citationChecksFor(
  seed: number,
  index: number,
  business: { id: string; name: string; categorySingular: string; cityName: string; visibilityScore: number },
): CitationCheckRow[] {
  const rng = createRng(seed, "citations", index);
  // Better-known businesses are mentioned more often; the demo keeps that relation visible.
  const mentionProbability = 0.1 + (business.visibilityScore / 100) * 0.7;
  return Array.from({ length: CHECKS_PER_BUSINESS }, (_, check) => ({
    id: rng.uuid(),
    businessId: business.id,
    engine: rng.pick(ENGINES),
    query: rng.chance(0.5) ? `best ${business.categorySingular} in ${business.cityName}` : `${business.name} ${business.cityName} reviews`,
    mentioned: rng.chance(mentionProbability),
    checkedAt: DEMO_EPOCH_MS + (check * 45 + rng.int(0, 40)) * DAY_SECONDS * 1000,
  }));
}
