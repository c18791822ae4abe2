// Reading guides: every page in turn, one guide, and the errors worth telling apart.
import { GuideService, GuideServiceError } from '@guide-service/sdk';

const client = new GuideService({ apiKey: process.env.GUIDE_API_KEY!, baseUrl: process.env.GUIDE_URL! });

export const titles: (string | null)[] = [];
for await (const guide of client.guides.list({ q: 'password' })) titles.push(guide.title);

try {
  const guide = await client.guides.get('reset-a-password');
  console.log(guide.title, guide.markdown_body?.length ?? 0, 'characters of markdown');
} catch (error) {
  if (!(error instanceof GuideServiceError)) throw error;
  switch (error.code) {
    case 'not_found':
      console.log('no such guide');
      break;
    case 'rate_limited':
      console.log(`slow down: ${error.rateLimit?.resetSeconds} s to the next window`);
      break;
    default:
      console.log(`${error.code} (${error.status}): ${error.detail}, request ${error.requestId}`);
  }
}
