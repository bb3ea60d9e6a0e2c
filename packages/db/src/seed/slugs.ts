/**
 * Hands out globally unique slugs (business slugs and retired slugs share one namespace) with
 * bounded memory. The first `exactLimit` businesses get "base", "base-2", "base-3" via a Set; later
 * ones always get "base-<index + 1>". That is unique by construction: the number is their own and
 * exceeds every counter of the first phase, and city names (the tail of every base) have no digits.
 */
export class SlugRegistry {
  private readonly taken = new Set<string>();

  constructor(private readonly exactLimit = 100_000) {}

  /** `index` is the business number; a business's retired slug has another base, so it may share it. */
  claim(base: string, index: number): string {
    if (index >= this.exactLimit) return `${base}-${index + 1}`;
    let slug = base;
    for (let counter = 2; this.taken.has(slug); counter++) {
      if (counter > this.exactLimit) throw new Error(`slug counter overflow for ${base}`);
      slug = `${base}-${counter}`;
    }
    this.taken.add(slug);
    return slug;
  }
}

/** "base" is kebab(name)-kebab(city); a digit in it would break the construction above. */
export function assertDigitFree(cityKebab: string): void {
  if (/\d/.test(cityKebab)) throw new Error(`city slug part "${cityKebab}" contains a digit`);
}
