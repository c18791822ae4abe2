import { describe, expect, it } from 'vitest';
import {
  createGuide,
  organizationWithTeams,
  useTestService,
} from '../../support/service.js';

const t = useTestService();

describe('smoke', () => {
  it('lists and reads a guide with an organization key', async () => {
    const { teams, key } = await organizationWithTeams(t);
    const guide = await createGuide(t, teams[0].id, { steps: [{ text: 'Do it', image_url: 'https://example.com/a.png' }] });
    const list = await t.get('/v1/guides', key);
    expect(list.statusCode).toBe(200);
    expect(list.json().data[0].id).toBe(guide.id);
    const detail = await t.get(`/v1/guides/${guide.id}`, key);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data.markdown_body).toContain('1. Do it');
    const missing = await t.get(`/v1/guides/nothing-here`, key);
    expect(missing.statusCode).toBe(404);
    const teamsAnswer = await t.get('/v1/teams', key);
    expect(teamsAnswer.json().data).toHaveLength(2);
    const verify = await t.get('/v1/auth/verify', key);
    expect(verify.statusCode).toBe(200);
    const head = await t.request('HEAD', '/v1/teams', key);
    expect(head.statusCode).toBe(200);
  });
});
