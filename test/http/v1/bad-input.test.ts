import { afterAll, beforeAll, it } from 'vitest';
import { createGuide, organizationWithTeams, startTestService, type TestService } from '../../support/service.js';
let t: TestService;
beforeAll(async () => { t = await startTestService(); });
afterAll(() => t.close());
it('probe', async () => {
  const { teams, key } = await organizationWithTeams(t);
  const tid = teams[0].id;
  const pl = 'a' + '-b'.repeat(59) + 'c';
  console.log(pl.length);
  const g = await createGuide(t, tid, { permalink: pl });
  const reqs: [string, string, string | null][] = [
    ['GET', '/v1/guides/' + pl, key],
    ['GET', '/v1/guides/' + 'a'.repeat(100000), key],
    ['GET', '/v1/guides/' + 'a'.repeat(100000), null],
    ['GET', '/v1/guides/%ZZ', key],
    ['GET', '/v1/guides/%ZZ', null],
    ['GET', '/v1/nope', null],
    ['GET', '/nope', null],
    ['HEAD', '/v1/guides', key],
    ['HEAD', '/v1/nope', key],
    ['OPTIONS', '/v1/guides', key],
    ['POST', '/v1/guides', key],
    ['POST', '/v1/guides', null],
    ['DELETE', '/v1/guides/abc', key],
    ['GET', '/v1/guides?' + 'x'.repeat(100000) + '=1', key],
    ['GET', '/v1/guides?q=' + 'a'.repeat(100000), key],
  ];
  for (const [m, url, k] of reqs) {
    const r = await t.service.app.inject({ method: m as any, url, headers: k ? { authorization: 'Bearer ' + k } : {} });
    const h = r.headers;
    console.log(m, url.slice(0, 60), r.statusCode, JSON.stringify({ rid: h['x-request-id'], l: h['ratelimit-limit'], r: h['ratelimit-remaining'], allow: h['allow'], ct: h['content-type'], cl: h['content-length'] }), r.body.slice(0, 200));
  }
  for (const rid of ['abc', 'a'.repeat(128), 'a'.repeat(129), 'a b', 'é', '']) {
    const r = await t.service.app.inject({ method: 'GET', url: '/v1/nope', headers: { 'x-request-id': rid } });
    console.log(JSON.stringify(rid.slice(0,5)), r.statusCode, r.headers['x-request-id'], r.json().request_id);
  }
});
