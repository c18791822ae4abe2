// A cursor halfway down a key's whole list, found by paging through the list with the service itself
// (cursors are signed and bound to the key, so they cannot be made up). With 1,000,000 guides the
// organization key sees 20,000 of them, spread over the two years the store covers, so its halfway cursor
// sits where the store's 500,000th newest guide is: the depth issue 5 asks for.
export interface Page<Item = unknown> {
  data: Item[];
  next_cursor: string | null;
}

const PAGE = 100;

/** The pages of a key's whole list, first to last, as the service answers them; stop early with `break`. */
export async function* listPages<Item = unknown>(baseUrl: string, key: string, limit = PAGE): AsyncGenerator<Page<Item>> {
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const response = await fetch(`${baseUrl}/v1/guides?limit=${limit}${query}`, { headers: { authorization: `Bearer ${key}` } });
    if (!response.ok) throw new Error(`paging through a key's guides: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as Page<Item>;
    yield page;
    cursor = page.next_cursor;
  } while (cursor !== null);
}

export async function halfwayCursor(baseUrl: string, key: string): Promise<string | null> {
  const cursors: string[] = [];
  for await (const page of listPages(baseUrl, key)) {
    if (page.next_cursor !== null) cursors.push(page.next_cursor);
  }
  return cursors[Math.floor(cursors.length / 2)] ?? null;
}
