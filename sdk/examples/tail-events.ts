// Catching up on every change, then following new ones as they happen, without a webhook endpoint.
import { GuideService } from '@guide-service/sdk';

const client = new GuideService({ apiKey: process.env.GUIDE_API_KEY!, baseUrl: process.env.GUIDE_URL! });
const stop = new AbortController();

export const seen: string[] = [];
export const tailing = (async () => {
  // Resume from the last event handled (kept by you), or from the oldest the service keeps.
  const after = process.env.LAST_EVENT_CURSOR;
  for await (const event of client.events.tail({ types: ['guide.created', 'guide.updated'], ...(after ? { after } : {}) }, { signal: stop.signal })) {
    seen.push(`${event.type} ${event.id}`);
  }
})().catch((error: unknown) => {
  if (!stop.signal.aborted) throw error;
});
export const stopTailing = () => stop.abort();
