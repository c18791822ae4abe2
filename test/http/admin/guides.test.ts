// Guides through the management API (decisions §7, §2, §3; spec §2.3, §3.2).
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  createGuide,
  createKey,
  organizationWithTeams,
  soloTeam,
  useTestService,
} from '../../support/service.js';
import { DEFAULT_GUIDE_VALUES, GUIDE_FIELDS } from '../../support/spec-fields.js';
import {
  ANY_CASE_UUID,
  createUser,
  expectConflict,
  expectInvalid,
  expectNotFound,
  LOWER_UUID,
  PERMALINK_SLUG,
  RFC3339_MS,
  UNKNOWN_ID,
} from './helpers.js';

const t = useTestService();


// A folder is its team's once a guide names it: each test gets folders of its own.
let [FOLDER_A, FOLDER_B, FOLDER_HEX_A, FOLDER_HEX_B] = folders();
beforeEach(() => {
  [FOLDER_A, FOLDER_B, FOLDER_HEX_A, FOLDER_HEX_B] = folders();
});

function folders(): [string, string, string, string] {
  // The hex ones have letters, so that an upper-case spelling differs from the stored one.
  return [randomUUID(), randomUUID(), `aaaaaaaa-bbbb-4ccc-8ddd-${randomUUID().slice(-12)}`, `abcdef01-2345-4678-9abc-${randomUUID().slice(-12)}`];
}

async function newTeam(plan = 'growth') {
  return t.admin('POST', '/teams', { name: `Team ${Math.random()}`, plan });
}

describe('POST /guides', () => {
  it('answers 201 with the REST guide shape whole plus processing_state, with the defaults', async () => {
    const team = await newTeam();
    const response = await t.adminRaw('POST', '/guides', { team_id: team.id });
    expect(response.statusCode).toBe(201);
    const guide = response.json().data;
    for (const key of [...GUIDE_FIELDS, 'processing_state']) expect(guide, key).toHaveProperty(key);
    expect(guide).toMatchObject({
      team_id: team.id,
      ...DEFAULT_GUIDE_VALUES,
      processing_state: 'finished',
    });
    expect(guide.id).toMatch(LOWER_UUID);
    expect(guide.created_at).toMatch(RFC3339_MS);
    expect(guide.updated_at).toBe(guide.created_at);
    expect(typeof guide.markdown_body).toBe('string');
  });

  it('takes every writable field and answers it back', async () => {
    const team = await t.admin('POST', '/teams', { name: 'Full', plan: 'growth', brand_color: '#FF0000' });
    const owner = await createUser(t, { name: 'Owner Name' });
    await t.admin('PUT', `/teams/${team.id}/members/${owner.id}`, { role: 'EDITOR' });
    const fields = {
      team_id: team.id,
      title: 'Set up single sign-on',
      description: 'How to connect your identity provider.',
      owner_id: owner.id,
      language: 'pt-BR',
      text_direction: 'rtl',
      app_version: '4.2.0',
      icon_url: 'https://example.com/icon.png',
      thumbnail_url: 'http://example.com/thumb.png',
      tags: ['sso', 'security'],
      folder_id: FOLDER_A,
      publish_status: 'PUBLISHED',
      is_public: true,
      team_role: 'EDITOR',
      permalink: `set-up-sso-${Date.now()}`,
      steps: [
        { text: 'Open settings', image_url: 'https://example.com/1.png', image_alt: 'Settings page' },
        { text: 'Pick a provider' },
      ],
    };
    const guide = await t.admin('POST', '/guides', fields);
    expect(guide).toMatchObject({
      team_id: team.id,
      title: fields.title,
      description: fields.description,
      owner_id: owner.id,
      owner_name: 'Owner Name',
      language: 'pt-BR',
      text_direction: 'rtl',
      app_version: '4.2.0',
      icon_url: fields.icon_url,
      thumbnail_url: fields.thumbnail_url,
      tags: ['sso', 'security'],
      folder_id: FOLDER_A,
      publish_status: 'PUBLISHED',
      is_public: true,
      team_role: 'EDITOR',
      permalink: fields.permalink,
      brand_color: '#FF0000',
      processing_state: 'finished',
    });
    expect(guide.steps).toEqual([
      { text: 'Open settings', image_url: 'https://example.com/1.png', image_alt: 'Settings page' },
      { text: 'Pick a provider', image_url: null, image_alt: null },
    ]);
    expect(guide.markdown_body).toContain('# Set up single sign-on');
    expect(guide.markdown_body).toContain('1. Open settings');
    expect(guide.markdown_body).toContain('![Settings page](https://example.com/1.png)');
    expect(guide.markdown_body).toContain('2. Pick a provider');
    expect(await t.admin('GET', `/guides/${guide.id}`)).toEqual(guide);
  });

  it('answers the whole guide, never cut by plan: a free team still gets every step and no notice (decisions §7)', async () => {
    const team = await newTeam('free');
    const steps = [1, 2, 3, 4, 5, 6].map((n) => ({ text: `Step number ${n}` }));
    const guide = await t.admin('POST', '/guides', { team_id: team.id, title: 'Long', steps });
    expect(guide.notice).toBeNull();
    for (let n = 1; n <= 6; n++) expect(guide.markdown_body).toContain(`Step number ${n}`);
    // The REST interface, on the same free plan, answers a preview of the same guide.
    const key = await createKey(t, { type: 'team', id: team.id });
    const rest = (await t.get(`/v1/guides/${guide.id}`, key.secret)).json().data;
    expect(rest.notice).not.toBeNull();
    expect(rest.markdown_body).not.toContain('Step number 6');
  });

  it('sets text_direction rtl for a right-to-left language unless given (decisions §2)', async () => {
    const team = await newTeam();
    for (const language of ['ar', 'he', 'fa', 'ur', 'ps', 'sd', 'yi', 'dv', 'ug', 'ar-EG']) {
      expect((await createGuide(t, team.id, { language })).text_direction, language).toBe('rtl');
    }
    for (const language of ['en', 'pt-BR', 'de', 'zh-Hant-TW', 'es-419']) {
      const guide = await createGuide(t, team.id, { language });
      expect(guide.language).toBe(language);
      expect(guide.text_direction, language).toBe('ltr');
    }
    expect((await createGuide(t, team.id, { language: 'ar', text_direction: 'ltr' })).text_direction).toBe('ltr');
  });

  it('answers 404 not_found for a team that does not exist', async () => {
    expectNotFound(await t.adminRaw('POST', '/guides', { team_id: UNKNOWN_ID, title: 'x' }));
  });

  it('takes team_id in any letter case and answers the lowercase id (decisions §2)', async () => {
    const team = await newTeam();
    const guide = await t.admin('POST', '/guides', { team_id: team.id.toUpperCase() });
    expect(guide.team_id).toBe(team.id);
  });

  it('takes owner_id in any letter case as the same user (decisions §2: ids are lowercase UUIDs)', async () => {
    const team = await newTeam();
    const owner = await createUser(t, { name: 'Upper' });
    await t.admin('PUT', `/teams/${team.id}/members/${owner.id}`, { role: 'EDITOR' });
    const response = await t.adminRaw('POST', '/guides', { team_id: team.id, owner_id: owner.id.toUpperCase() });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toMatchObject({ owner_id: owner.id, owner_name: 'Upper' });
  });

  it('stores a folder_id given in upper case as a lowercase id (decisions §2: folder ids are lowercase UUIDs)', async () => {
    const team = await newTeam();
    const created = await t.admin('POST', '/guides', { team_id: team.id, folder_id: FOLDER_HEX_A.toUpperCase() });
    expect(created.folder_id).toBe(FOLDER_HEX_A);
    const patched = await t.admin('PATCH', `/guides/${created.id}`, { folder_id: FOLDER_HEX_B.toUpperCase() });
    expect(patched.folder_id).toBe(FOLDER_HEX_B);
  });

  it('refuses an owner_id that names no user, naming owner_id', async () => {
    const team = await newTeam();
    expectInvalid(await t.adminRaw('POST', '/guides', { team_id: team.id, owner_id: UNKNOWN_ID }), 'owner_id');
  });
});

describe('permalinks (decisions §2)', () => {
  it('generates a slug from the title with a short suffix, not UUID-shaped', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id, { title: 'Set up SSO: the quick way!' });
    expect(guide.permalink).toMatch(PERMALINK_SLUG);
    expect(guide.permalink).toMatch(/^set-up-sso-the-quick-way-[a-z0-9]+$/);
    expect(guide.permalink).not.toMatch(ANY_CASE_UUID);
    expect(guide.permalink.length).toBeLessThanOrEqual(120);
  });

  it('generates a valid permalink for a title that is missing, symbols only, accented, very long or UUID-shaped', async () => {
    const team = await newTeam();
    const titles = [null, undefined, '', '!!! ??? ***', '😀🎉', 'Écran à café', 'ÉCRAN', 'x'.repeat(500), 'Ünïcødé — “quotes”', UNKNOWN_ID, '12345678-1234-1234-1234-123456789abc'];
    for (const title of titles) {
      const guide = await t.admin('POST', '/guides', { team_id: team.id, ...(title === undefined ? {} : { title }) });
      expect(guide.permalink, String(title)).toMatch(PERMALINK_SLUG);
      expect(guide.permalink, String(title)).not.toMatch(ANY_CASE_UUID);
      expect(guide.permalink.length, String(title)).toBeLessThanOrEqual(120);
    }
    expect((await createGuide(t, team.id, { title: 'Écran à café' })).permalink).toMatch(/^ecran-a-cafe-[a-z0-9]+$/);
  });

  it('a generated permalink is unique across the service, even for the same title in many teams', async () => {
    const permalinks = new Set<string>();
    const teams = [await newTeam(), await newTeam()];
    for (let i = 0; i < 40; i++) permalinks.add((await createGuide(t, teams[i % 2].id, { title: 'Same title' })).permalink);
    expect(permalinks.size).toBe(40);
  });

  it('the guide is found through GET /v1/guides/{permalink} (decisions §2)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { title: 'Find me' });
    const response = await t.get(`/v1/guides/${guide.permalink}`, key);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.id).toBe(guide.id);
  });

  it('takes an explicit permalink of up to 120 characters', async () => {
    const team = await newTeam();
    const permalink = `p${Date.now()}-`.padEnd(120, 'a');
    expect(permalink.length).toBe(120);
    expect((await createGuide(t, team.id, { permalink })).permalink).toBe(permalink);
  });

  it('an explicit permalink that is taken is 409 conflict, in any team', async () => {
    const [a, b] = [await newTeam(), await newTeam()];
    const permalink = `taken-${Date.now()}`;
    await createGuide(t, a.id, { permalink });
    expectConflict(await t.adminRaw('POST', '/guides', { team_id: a.id, permalink }));
    expectConflict(await t.adminRaw('POST', '/guides', { team_id: b.id, permalink }));
  });

  it('refuses a permalink that is UUID-shaped, uppercase, not a slug, or over 120 characters, naming permalink', async () => {
    const team = await newTeam();
    for (const permalink of [
      '12345678-1234-1234-1234-123456789abc',
      UNKNOWN_ID,
      'Upper-Case',
      'ABC',
      'with space',
      'trailing-',
      '-leading',
      'double--dash',
      'under_score',
      'ümlaut',
      '',
      'a'.repeat(121),
    ]) {
      expectInvalid(await t.adminRaw('POST', '/guides', { team_id: team.id, permalink }), 'permalink');
    }
  });

  it('the permalink of a deleted guide can be taken again', async () => {
    const team = await newTeam();
    const permalink = `reuse-${Date.now()}`;
    const first = await createGuide(t, team.id, { permalink });
    await t.admin('DELETE', `/guides/${first.id}`);
    expect((await createGuide(t, team.id, { permalink })).permalink).toBe(permalink);
  });
});

describe('POST /guides validation: 400 invalid_request naming the field', () => {
  it('refuses each field outside its rules', async () => {
    const team = await newTeam();
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 'x' }, 'team_id'],
      [{ team_id: 'team-1' }, 'team_id'],
      [{ team_id: team.id, title: 'x'.repeat(501) }, 'title'],
      [{ team_id: team.id, description: 'x'.repeat(20_001) }, 'description'],
      [{ team_id: team.id, owner_id: 'someone' }, 'owner_id'],
      [{ team_id: team.id, language: 'english' }, 'language'],
      [{ team_id: team.id, language: 'en_US' }, 'language'],
      [{ team_id: team.id, language: 'e' }, 'language'],
      [{ team_id: team.id, language: '' }, 'language'],
      [{ team_id: team.id, language: 'en-' }, 'language'],
      [{ team_id: team.id, language: '12' }, 'language'],
      [{ team_id: team.id, language: null }, 'language'],
      [{ team_id: team.id, text_direction: 'up' }, 'text_direction'],
      [{ team_id: team.id, text_direction: 'RTL' }, 'text_direction'],
      [{ team_id: team.id, app_version: 'x'.repeat(101) }, 'app_version'],
      [{ team_id: team.id, icon_url: 'ftp://example.com/i.png' }, 'icon_url'],
      [{ team_id: team.id, icon_url: 'javascript:alert(1)' }, 'icon_url'],
      [{ team_id: team.id, icon_url: 'not a url' }, 'icon_url'],
      [{ team_id: team.id, icon_url: `https://example.com/${'x'.repeat(2048)}` }, 'icon_url'],
      [{ team_id: team.id, thumbnail_url: 'file:///etc/passwd' }, 'thumbnail_url'],
      [{ team_id: team.id, tags: 'sso' }, 'tags'],
      [{ team_id: team.id, tags: [''] }, 'tags'],
      [{ team_id: team.id, tags: ['x'.repeat(101)] }, 'tags'],
      [{ team_id: team.id, tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'tags'],
      [{ team_id: team.id, folder_id: 'folder' }, 'folder_id'],
      [{ team_id: team.id, publish_status: 'published' }, 'publish_status'],
      [{ team_id: team.id, publish_status: 'ARCHIVED' }, 'publish_status'],
      [{ team_id: team.id, is_public: 'yes' }, 'is_public'],
      [{ team_id: team.id, team_role: 'OWNER' }, 'team_role'],
      [{ team_id: team.id, team_role: 'editor' }, 'team_role'],
      [{ team_id: team.id, steps: 'one' }, 'steps'],
      [{ team_id: team.id, steps: [{}] }, 'steps'],
      [{ team_id: team.id, steps: [{ text: 'x', image_url: 'ftp://example.com/1.png' }] }, 'steps'],
      [{ team_id: team.id, steps: [{ text: 'x', note: 'extra' }] }, 'note'],
      [{ team_id: team.id, steps: [{ text: 'x'.repeat(20_001) }] }, 'steps'],
      [{ team_id: team.id, steps: [{ text: 'x', image_alt: 'x'.repeat(1001) }] }, 'steps'],
      [{ team_id: team.id, processing: 'maybe' }, 'processing'],
      [{ team_id: team.id, processing_state: 'failed' }, 'processing_state'],
      [{ team_id: team.id, id: UNKNOWN_ID }, 'id'],
      [{ team_id: team.id, markdown_body: '# x' }, 'markdown_body'],
    ];
    for (const [body, field] of cases) {
      const response = await t.adminRaw('POST', '/guides', body);
      expectInvalid(response, field);
    }
  });

  it('takes the bounds themselves: title of 500, 50 tags of 100 characters, 2048-character URLs', async () => {
    const team = await newTeam();
    const url = `https://example.com/${'x'.repeat(2048 - 'https://example.com/'.length)}`;
    const guide = await t.admin('POST', '/guides', {
      team_id: team.id,
      title: 't'.repeat(500),
      tags: Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(100, 'x')),
      icon_url: url,
      app_version: 'v'.repeat(100),
    });
    expect(guide.title).toHaveLength(500);
    expect(guide.tags).toHaveLength(50);
    expect(guide.icon_url).toBe(url);
  });
});

describe('GET /guides/{id}', () => {
  it('answers the guide as created', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id, { steps: [{ text: 'One' }] });
    expect(await t.admin('GET', `/guides/${guide.id}`)).toEqual(guide);
  });

  it('answers 404 not_found for an unknown id', async () => {
    expectNotFound(await t.adminRaw('GET', `/guides/${UNKNOWN_ID}`));
  });
});

describe('PATCH /guides/{id}', () => {
  it('changes each writable field alone and answers the guide', async () => {
    const team = await newTeam();
    const owner = await createUser(t, { name: 'New Owner' });
    await t.admin('PUT', `/teams/${team.id}/members/${owner.id}`, { role: 'EDITOR' });
    const guide = await createGuide(t, team.id, { title: 'Original', steps: [{ text: 'Old step' }] });
    const permalink = `patched-${Date.now()}`;
    const edits: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ title: 'Renamed' }, { title: 'Renamed' }],
      [{ title: null }, { title: null }],
      [{ description: 'Now described' }, { description: 'Now described' }],
      [{ description: null }, { description: null }],
      [{ owner_id: owner.id }, { owner_id: owner.id, owner_name: 'New Owner' }],
      [{ owner_id: null }, { owner_id: null, owner_name: null }],
      [{ language: 'de' }, { language: 'de', text_direction: 'ltr' }],
      [{ language: 'he' }, { language: 'he', text_direction: 'rtl' }],
      [{ text_direction: 'ltr' }, { language: 'he', text_direction: 'ltr' }],
      [{ app_version: '9.9' }, { app_version: '9.9' }],
      [{ icon_url: 'https://example.com/new.png' }, { icon_url: 'https://example.com/new.png' }],
      [{ thumbnail_url: 'https://example.com/t.png' }, { thumbnail_url: 'https://example.com/t.png' }],
      [{ tags: ['a', 'b'] }, { tags: ['a', 'b'] }],
      [{ tags: [] }, { tags: [] }],
      [{ tags: null }, { tags: null }],
      [{ folder_id: FOLDER_B }, { folder_id: FOLDER_B }],
      [{ folder_id: null }, { folder_id: null }],
      [{ publish_status: 'PUBLISHED' }, { publish_status: 'PUBLISHED' }],
      [{ publish_status: 'DRAFT' }, { publish_status: 'DRAFT' }],
      [{ is_public: true }, { is_public: true }],
      [{ team_role: 'VIEWER' }, { team_role: 'VIEWER' }],
      [{ team_role: null }, { team_role: null }],
      [{ permalink }, { permalink }],
    ];
    let previous = guide;
    for (const [body, expected] of edits) {
      const patched = await t.admin('PATCH', `/guides/${guide.id}`, body);
      expect(patched, JSON.stringify(body)).toMatchObject({ ...expected, id: guide.id, team_id: team.id, created_at: guide.created_at });
      // Nothing else moved.
      const untouched = Object.keys(previous).filter(
        (key) => !(key in expected) && !['updated_at', 'markdown_body', 'text_direction'].includes(key),
      );
      for (const key of untouched) expect(patched[key], `${JSON.stringify(body)} changed ${key}`).toEqual(previous[key]);
      previous = patched;
    }
    const withSteps = await t.admin('PATCH', `/guides/${guide.id}`, { steps: [{ text: 'New step', image_url: 'https://example.com/s.png' }] });
    expect(withSteps.steps).toEqual([{ text: 'New step', image_url: 'https://example.com/s.png', image_alt: null }]);
    expect(withSteps.markdown_body).toContain('New step');
    expect(withSteps.markdown_body).not.toContain('Old step');
    expect(await t.admin('GET', `/guides/${guide.id}`)).toEqual(withSteps);
  });

  it('an edit moves updated_at; created_at stays', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id);
    t.clock.advance(5000);
    const patched = await t.admin('PATCH', `/guides/${guide.id}`, { title: 'Later' });
    expect(patched.created_at).toBe(guide.created_at);
    expect(patched.updated_at).toMatch(RFC3339_MS);
    expect(Date.parse(patched.updated_at)).toBeGreaterThanOrEqual(Date.parse(guide.updated_at) + 5000);
  });

  it('writing the same values again answers the guide unchanged', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id, { title: 'Same', tags: ['x'], is_public: true, steps: [{ text: 'S' }] });
    t.clock.advance(5000);
    const again = await t.admin('PATCH', `/guides/${guide.id}`, {
      title: 'Same',
      tags: ['x'],
      is_public: true,
      steps: [{ text: 'S' }],
      permalink: guide.permalink,
    });
    expect(again).toEqual(guide);
  });

  it('a permalink held by another guide is 409 conflict and changes nothing', async () => {
    const team = await newTeam();
    const holder = await createGuide(t, team.id);
    const guide = await createGuide(t, team.id, { title: 'Wants it' });
    expectConflict(await t.adminRaw('PATCH', `/guides/${guide.id}`, { permalink: holder.permalink }));
    expectConflict(await t.adminRaw('PATCH', `/guides/${guide.id}`, { title: 'Changed too', permalink: holder.permalink }));
    expect(await t.admin('GET', `/guides/${guide.id}`)).toEqual(guide);
  });

  it('refuses fields outside their rules, naming the field, and changes nothing', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ permalink: '12345678-1234-1234-1234-123456789abc' }, 'permalink'],
      [{ permalink: 'Has-Upper' }, 'permalink'],
      [{ permalink: null }, 'permalink'],
      [{ language: 'not a tag' }, 'language'],
      [{ title: 'x'.repeat(501) }, 'title'],
      [{ icon_url: 'mailto:a@example.com' }, 'icon_url'],
      [{ publish_status: null }, 'publish_status'],
      [{ team_role: 'MANAGER' }, 'team_role'],
      [{ folder_id: 'abc' }, 'folder_id'],
      [{ owner_id: UNKNOWN_ID }, 'owner_id'],
      [{ team_id: UNKNOWN_ID }, 'team_id'],
      [{ processing: true }, 'processing'],
      [{ locked: true }, 'locked'],
    ];
    for (const [body, field] of cases) expectInvalid(await t.adminRaw('PATCH', `/guides/${guide.id}`, body), field);
    expect(await t.admin('GET', `/guides/${guide.id}`)).toEqual(guide);
  });

  it('answers 404 not_found for an unknown guide', async () => {
    expectNotFound(await t.adminRaw('PATCH', `/guides/${UNKNOWN_ID}`, { title: 'x' }));
  });
});

describe('POST /guides/{id}/processing (spec §3.2)', () => {
  it('a guide created with processing true is processing and out of the REST interface', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { processing: true, steps: [{ text: 'One' }] });
    expect(guide.processing_state).toBe('processing');
    expect((await t.get(`/v1/guides/${guide.id}`, key)).statusCode).toBe(404);
    expect((await t.get('/v1/guides', key)).json().data.map((row: any) => row.id)).not.toContain(guide.id);
  });

  it('finished makes processing_state finished and the guide readable through the REST interface', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { processing: true, steps: [{ text: 'One' }] });
    const response = await t.adminRaw('POST', `/guides/${guide.id}/processing`, { outcome: 'finished' });
    expect(response.statusCode).toBe(200);
    const settled = response.json().data;
    expect(settled).toMatchObject({ id: guide.id, processing_state: 'finished', processing_error: null });
    expect(await t.admin('GET', `/guides/${guide.id}`)).toEqual(settled);
    expect((await t.get(`/v1/guides/${guide.id}`, key)).statusCode).toBe(200);
  });

  it('failed makes processing_state failed with the error; the guide remains', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id, { processing: true });
    const settled = await t.admin('POST', `/guides/${guide.id}/processing`, { outcome: 'failed', error: 'The recording was empty' });
    expect(settled).toMatchObject({ id: guide.id, processing_state: 'failed', processing_error: 'The recording was empty' });
    expect((await t.admin('GET', `/guides/${guide.id}`)).processing_state).toBe('failed');
  });

  it('failed without an error is failed with processing_error null', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id, { processing: true });
    const settled = await t.admin('POST', `/guides/${guide.id}/processing`, { outcome: 'failed' });
    expect(settled).toMatchObject({ processing_state: 'failed', processing_error: null });
  });

  it('is 409 conflict when the guide is not processing (never was, finished, or failed)', async () => {
    const team = await newTeam();
    const plain = await createGuide(t, team.id, { steps: [{ text: 'One' }] });
    expectConflict(await t.adminRaw('POST', `/guides/${plain.id}/processing`, { outcome: 'finished' }));
    expectConflict(await t.adminRaw('POST', `/guides/${plain.id}/processing`, { outcome: 'failed', error: 'x' }));

    const finished = await createGuide(t, team.id, { processing: true, steps: [{ text: 'One' }] });
    await t.admin('POST', `/guides/${finished.id}/processing`, { outcome: 'finished' });
    expectConflict(await t.adminRaw('POST', `/guides/${finished.id}/processing`, { outcome: 'finished' }));

    const failed = await createGuide(t, team.id, { processing: true });
    await t.admin('POST', `/guides/${failed.id}/processing`, { outcome: 'failed', error: 'broken' });
    expectConflict(await t.adminRaw('POST', `/guides/${failed.id}/processing`, { outcome: 'failed', error: 'again' }));
    expect(await t.admin('GET', `/guides/${failed.id}`)).toMatchObject({ processing_state: 'failed', processing_error: 'broken' });
  });

  it('finishing a guide without steps is 409 conflict and leaves it processing', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id, { processing: true });
    expectConflict(await t.adminRaw('POST', `/guides/${guide.id}/processing`, { outcome: 'finished' }));
    expect((await t.admin('GET', `/guides/${guide.id}`)).processing_state).toBe('processing');
    await t.admin('PATCH', `/guides/${guide.id}`, { steps: [{ text: 'Now it has one' }] });
    expect((await t.admin('POST', `/guides/${guide.id}/processing`, { outcome: 'finished' })).processing_state).toBe('finished');
  });

  it('refuses an outcome other than finished or failed, or a bad error, naming the field', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id, { processing: true });
    expectInvalid(await t.adminRaw('POST', `/guides/${guide.id}/processing`, {}), 'outcome');
    for (const outcome of ['done', 'FINISHED', 'ready', null]) {
      expectInvalid(await t.adminRaw('POST', `/guides/${guide.id}/processing`, { outcome }), 'outcome');
    }
    expectInvalid(await t.adminRaw('POST', `/guides/${guide.id}/processing`, { outcome: 'failed', error: 'x'.repeat(2001) }), 'error');
    expectInvalid(await t.adminRaw('POST', `/guides/${guide.id}/processing`, { outcome: 'failed', reason: 'x' }), 'reason');
    expect((await t.admin('GET', `/guides/${guide.id}`)).processing_state).toBe('processing');
  });
});

describe('POST /guides/{id}/move', () => {
  it('moves the guide to another team: team_id changes, folder_id is cleared, the rest stays', async () => {
    const from = await t.admin('POST', '/teams', { name: 'From', brand_color: '#111111' });
    const to = await t.admin('POST', '/teams', { name: 'To', brand_color: '#222222' });
    const guide = await createGuide(t, from.id, { title: 'Travels', folder_id: FOLDER_A, steps: [{ text: 'Pack' }], publish_status: 'PUBLISHED' });
    expect(guide.folder_id).toBe(FOLDER_A);
    const response = await t.adminRaw('POST', `/guides/${guide.id}/move`, { team_id: to.id });
    expect(response.statusCode).toBe(200);
    const moved = response.json().data;
    expect(moved).toMatchObject({
      id: guide.id,
      team_id: to.id,
      folder_id: null,
      brand_color: '#222222',
      title: 'Travels',
      permalink: guide.permalink,
      publish_status: 'PUBLISHED',
      created_at: guide.created_at,
    });
    expect(moved.steps).toEqual(guide.steps);
    expect(await t.admin('GET', `/guides/${guide.id}`)).toEqual(moved);
  });

  it("after a move the old team's key no longer sees the guide and the new team's key does", async () => {
    const from = await soloTeam(t, 'growth');
    const to = await soloTeam(t, 'growth');
    const guide = await createGuide(t, from.team.id, { title: 'Moving' });
    expect((await t.get(`/v1/guides/${guide.id}`, from.key)).statusCode).toBe(200);
    await t.admin('POST', `/guides/${guide.id}/move`, { team_id: to.team.id });
    expect((await t.get(`/v1/guides/${guide.id}`, from.key)).statusCode).toBe(404);
    expect((await t.get(`/v1/guides/${guide.id}`, to.key)).statusCode).toBe(200);
  });

  it('moves between teams of different organizations', async () => {
    const a = await organizationWithTeams(t, 'growth', 1);
    const b = await organizationWithTeams(t, 'growth', 1);
    const guide = await createGuide(t, a.teams[0].id);
    const moved = await t.admin('POST', `/guides/${guide.id}/move`, { team_id: b.teams[0].id });
    expect(moved.team_id).toBe(b.teams[0].id);
    expect((await t.get(`/v1/guides/${guide.id}`, b.key)).statusCode).toBe(200);
    expect((await t.get(`/v1/guides/${guide.id}`, a.key)).statusCode).toBe(404);
  });

  it('moving to the team the guide is in answers the guide unchanged', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id, { folder_id: FOLDER_A });
    expect(await t.admin('POST', `/guides/${guide.id}/move`, { team_id: team.id })).toEqual(guide);
  });

  it('an unknown team or guide is 404 not_found, and the guide stays where it was', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id);
    expectNotFound(await t.adminRaw('POST', `/guides/${guide.id}/move`, { team_id: UNKNOWN_ID }));
    expectNotFound(await t.adminRaw('POST', `/guides/${UNKNOWN_ID}/move`, { team_id: team.id }));
    expect((await t.admin('GET', `/guides/${guide.id}`)).team_id).toBe(team.id);
  });

  it('refuses a missing or malformed team_id or an unknown field, naming it', async () => {
    const team = await newTeam();
    const guide = await createGuide(t, team.id);
    expectInvalid(await t.adminRaw('POST', `/guides/${guide.id}/move`, {}), 'team_id');
    expectInvalid(await t.adminRaw('POST', `/guides/${guide.id}/move`, { team_id: 'other-team' }), 'team_id');
    expectInvalid(await t.adminRaw('POST', `/guides/${guide.id}/move`, { team_id: null }), 'team_id');
    expectInvalid(await t.adminRaw('POST', `/guides/${guide.id}/move`, { team_id: team.id, folder_id: FOLDER_A }), 'folder_id');
  });
});

describe('DELETE /guides/{id}', () => {
  it('deletes the guide (204 without a body); GET is then 404 and a second DELETE is 404', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id);
    const response = await t.adminRaw('DELETE', `/guides/${guide.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expectNotFound(await t.adminRaw('GET', `/guides/${guide.id}`));
    expectNotFound(await t.adminRaw('DELETE', `/guides/${guide.id}`));
    expectNotFound(await t.adminRaw('PATCH', `/guides/${guide.id}`, { title: 'x' }));
    expect((await t.get(`/v1/guides/${guide.id}`, key)).statusCode).toBe(404);
  });

  it('deletes only that guide', async () => {
    const team = await newTeam();
    const keep = await createGuide(t, team.id);
    const drop = await createGuide(t, team.id);
    await t.admin('DELETE', `/guides/${drop.id}`);
    expect(await t.admin('GET', `/guides/${keep.id}`)).toEqual(keep);
  });
});
