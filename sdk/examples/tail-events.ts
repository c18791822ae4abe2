// Catching up on every change, then following new ones as they happen, without a webhook endpoint; the
// cursor saved after each page is where a restarted consumer goes on from.
import { GuideService } from '@guide-service/sdk';

const client = new GuideService({ apiKey: process.env.GUIDE_API_KEY!, baseUrl: process.env.GUIDE_URL! });
const stop = new AbortController();

export const seen: string[] = [];
/** Where to go on from: keep it where the consumer's own state is kept (a file, a row). */
export let savedCursor: string | undefined = process.env.LAST_EVENT_CURSOR;
export const tailing = (async () => {
  const pages = client.events.tail({ types: ['guide.created', 'guide.updated'], after: savedCursor }, { signal: stop.signal });
  for await (const page of pages) {
    // The service no longer keeps what came after the saved cursor: everything kept comes again, dedupe on id.
    if (page.restarted) console.warn('the saved cursor had expired: starting over from the oldest event kept');
    for (const event of page.events) seen.push(`${event.type} ${event.id}`);
    savedCursor = page.cursor;
  }
})().catch((error: unknown) => {
  if (!stop.signal.aborted) throw error;
});
export const stopTailing = () => stop.abort();
