/**
 * Seeded randomness. Every stream is keyed by (seed, stream, index), so business #i is generated
 * from its own stream and never depends on how many draws earlier businesses made.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** Uniform float in [min, max) rounded to `decimals`. */
  float(min: number, max: number, decimals: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** `count` distinct items in random order (fewer if the list is shorter). */
  sample<T>(items: readonly T[], count: number): T[];
  /** RFC 4122 version-4-shaped UUID drawn from this stream. */
  uuid(): string;
}

/** FNV-1a: turns a stream name into a 32-bit key. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

function hex32(word: number): string {
  return `${HEX[word >>> 24]}${HEX[(word >>> 16) & 255]}${HEX[(word >>> 8) & 255]}${HEX[word & 255]}`;
}

/**
 * sfc32: 128-bit state, so distinct (seed, stream, index) triples give distinct states; a 32-bit
 * generator such as mulberry32 would repeat streams (and UUIDs) among a million businesses.
 * A class rather than closures: one is created per business, so it must be cheap to make.
 */
class Sfc32 implements Rng {
  private a: number;
  private b: number;
  private c: number;
  private d = 0x9e3779b9 | 0;

  constructor(seed: number, stream: string, index: number) {
    this.a = seed | 0;
    this.b = hashString(stream) | 0;
    this.c = index | 0;
    // The first outputs of sfc32 still resemble the seed words; discard them.
    for (let i = 0; i < 15; i++) this.nextWord();
  }

  private nextWord(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  next(): number {
    return this.nextWord() / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  float(min: number, max: number, decimals: number): number {
    const scale = 10 ** decimals;
    return Math.round((min + this.next() * (max - min)) * scale) / scale;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick() from an empty list");
    return item;
  }

  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const size = Math.min(count, pool.length);
    // Partial Fisher-Yates: only the first `size` positions are needed.
    for (let i = 0; i < size; i++) {
      const j = i + Math.floor(this.next() * (pool.length - i));
      [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
    }
    return pool.slice(0, size);
  }

  uuid(): string {
    const w1 = this.nextWord();
    const w2 = ((this.nextWord() & 0xffff0fff) | 0x00004000) >>> 0;
    const w3 = ((this.nextWord() & 0x3fffffff) | 0x80000000) >>> 0;
    const w4 = this.nextWord();
    const h2 = hex32(w2);
    const h3 = hex32(w3);
    return `${hex32(w1)}-${h2.slice(0, 4)}-${h2.slice(4)}-${h3.slice(0, 4)}-${h3.slice(4)}${hex32(w4)}`;
  }
}

export function createRng(seed: number, stream: string, index = 0): Rng {
  return new Sfc32(seed, stream, index);
}

/** Picks an index with probability proportional to its weight, from precomputed running totals. */
export function pickCumulative(cumulative: readonly number[], rng: Rng): number {
  const total = cumulative[cumulative.length - 1] ?? 0;
  const target = rng.next() * total;
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((cumulative[mid] ?? 0) > target) high = mid;
    else low = mid + 1;
  }
  return low;
}

export function runningTotals(weights: readonly number[]): number[] {
  let sum = 0;
  return weights.map((weight) => (sum += weight));
}

/**
 * Stratified rarity: exactly one in every `period` consecutive ranks is picked, at a seeded
 * position. A 2% trait then shows up in a world of 600 as reliably as in one of a million,
 * where independent coin flips could leave a small world without a single example.
 */
export function isOneInPeriod(seed: number, stream: string, rank: number, period: number): boolean {
  const block = Math.floor(rank / period);
  return rank % period === createRng(seed, stream, block).int(0, period - 1);
}
