// An e-mail address is personal data, kept out of the log (docs/decisions.md, "No e-mail address in the
// log"; issue 41): the operator looking a person up by address (`GET /admin/v1/users?email=…`) leaves the
// address out of the request log line, raw or percent-encoded, and so does an address anywhere else in a URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/service.js';

let t: TestService;
const lines: string[] = [];
beforeAll(async () => {
  t = await startTestService({}, { logLines: lines });
});
afterAll(() => t.close());

describe('an e-mail address in a URL is in no log line', () => {
  it('looking a person up by e-mail address logs the lookup without the address', async () => {
    const address = 'Dana.Lookup+tag@people.example';
    const user = await t.admin('POST', '/users', { email: address, name: 'Dana Lookup' });
    const urls = [
      `/admin/v1/users?email=${encodeURIComponent(address)}`,
      `/admin/v1/users?email=${address.replace('+', '%2B')}`,
      `/admin/v1/users?email=${encodeURIComponent(encodeURIComponent(address))}`,
      `/admin/v1/users?email=dana.lookup`,
    ];
    lines.length = 0;
    const found = await t.service.app.inject({ method: 'GET', url: urls[0]!, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(found.json().data.map((person: { id: string }) => person.id)).toEqual([user.id]);
    for (const url of urls.slice(1)) await t.service.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

    const urlsLogged = lines.map((line) => JSON.parse(line).req?.url).filter((url) => url !== undefined);
    expect(urlsLogged).toEqual(urls.map(() => '/admin/v1/users?email=[redacted]'));
    expect(lines.filter((line) => /dana|lookup/i.test(line))).toEqual([]);
  });

  it('an address in the path or another parameter is replaced, and the rest of the URL kept', async () => {
    lines.length = 0;
    const urls = ['/admin/v1/users/erin@people.example', '/v1/guides?q=erin%40people.example&limit=5', '/console/people?find=erin%2540people.example'];
    for (const url of urls) await t.service.app.inject({ method: 'GET', url });
    const urlsLogged = lines.map((line) => JSON.parse(line).req?.url).filter((url) => url !== undefined);
    expect(urlsLogged).toEqual(['/admin/v1/users/[redacted]', '/v1/guides?q=[redacted]&limit=5', '/console/people?find=[redacted]']);
    expect(lines.filter((line) => line.includes('erin'))).toEqual([]);
  });
});
