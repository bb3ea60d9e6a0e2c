import type { Db } from "@directory/db";

/**
 * Read-ahead for partners walking the feed page by page (the paged feed by cursor, the change feed
 * by position). A walk is sequential: the partner parses a page, then asks for the next, and the
 * server sat idle while it parsed (a 500-location page: 15 ms of the server's time, then 10 ms of
 * the client's, one after the other). So when a page has a next one, the next is read at once, and
 * the partner's next request takes it ready.
 *
 * Nothing is served that a read at that moment would not give: each page read ahead is stamped with
 * the feed's position (feed_position.last) read before its rows, and is taken only while the
 * position is still the same, so a change committed in between sends the request to a fresh read.
 * The guards are untouched: a request still passes its procedure's key, kind and quota checks
 * before it takes a page; a page read ahead counts against nobody's quota, and costs at most one
 * read per request served.
 *
 * Bounded: at most PAGES_HELD pages in the whole process (the oldest dropped first), each for at
 * most HELD_MS. A read ahead that fails is dropped; the request that wanted it reads afresh.
 */
const PAGES_HELD = 8;
const HELD_MS = 10_000;

export interface ReadResult<P, T> {
  page: T;
  /** The feed's position read before the page's rows. */
  position: number;
  /** The parameters of the page after this one; null at the feed's end. */
  next: P | null;
}

/** Parameters as a string, whatever order their keys came in (undefined ones left out). */
function signatureOf(params: object): string {
  return JSON.stringify(params, Object.keys(params).sort());
}

interface Held<P, T> {
  result: Promise<ReadResult<P, T> | null>;
  expires: number;
}

/** Pages of one kind (P: their parameters, T: the page), read by `read` (the position first, then the rows). */
export class FeedReadAhead<P extends object, T> {
  private readonly held = new WeakMap<Db, Map<string, Held<P, T>>>();

  /**
   * `read`: a page, its position read first when not given. `prepare`: work for the page read
   * ahead once it is read, given the page it follows (the REST door's gzip, when that was gzipped).
   */
  constructor(
    private readonly read: (db: Db, params: P, position?: number) => Promise<ReadResult<P, T>>,
    private readonly prepare: (page: T, previous: T) => void = () => undefined,
  ) {}

  /**
   * The page for `params`: the one read ahead when the feed is still at `position` (the position
   * now, which the caller read to check the request), else one read now. Then, when the page has
   * a next one, reads that ahead.
   */
  async serve(db: Db, params: P, position: number): Promise<T> {
    const result = (await this.take(db, params, position)) ?? (await this.read(db, params, position));
    if (result.next !== null) this.start(db, result.next, result.page);
    return result.page;
  }

  private pagesOf(db: Db): Map<string, Held<P, T>> {
    let pages = this.held.get(db);
    if (!pages) this.held.set(db, (pages = new Map()));
    return pages;
  }

  private async take(db: Db, params: P, position: number): Promise<ReadResult<P, T> | null> {
    const pages = this.pagesOf(db);
    const signature = signatureOf(params);
    const held = pages.get(signature);
    if (!held) return null;
    pages.delete(signature);
    if (held.expires < Date.now()) return null;
    const result = await held.result;
    return result?.position === position ? result : null;
  }

  private start(db: Db, params: P, previous: T): void {
    const pages = this.pagesOf(db);
    const signature = signatureOf(params);
    if (pages.has(signature)) return;
    const result = this.read(db, params).then(
      (read) => {
        this.prepare(read.page, previous);
        return read;
      },
      () => null,
    );
    pages.set(signature, { result, expires: Date.now() + HELD_MS });
    for (const oldest of pages.keys()) {
      if (pages.size <= PAGES_HELD) break;
      pages.delete(oldest);
    }
  }
}
