// A team or an organization may register at most WEBHOOK_MAX_ENDPOINTS_PER_HOME endpoints (decisions §9):
// the next is a 409 `limit_reached` problem naming the limit, nothing of it is written (no endpoint, no
// ping), other homes are not affected, and deleting one makes room. Registrations racing each other
// cannot pass the count together.
import { describe, expect, it } from 'vitest';
import { expectProblem } from '../http/admin/helpers.js';
import { organizationWithTeams, soloTeam, useTestService } from '../support/service.js';

const t = useTestService({ ROLE: 'api', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_MAX_ENDPOINTS_PER_HOME: '2' });

type Home = { type: 'team' | 'organization'; id: string };
const register = (home: Home, n: number) =>
  t.adminRaw('POST', '/webhook-endpoints', { home, url: `http://127.0.0.1:9/hook/${n}`, events: ['guide.created'] });

async function endpointsOf(home: Home) {
  return t.admin<any[]>('GET', `/webhook-endpoints?home_type=${home.type}&home_id=${home.id}`);
}

async function pingCount(): Promise<number> {
  const row = await t.service.ctx.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', 'ping').executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('endpoints per home (decisions §9)', () => {
  for (const kind of ['team', 'organization'] as const) {
    it(`a ${kind} gets its first WEBHOOK_MAX_ENDPOINTS_PER_HOME endpoints; the next is 409 limit_reached naming the limit, and nothing of it is written`, async () => {
      const home: Home = kind === 'team' ? { type: 'team', id: (await soloTeam(t)).team.id } : { type: 'organization', id: (await organizationWithTeams(t)).organization.id };
      for (const n of [1, 2]) expect((await register(home, n)).statusCode).toBe(201);
      const pings = await pingCount();
      const body = expectProblem(await register(home, 3), 409, 'limit_reached');
      expect(body.title).toBe('Limit reached');
      expect(body.detail).toBe(
        `This ${kind} already has 2 webhook endpoints, the most it may have (WEBHOOK_MAX_ENDPOINTS_PER_HOME is 2); delete one to add another`,
      );
      expect(await endpointsOf(home)).toHaveLength(2);
      expect(await pingCount()).toBe(pings);
    });
  }

  it('the limit counts per home: another team, and the organization of a full team, still register theirs', async () => {
    const { organization, teams } = await organizationWithTeams(t);
    const full: Home = { type: 'team', id: teams[0].id };
    for (const n of [1, 2]) expect((await register(full, n)).statusCode).toBe(201);
    expect((await register(full, 3)).statusCode).toBe(409);
    expect((await register({ type: 'team', id: teams[1].id }, 1)).statusCode).toBe(201);
    expect((await register({ type: 'organization', id: organization.id }, 1)).statusCode).toBe(201);
  });

  it('deleting an endpoint makes room for another', async () => {
    const home: Home = { type: 'team', id: (await soloTeam(t)).team.id };
    const first = (await register(home, 1)).json().data;
    await register(home, 2);
    expect((await register(home, 3)).statusCode).toBe(409);
    await t.admin('DELETE', `/webhook-endpoints/${first.id}`);
    expect((await register(home, 3)).statusCode).toBe(201);
  });

  it('registrations sent at once cannot pass the count together: of eight, exactly two are made', async () => {
    const home: Home = { type: 'team', id: (await soloTeam(t)).team.id };
    const answers = await Promise.all(Array.from({ length: 8 }, (_, n) => register(home, n)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 409, 409, 409, 409, 409, 409]);
    expect(await endpointsOf(home)).toHaveLength(2);
  });

  it('the problem code is documented in the reference and in the OpenAPI document of the management API', async () => {
    const docs = await t.service.app.inject({ method: 'GET', url: '/docs' });
    expect(docs.body).toContain('id="error-limit_reached"');
    const openapi = (await t.adminRaw('GET', '/openapi.json')).json();
    expect(openapi.paths['/webhook-endpoints'].post.responses['409'].description).toContain('`limit_reached`');
  });
});
