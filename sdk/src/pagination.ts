// Keyset pages walked by themselves: iterate the items (`for await … of`), or the pages (`.pages()`),
// each fetched only when the loop asks for it.
export interface Page<T> {
  items: T[];
  /** Where the next page starts; null when this is the last. */
  next: string | null;
}

export class Paginated<T> implements AsyncIterable<T> {
  constructor(
    private readonly start: string | null,
    private readonly fetchPage: (cursor: string | null) => Promise<Page<T>>,
  ) {}

  async *pages(): AsyncGenerator<Page<T>> {
    let cursor = this.start;
    do {
      const page = await this.fetchPage(cursor);
      yield page;
      cursor = page.next;
    } while (cursor !== null);
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
