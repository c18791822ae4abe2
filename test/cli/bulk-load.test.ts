// The bulk loader (issue 5's data set, also for operators): what it writes is what the domain would
// write, so the REST interface serves it like any other data.
import { describe, expect, it } from 'vitest';
import { loadBulkData } from '../../src/cli/bulk-data.js';
import { useTestService } from '../support/service.js';

const t = useTestService();

describe('bulk loader', () => {
  it('fills the store with organizations, teams, members and guides the REST interface serves', async () => {
    const result = await loadBulkData(t.service.ctx, { organizations: 4, teams: 12, guides: 600, users: 60, bigTeamMembers: 30, seed: 7 });

    const teams = (await t.get('/v1/teams', result.organizationKey)).json().data;
    expect(teams).toHaveLength(3); // 12 teams over 4 organizations
    const page = (await t.get('/v1/guides?limit=100', result.organizationKey)).json();
    expect(page.data).toHaveLength(100);
    expect(page.next_cursor).not.toBeNull();

    const long = (await t.get(`/v1/guides/${result.longGuideId}`, result.organizationKey)).json().data;
    expect(long.notice).toBeNull();
    expect(long.markdown_body.match(/^\d+\. /gm)!.length).toBeGreaterThanOrEqual(50);

    const free = (await t.get(`/v1/guides/${result.freeGuideId}`, result.freeTeamKey)).json().data;
    expect(free.notice).not.toBeNull();

    const members = (await t.get(`/v1/members?team_id=${result.bigTeamId}`, result.teamKey)).json().data;
    expect(members).toHaveLength(30);

    const common = (await t.get('/v1/guides?q=GUIDE&limit=5', result.organizationKey)).json().data;
    expect(common.length).toBeGreaterThan(0);
    for (const guide of common) expect(guide.title.toLowerCase()).toContain('guide');
  });
});
