import type { ClaimProperty } from "@directory/db/enums";

/*
 * Facts a business element borrows from the elements around it (containing-areas.ts finds them):
 * its twin (the same business drawn again as its building) fills what the element lacks, and the
 * building it stands in gives an element without addr:* tags its address. Each borrowed fact
 * names the element it came from, for its claim's record id.
 */

/** An element whose tags fill a business's missing facts: its id says where they came from. */
export interface FactSource {
  recordId: string;
  tags: Readonly<Record<string, string>>;
}

type Facts = Partial<Record<ClaimProperty, unknown>>;

/** Facts that are one together: taken whole from one element, never mixed from two. */
const FACT_GROUPS: readonly (readonly ClaimProperty[])[] = [
  ["address", "postalCode"],
  ["openingHoursText", "openingHours"],
  ["phone"],
  ["website"],
  ["email"],
  ["description"],
];

export function hasAddressTags(tags: Readonly<Record<string, string>> | undefined): boolean {
  for (const key in tags) if (key.startsWith("addr:")) return true;
  return false;
}

/** The tags whose addr:* say where the element is: its own when it has any, else its twin's, else the building's around it. */
export function addressTags(tags: Readonly<Record<string, string>>, twin?: FactSource, building?: FactSource): Readonly<Record<string, string>> {
  if (hasAddressTags(tags)) return tags;
  if (twin && hasAddressTags(twin.tags)) return twin.tags;
  return building?.tags ?? tags;
}

/**
 * Fills `facts` (the element's own) from its twin, group by group where the twin agrees with what
 * the element says of the group (the same address: the twin's postcode too), then its address from
 * the building when it still has none; returns the borrowed properties' record ids.
 */
export function borrowFacts(
  facts: Facts,
  factsOf: (tags: Readonly<Record<string, string>>) => Facts,
  twin: FactSource | undefined,
  building: FactSource | undefined,
): Partial<Record<ClaimProperty, string>> {
  const borrowed: Partial<Record<ClaimProperty, string>> = {};
  const fill = (source: FactSource, groups: readonly (readonly ClaimProperty[])[]) => {
    const theirs = factsOf(source.tags);
    for (const group of groups) {
      const disagrees = group.some((property) => facts[property] !== undefined && JSON.stringify(facts[property]) !== JSON.stringify(theirs[property]));
      if (disagrees) continue;
      for (const property of group) {
        if (theirs[property] === undefined || facts[property] !== undefined) continue;
        facts[property] = theirs[property];
        borrowed[property] = source.recordId;
      }
    }
  };
  if (twin) fill(twin, FACT_GROUPS);
  if (building) fill({ recordId: building.recordId, tags: addressTagsOf(building.tags) }, [FACT_GROUPS[0]!]);
  return borrowed;
}

export function addressTagsOf(tags: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(tags).filter(([key]) => key.startsWith("addr:")));
}
