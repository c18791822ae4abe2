// The references show no host but the one they are served at (issue 43, item 4): every sample request and
// every recorded answer in /docs and /v1/openapi.json is on the service's PUBLIC_URL (guide links in
// events on APP_URL, which defaults to it), whatever the service was recorded with; the only other hosts
// are the reserved example.com names of third parties (a screenshot's CDN, a receiver's endpoint).
import { describe, expect, it } from 'vitest';
import { V1_EXAMPLES } from '../../src/http/docs/recorded-examples.js';
import { useTestService } from '../support/service.js';

const SERVED = 'https://help.northwind.test:8443';
const t = useTestService({ PUBLIC_URL: SERVED });

const origins = (text: string) => new Set([...text.matchAll(/https?:\/\/[A-Za-z0-9.:[\]-]+/g)].map((match) => match[0]));

describe('sample hosts in the v1 reference', () => {
  it.each(['/docs', '/v1/openapi.json'])('%s names the served host and example.com third parties only', async (url) => {
    const response = await t.service.app.inject({ url });
    expect(response.statusCode).toBe(200);
    const others = [...origins(response.body)].filter((origin) => origin !== SERVED && !new URL(origin).hostname.endsWith('.example.com'));
    expect(others).toEqual([]);
  });

  it("the recorded listEvents answer links its guide on the served host, as the service's own events would", async () => {
    const document = (await t.service.app.inject({ url: '/v1/openapi.json' })).json();
    const example = document.paths['/events'].get.responses['200'].content['application/json'].example;
    const recordedId = (V1_EXAMPLES.listEvents!.body as any).data[0].data.guide.id;
    expect(example.data[0].data.guide.url).toBe(`${SERVED}/guides/${recordedId}`);
  });
});
