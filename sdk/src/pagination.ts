// Keyset pages walked by themselves: iterate the items (`for await … of`), or the pages (`.pages()`),
// each fetched only when the loop asks for it.
export interface Page<T> {
  items: T[];
  /**
   * Where the next page starts; null when this is the last. The events feed's last page has one too:
   * where to go on from later (its walk ends at that page all the same).
   */
  next: string | null;
  /** This is the last page, whatever `next` says (the events feed's: there is nothing newer yet). */
  last?: boolean;
}

export class Paginated<T> implements AsyncIterable<T> {
  constructor(
    private readonly start: string | null,
    private readonly fetchPage: (cursor: string | null) => Promise<Page<T>>,
  ) {}

  async *pages(): AsyncGenerator<Page<T>> {
    let cursor = this.start;
    for (;;) {
      const page = await this.fetchPage(cursor);
      yield page;
      if (page.last || page.next === null) return;
      cursor = page.next;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Every item of every page, in one array: for small collections. */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
