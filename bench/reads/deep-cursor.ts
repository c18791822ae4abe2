// A cursor halfway down a key's whole list, found by paging through the list with the service itself
// (cursors are signed and bound to the key, so they cannot be made up). With 1,000,000 guides the
// organization key sees 20,000 of them, spread over the two years the store covers, so its halfway cursor
// sits where the store's 500,000th newest guide is: the depth issue 5 asks for.
interface Page {
  next_cursor: string | null;
}

const PAGE = 100;

export async function halfwayCursor(baseUrl: string, key: string): Promise<string | null> {
  const cursors: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const response = await fetch(`${baseUrl}/v1/guides?limit=${PAGE}${query}`, { headers: { authorization: `Bearer ${key}` } });
    if (!response.ok) throw new Error(`paging for a deep cursor: ${response.status} ${await response.text()}`);
    cursor = ((await response.json()) as Page).next_cursor;
    if (cursor !== null) cursors.push(cursor);
  } while (cursor !== null);
  return cursors[Math.floor(cursors.length / 2)] ?? null;
}
