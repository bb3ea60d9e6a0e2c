/*
 * A set of record ids that stays small at a country's size: "node/123", "way/456" and
 * "relation/789" are held as numbers in one sorted typed array per element type (8 bytes an id),
 * not as a million strings. An extract lists its elements sorted by type then id, so additions
 * almost always come in order; the rare one out of order goes to a side set. Ids of another form
 * (another registry's) are kept as strings.
 */

const NUMBERED = /^([a-z]+)\/(0|[1-9]\d{0,14})$/;

/** Sorted ids of one type, growing by doubling; out-of-order ids beside them. */
class IdColumn {
  private ids = new Float64Array(1024);
  private length = 0;
  private readonly unordered = new Set<number>();

  get size(): number {
    return this.length + this.unordered.size;
  }

  /** False when the id was already there. */
  add(id: number): boolean {
    if (this.length === 0 || id > this.ids[this.length - 1]!) {
      if (this.length === this.ids.length) {
        const grown = new Float64Array(this.ids.length * 2);
        grown.set(this.ids);
        this.ids = grown;
      }
      this.ids[this.length++] = id;
      return true;
    }
    if (this.has(id)) return false;
    this.unordered.add(id);
    return true;
  }

  has(id: number): boolean {
    let low = 0;
    let high = this.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = this.ids[middle]!;
      if (value === id) return true;
      if (value < id) low = middle + 1;
      else high = middle - 1;
    }
    return this.unordered.has(id);
  }
}

export class RecordIdSet {
  private readonly columns = new Map<string, IdColumn>();
  private readonly others = new Set<string>();

  get size(): number {
    let size = this.others.size;
    for (const column of this.columns.values()) size += column.size;
    return size;
  }

  /** False when the id was already there. */
  add(recordId: string): boolean {
    const numbered = NUMBERED.exec(recordId);
    if (!numbered) {
      if (this.others.has(recordId)) return false;
      this.others.add(recordId);
      return true;
    }
    return this.addNumbered(numbered[1]!, Number(numbered[2]));
  }

  /** add("node/123") without building the string: the scanner's way. */
  addNumbered(type: string, id: number): boolean {
    let column = this.columns.get(type);
    if (!column) this.columns.set(type, (column = new IdColumn()));
    return column.add(id);
  }

  has(recordId: string): boolean {
    const numbered = NUMBERED.exec(recordId);
    if (!numbered) return this.others.has(recordId);
    return this.hasNumbered(numbered[1]!, Number(numbered[2]));
  }

  hasNumbered(type: string, id: number): boolean {
    return this.columns.get(type)?.has(id) ?? false;
  }
}
