// A genuine server fault answers internal_error with the request id and no stack trace, and the log
// has the cause; keys never reach the log.
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, organizationWithTeams, startTestService, type TestService } from '../support/service.js';

let t: TestService | undefined;
afterEach(async () => {
  await t?.close().catch(() => undefined);
  t = undefined;
});

describe('server faults and logs', () => {
  it('a fault answers internal_error with the request id, hides the cause and logs it (spec §7)', async () => {
    const logLines: string[] = [];
    t = await startTestService({}, { logLines });
    const { key } = await organizationWithTeams(t);
    // Break the store behind the service's back: the next query fails inside the handler.
    await t.service.store.db.schema.dropTable('memberships').execute();
    const teams = (await t.get('/v1/teams', key)).json().data;
    const response = await t.get(`/v1/members?team_id=${teams[0].id}`, key, { 'x-request-id': 'fault-check-1' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toMatchObject({ status: 500, code: 'internal_error', request_id: 'fault-check-1' });
    expect(response.body).not.toMatch(/memberships|SqliteError|\bat \S+:\d+/);
    const faultLog = logLines.map((line) => JSON.parse(line)).find((entry) => entry.level === 50);
    expect(faultLog.request_id).toBe('fault-check-1');
    expect(JSON.stringify(faultLog.err)).toContain('memberships');
  });

  it('API keys and the admin token never appear in the log', async () => {
    const logLines: string[] = [];
    t = await startTestService({}, { logLines });
    const { key } = await organizationWithTeams(t);
    await t.get('/v1/guides', key);
    await t.get('/v1/guides', `${key}x`);
    await t.get('/v1/nope', key);
    expect(logLines.length).toBeGreaterThan(3);
    const log = logLines.join('\n');
    expect(log).not.toContain(key);
    expect(log).not.toContain(ADMIN_TOKEN);
  });
});
