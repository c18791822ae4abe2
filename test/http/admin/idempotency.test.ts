// Idempotency keys on the management API's writes (shared decisions §11, issue 42): a repeat of a keyed
// write gets the first answer again with Idempotency-Replayed and does nothing again, even when the first
// answer never reached the client; two at once make one; the key with another request is 422; a repeat
// while the first runs is 409 with Retry-After; refusals are not kept; keys are per credential, for 24
// hours; a malformed key is 400.
import { request as httpRequest } from 'node:http';
import { type AddressInfo, createServer, Socket } from 'node:net';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { pruneIdempotencyKeys } from '../../../src/domain/idempotency.js';
import { asSession, signIn } from '../../console/sessions.js';
import { ADMIN_TOKEN, organizationWithTeams, useTestService } from '../../support/service.js';
import { usingPostgres } from '../../support/test-database.js';
import { createUser, expectProblem, rawAdmin } from './helpers.js';

const t = useTestService();

const keyed = (key: string, method: string, path: string, body?: unknown) =>
  rawAdmin(t, method, path, body === undefined ? undefined : JSON.stringify(body), { 'idempotency-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) });

const newKey = () => `key-${Math.random().toString(36).slice(2)}`;

async function guidesTitled(title: string): Promise<number> {
  const row = await t.service.ctx.db.selectFrom('guides').select((eb) => eb.fn.countAll().as('n')).where('title', '=', title).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function aTeam(): Promise<string> {
  return (await organizationWithTeams(t, 'growth', 1)).teams[0].id;
}

describe('a repeated keyed write (shared decisions §11)', () => {
  it('gets the first answer again (status, body), with Idempotency-Replayed: true, and is not done again', async () => {
    const team = await aTeam();
    const key = newKey();
    const first = await keyed(key, 'POST', '/guides', { team_id: team, title: 'Once only' });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    const again = await keyed(key, 'POST', '/guides', { team_id: team, title: 'Once only' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.body).toBe(first.body);
    expect(await guidesTitled('Once only')).toBe(1);
    // Its events were written once too.
    const events = await t.service.ctx.db.selectFrom('events').select('id').where('type', '=', 'guide.created').where('payload', 'like', `%${first.json().data.id}%`).execute();
    expect(events).toHaveLength(1);
  });

  it('a DELETE and a change with no body answer 204 again, not 404', async () => {
    const team = await aTeam();
    const guide = (await keyed(newKey(), 'POST', '/guides', { team_id: team, title: 'Deleted once' })).json().data;
    const key = newKey();
    expect((await keyed(key, 'DELETE', `/guides/${guide.id}`)).statusCode).toBe(204);
    const again = await keyed(key, 'DELETE', `/guides/${guide.id}`);
    expect(again.statusCode).toBe(204);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.body).toBe('');
  });

  it('two identical keyed POSTs at once make one guide: the other waits for the first answer (409 idempotency_key_in_use, Retry-After: 1), then gets it', async () => {
    const team = await aTeam();
    const key = newKey();
    const answers = await Promise.all([1, 2, 3].map(() => keyed(key, 'POST', '/guides', { team_id: team, title: 'Raced' })));
    const created = answers.filter((answer) => answer.statusCode === 201);
    const inUse = answers.filter((answer) => answer.statusCode === 409);
    expect(created.length + inUse.length).toBe(3);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const answer of inUse) {
      expectProblem(answer, 409, 'idempotency_key_in_use');
      expect(answer.headers['retry-after']).toBe('1');
    }
    expect(new Set(created.map((answer) => answer.json().data.id)).size).toBe(1);
    expect(await guidesTitled('Raced')).toBe(1);
    const later = await keyed(key, 'POST', '/guides', { team_id: team, title: 'Raced' });
    expect(later.headers['idempotency-replayed']).toBe('true');
    expect(later.json().data.id).toBe(created[0]!.json().data.id);
  });

  it('a write whose answer never reached the client (the connection dropped as the answer came) is answered again, not done again', async () => {
    const team = await aTeam();
    const key = newKey();
    const body = JSON.stringify({ team_id: team, title: 'Answer lost' });
    await t.service.app.listen({ port: 0, host: '127.0.0.1' });
    const service = t.service.app.server.address() as AddressInfo;
    // Between the client and the service: the request goes through, and the connection is cut as soon
    // as the answer starts, so the client never sees it.
    const cutter = createServer((client: Socket) => {
      const upstream = new Socket();
      upstream.connect(service.port, '127.0.0.1', () => client.pipe(upstream));
      upstream.on('data', () => {
        client.destroy();
        upstream.destroy();
      });
      client.on('error', () => undefined);
      upstream.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => cutter.listen(0, '127.0.0.1', resolve));
    try {
      const lost = await new Promise<string>((resolve) => {
        const request = httpRequest(
          {
            host: '127.0.0.1',
            port: (cutter.address() as AddressInfo).port,
            path: '/admin/v1/guides',
            method: 'POST',
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': key, 'content-length': String(Buffer.byteLength(body)) },
          },
          () => resolve('answered'),
        );
        request.on('error', (error) => resolve(`no answer: ${error.message}`));
        request.end(body);
      });
      expect(lost).toMatch(/^no answer/);
    } finally {
      cutter.close();
    }
    expect(await guidesTitled('Answer lost')).toBe(1);
    const again = await keyed(key, 'POST', '/guides', JSON.parse(body));
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.json().data.title).toBe('Answer lost');
    expect(await guidesTitled('Answer lost')).toBe(1);
  });
});

describe('what a key may not be used for', () => {
  it('the same key with another body, path or method is 422 idempotency_key_reused, and nothing is done', async () => {
    const team = await aTeam();
    const key = newKey();
    const first = await keyed(key, 'POST', '/guides', { team_id: team, title: 'First use' });
    expect(first.statusCode).toBe(201);
    expectProblem(await keyed(key, 'POST', '/guides', { team_id: team, title: 'Another body' }), 422, 'idempotency_key_reused');
    expectProblem(await keyed(key, 'POST', '/teams', { name: 'Another path', organization_id: null, plan: 'free' }), 422, 'idempotency_key_reused');
    expectProblem(await keyed(key, 'PATCH', `/guides/${first.json().data.id}`, { title: 'Another method' }), 422, 'idempotency_key_reused');
    expect(await guidesTitled('Another body')).toBe(0);
    expect((await t.admin('GET', `/guides/${first.json().data.id}`)).title).toBe('First use');
  });

  it.each([
    ['empty', ''],
    ['with a space', 'two words'],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['not ASCII', 'clé'],
  ])('a key %s is 400 invalid_request naming the header, and nothing is done', async (_, key) => {
    const team = await aTeam();
    const answer = await rawAdmin(t, 'POST', '/guides', JSON.stringify({ team_id: team, title: `Bad key ${key.length}` }), {
      'content-type': 'application/json',
      'idempotency-key': key,
    });
    const problem = expectProblem(answer, 400, 'invalid_request');
    expect(problem.detail).toContain('Idempotency-Key');
    expect(await guidesTitled(`Bad key ${key.length}`)).toBe(0);
  });

  it('a key of 255 visible ASCII characters is taken', async () => {
    const team = await aTeam();
    const key = `${'!~'.repeat(127)}x`;
    expect((await keyed(key, 'POST', '/guides', { team_id: team, title: 'Longest key' })).statusCode).toBe(201);
  });
});

describe('what is kept', () => {
  it('a refusal is not kept: the key is free for the request that follows', async () => {
    const team = await aTeam();
    const key = newKey();
    const guide = await t.admin('POST', '/guides', { team_id: team, title: 'Moved later' });
    const nowhere = '00000000-0000-4000-8000-0000000000aa';
    expectProblem(await keyed(key, 'POST', `/guides/${guide.id}/move`, { team_id: nowhere }), 404, 'not_found');
    expectProblem(await keyed(key, 'POST', `/guides/${guide.id}/move`, { team_id: nowhere }), 404, 'not_found');
    // Another body with the key: were the refusal kept, this would be 422.
    const moved = await keyed(key, 'POST', `/guides/${guide.id}/move`, { team_id: await aTeam() });
    expect(moved.statusCode).toBe(200);
    expect(moved.headers['idempotency-replayed']).toBeUndefined();
  });

  it.runIf(!usingPostgres)('a 503 that rolled back is not kept: once the store serves again, the repeat runs and writes once', async () => {
    const team = await aTeam();
    const key = newKey();
    await sql`PRAGMA query_only = 1`.execute(t.service.ctx.db);
    try {
      expectProblem(await keyed(key, 'POST', '/guides', { team_id: team, title: 'After the fault' }), 503, 'service_unavailable');
    } finally {
      await sql`PRAGMA query_only = 0`.execute(t.service.ctx.db);
    }
    expect(await guidesTitled('After the fault')).toBe(0);
    const repeat = await keyed(key, 'POST', '/guides', { team_id: team, title: 'After the fault' });
    expect(repeat.statusCode).toBe(201);
    expect(repeat.headers['idempotency-replayed']).toBeUndefined();
    expect(await guidesTitled('After the fault')).toBe(1);
  });

  it('keys are per credential: the operator and a person may use the same key for their own writes', async () => {
    const { organization, teams } = await organizationWithTeams(t, 'growth', 1);
    const person = await createUser(t);
    await t.admin('PUT', `/organizations/${organization.id}/admins/${person.id}`);
    const session = await signIn(t, person.email);
    const key = newKey();
    const byOperator = await keyed(key, 'POST', '/guides', { team_id: teams[0].id, title: 'Same key, operator' });
    expect(byOperator.statusCode).toBe(201);
    const byPerson = await t.service.app.inject({
      method: 'POST',
      url: '/admin/v1/guides',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, 'content-type': 'application/json', 'idempotency-key': key },
      payload: JSON.stringify({ team_id: teams[0].id, title: 'Same key, person' }),
    });
    expect(byPerson.statusCode).toBe(201);
    expect(byPerson.headers['idempotency-replayed']).toBeUndefined();
    // And the person's own repeat is theirs.
    const repeat = await t.service.app.inject({
      method: 'POST',
      url: '/admin/v1/guides',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, 'content-type': 'application/json', 'idempotency-key': key },
      payload: JSON.stringify({ team_id: teams[0].id, title: 'Same key, person' }),
    });
    expect(repeat.headers['idempotency-replayed']).toBe('true');
    expect(repeat.json().data.id).toBe(byPerson.json().data.id);
    expect((await asSession(t, session, 'GET', `/guides/${byPerson.json().data.id}`)).statusCode).toBe(200);
  });

  it('for 24 hours: after that the key is new again, and the old answers are pruned', async () => {
    const team = await aTeam();
    const key = newKey();
    expect((await keyed(key, 'POST', '/guides', { team_id: team, title: 'A day later' })).statusCode).toBe(201);
    t.clock.advance(24 * 3_600_000 + 1000);
    const next = await keyed(key, 'POST', '/guides', { team_id: team, title: 'A day later' });
    expect(next.statusCode).toBe(201);
    expect(next.headers['idempotency-replayed']).toBeUndefined();
    expect(await guidesTitled('A day later')).toBe(2);
    t.clock.advance(24 * 3_600_000 + 1000);
    await pruneIdempotencyKeys(t.service.ctx);
    const left = await sql<{ n: number }>`select count(*) as n from idempotency_keys`.execute(t.service.ctx.db);
    expect(Number(left.rows[0]!.n)).toBe(0);
  });

  it('an erasure (its own transactions, safe to repeat) answers 204 again with Idempotency-Replayed', async () => {
    const person = await createUser(t);
    const key = newKey();
    expect((await keyed(key, 'POST', `/users/${person.id}/erase`)).statusCode).toBe(204);
    const again = await keyed(key, 'POST', `/users/${person.id}/erase`);
    expect(again.statusCode).toBe(204);
    expect(again.headers['idempotency-replayed']).toBe('true');
  });
});

afterAll(async () => {
  await t.service.app.close().catch(() => undefined);
});
