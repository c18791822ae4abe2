import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuide, organizationWithTeams, soloTeam, startTestService, type TestService } from '../../support/service.js';

let t: TestService;
beforeAll(async () => { t = await startTestService(); });
afterAll(() => t.close());
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
it('probe', async () => {
  const { teams, key } = await organizationWithTeams(t);
  for (let i = 0; i < 3; i++) await createGuide(t, teams[1].id, { title: 'x' + i });
  const r = await t.get('/v1/guides?limit=2', key);
  const c = r.json().next_cursor; console.log(c, c.length);
  const dot = c.indexOf('.');
  const res: string[] = [];
  for (const i of [dot - 1, c.length - 1, 5, dot + 5]) {
    const ch = B64[B64.indexOf(c[i]) ^ 1];
    const alt = c.slice(0, i) + ch + c.slice(i + 1);
    const s = (await t.service.app.inject({ method: 'GET', url: '/v1/guides?limit=2&cursor=' + alt, headers: { authorization: `Bearer ${key}` } }));
    res.push(`${i} ${c[i]}->${ch} ${s.statusCode} ${s.body.slice(0,100)}`);
  }
  console.log(res.join('\n'));
  const ok = await t.get('/v1/guides?limit=2&cursor=' + c, key);
  console.log(ok.statusCode, ok.body.slice(0, 100));
});
