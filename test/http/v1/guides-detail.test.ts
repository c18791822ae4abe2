// GET /v1/guides/{guideId} (spec §1, §2.3, §4.3, §7; decisions §2, §3, §5): which guide a guideId names,
// the fields of the answer, and what markdown_body and notice hold on each plan. Every answer goes through
// t.get, so it is also checked against the OpenAPI document the service serves.
import { type Node, Parser } from 'commonmark';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createGuide,
  createKey,
  organizationWithTeams,
  soloTeam,
  startTestService,
  useTestService,
} from '../../support/service.js';
import { DEFAULT_GUIDE_VALUES, GUIDE_FIELDS } from '../../support/spec-fields.js';

const t = useTestService();


interface Step {
  text: string;
  image_url?: string;
  image_alt?: string;
}

/** Five steps, the first four with screenshots. */
const STEPS: Step[] = [
  { text: 'Open the settings', image_url: 'https://img.example.com/1.png', image_alt: 'Settings window' },
  { text: 'Choose Printers', image_url: 'https://img.example.com/2.png', image_alt: 'Printers tab' },
  { text: 'Click Add', image_url: 'https://img.example.com/3.png', image_alt: 'Add button' },
  { text: 'Pick the printer', image_url: 'https://img.example.com/4.png', image_alt: 'Printer list' },
  { text: 'Print a test page' },
];
const TITLE = 'Connect a printer';
const DESCRIPTION = 'Set up the office printer on your laptop.';

/** A short random slug part, for e-mail addresses and permalinks that must not collide. */
const unique = () => Math.random().toString(36).slice(2, 10);

async function read(key: string, guideId: string): Promise<any> {
  const response = await t.get(`/v1/guides/${guideId}`, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

function expectNotFound(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(404);
  expect(response.json().code).toBe('not_found');
}

// ---- reading markdown_body as markdown (decisions §5) ----

function inlineText(node: Node, skipImages: boolean): string {
  let out = '';
  for (let child = node.firstChild; child; child = child.next) {
    if (child.type === 'text' || child.type === 'code') out += child.literal ?? '';
    else if (child.type === 'softbreak' || child.type === 'linebreak') out += '\n';
    else if (child.type === 'image') out += skipImages ? '' : inlineText(child, false);
    else out += inlineText(child, skipImages);
  }
  return out;
}

function imagesIn(node: Node): { url: string; alt: string }[] {
  const found: { url: string; alt: string }[] = [];
  const walker = node.walker();
  for (let event = walker.next(); event; event = walker.next()) {
    if (event.entering && event.node.type === 'image') found.push({ url: event.node.destination ?? '', alt: inlineText(event.node, false) });
  }
  return found;
}

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; start: number; items: { text: string; images: { url: string; alt: string }[] }[] }
  | { kind: string };

/** The top-level blocks of a markdown text, as a CommonMark reader sees them. */
function outline(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (let node = new Parser().parse(markdown).firstChild; node; node = node.next) {
    if (node.type === 'heading') blocks.push({ kind: 'heading', level: node.level, text: inlineText(node, false) });
    else if (node.type === 'paragraph') blocks.push({ kind: 'paragraph', text: inlineText(node, false) });
    else if (node.type === 'list') {
      const items = [];
      for (let item = node.firstChild; item; item = item.next) items.push({ text: inlineText(item, true).trim(), images: imagesIn(item) });
      blocks.push({ kind: 'list', ordered: node.listType === 'ordered', start: node.listStart, items });
    } else blocks.push({ kind: node.type });
  }
  return blocks;
}

/** The export the decisions describe: `# title`, the description, the steps as a numbered list, and the notice last. */
function expectedOutline(steps: Step[], notice: string | null, title = TITLE, description: string | null = DESCRIPTION): Block[] {
  const blocks: Block[] = [{ kind: 'heading', level: 1, text: title }];
  if (description !== null) blocks.push({ kind: 'paragraph', text: description });
  if (steps.length > 0) {
    blocks.push({
      kind: 'list',
      ordered: true,
      start: 1,
      items: steps.map((step) => ({ text: step.text, images: step.image_url ? [{ url: step.image_url, alt: step.image_alt ?? '' }] : [] })),
    });
  }
  if (notice !== null) blocks.push({ kind: 'paragraph', text: notice });
  return blocks;
}

/** A preview or short cut: the notice is non-null and is the last paragraph of markdown_body. */
function expectClosedByNotice(data: { markdown_body: string; notice: string | null }): string {
  expect(data.notice).toEqual(expect.any(String));
  const notice = data.notice!;
  expect(notice.trim().length).toBeGreaterThan(0);
  expect(data.markdown_body.trimEnd().endsWith(`\n\n${notice}`)).toBe(true);
  expect(outline(data.markdown_body).at(-1)).toEqual({ kind: 'paragraph', text: notice });
  return notice;
}

describe('fields', () => {
  it('every field of spec §2.3 is present with the stored values (spec §2.3)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    await t.admin('PATCH', `/teams/${team.id}`, { brand_color: '#1A2B3C' });
    const owner = await t.admin('POST', '/users', { email: `ada-${unique()}@example.com`, name: 'Ada Lovelace' });
    // An owner is a person of the guide's tenant (decisions: a guide's references stay inside it).
    await t.admin('PUT', `/teams/${team.id}/members/${owner.id}`, { role: 'EDITOR' });
    const folderId = '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';
    const guide = await createGuide(t, team.id, {
      title: TITLE,
      description: DESCRIPTION,
      owner_id: owner.id,
      language: 'pt-BR',
      app_version: '4.2.1',
      icon_url: 'https://cdn.example.com/icon.png',
      thumbnail_url: 'https://cdn.example.com/thumb.png',
      tags: ['printing', 'office'],
      folder_id: folderId,
      publish_status: 'PUBLISHED',
      is_public: true,
      steps: STEPS,
    });
    const data = await read(key, guide.id);
    expect(Object.keys(data).sort()).toEqual(GUIDE_FIELDS);
    const { markdown_body: body, ...rest } = data;
    expect(rest).toEqual({
      id: guide.id,
      team_id: team.id,
      created_at: guide.created_at,
      updated_at: guide.updated_at,
      title: TITLE,
      description: DESCRIPTION,
      owner_name: 'Ada Lovelace',
      icon_url: 'https://cdn.example.com/icon.png',
      permalink: guide.permalink,
      publish_status: 'PUBLISHED',
      locked: false,
      language: 'pt-BR',
      text_direction: 'ltr',
      app_version: '4.2.1',
      thumbnail_url: 'https://cdn.example.com/thumb.png',
      tags: ['printing', 'office'],
      folder_id: folderId,
      is_public: true,
      brand_color: '#1A2B3C',
      notice: null,
    });
    expect(outline(body)).toEqual(expectedOutline(STEPS, null));
    expect(data.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('optional fields are null or false when the guide has none (spec §2.3)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await t.admin('POST', '/guides', { team_id: team.id });
    const data = await read(key, guide.id);
    expect(Object.keys(data).sort()).toEqual(GUIDE_FIELDS);
    expect(data).toMatchObject(DEFAULT_GUIDE_VALUES);
    expect(data.markdown_body).toEqual(expect.any(String));
    expect(outline(data.markdown_body)[0]).toMatchObject({ kind: 'heading', level: 1 });
  });

  it.each([
    ['ar', 'rtl'],
    ['he', 'rtl'],
    ['ar-EG', 'rtl'],
    ['he-IL', 'rtl'],
    ['fa', 'rtl'],
    ['ur', 'rtl'],
    ['en', 'ltr'],
    ['pt-BR', 'ltr'],
    ['de', 'ltr'],
    ['ja', 'ltr'],
  ])('language %s has text_direction %s (decisions §2)', async (language, direction) => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { language });
    const data = await read(key, guide.id);
    expect(data.language).toBe(language);
    expect(data.text_direction).toBe(direction);
  });

  it('text_direction follows a change of language, and an explicit text_direction wins (decisions §2)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { language: 'en' });
    await t.admin('PATCH', `/guides/${guide.id}`, { language: 'he' });
    expect(await read(key, guide.id)).toMatchObject({ language: 'he', text_direction: 'rtl' });
    await t.admin('PATCH', `/guides/${guide.id}`, { language: 'en' });
    expect(await read(key, guide.id)).toMatchObject({ language: 'en', text_direction: 'ltr' });
    const explicit = await createGuide(t, team.id, { language: 'en', text_direction: 'rtl' });
    expect(await read(key, explicit.id)).toMatchObject({ language: 'en', text_direction: 'rtl' });
  });

  it("brand_color is the team's brand color, null for the default color, and follows changes (spec §2.3)", async () => {
    const { teams, key } = await organizationWithTeams(t, 'growth', 2);
    await t.admin('PATCH', `/teams/${teams[0].id}`, { brand_color: '#FF8800' });
    const colored = await createGuide(t, teams[0].id);
    const plain = await createGuide(t, teams[1].id);
    expect((await read(key, colored.id)).brand_color).toBe('#FF8800');
    expect((await read(key, plain.id)).brand_color).toBeNull();
    await t.admin('PATCH', `/teams/${teams[0].id}`, { brand_color: '#00AA11' });
    expect((await read(key, colored.id)).brand_color).toBe('#00AA11');
    await t.admin('PATCH', `/teams/${teams[0].id}`, { brand_color: null });
    expect((await read(key, colored.id)).brand_color).toBeNull();
  });

  it("owner_name is the owner user's name, and null without an owner or a name (spec §2.3)", async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const named = await t.admin('POST', '/users', { email: `named-${unique()}@example.com`, name: 'Grace Hopper' });
    const unnamed = await t.admin('POST', '/users', { email: `unnamed-${unique()}@example.com` });
    for (const user of [named, unnamed]) await t.admin('PUT', `/teams/${team.id}/members/${user.id}`, { role: 'EDITOR' });
    const byNamed = await createGuide(t, team.id, { owner_id: named.id });
    const byUnnamed = await createGuide(t, team.id, { owner_id: unnamed.id });
    const orphan = await createGuide(t, team.id);
    expect((await read(key, byNamed.id)).owner_name).toBe('Grace Hopper');
    expect((await read(key, byUnnamed.id)).owner_name).toBeNull();
    expect((await read(key, orphan.id)).owner_name).toBeNull();
  });

  it('the fields shared with the list item have the same values in both answers (spec §2.2, §2.3)', async () => {
    const { team, key } = await soloTeam(t, 'free');
    const owner = await t.admin('POST', '/users', { email: `same-${unique()}@example.com`, name: 'Sam' });
    await t.admin('PUT', `/teams/${team.id}/members/${owner.id}`, { role: 'EDITOR' });
    const guide = await createGuide(t, team.id, { title: TITLE, description: DESCRIPTION, owner_id: owner.id, icon_url: 'https://cdn.example.com/i.png', steps: STEPS });
    const listed = (await t.get('/v1/guides', key)).json().data[0];
    const data = await read(key, guide.id);
    for (const field of Object.keys(listed)) expect(data[field], field).toEqual(listed[field]);
  });
});

describe('lookup', () => {
  it('a guide is found by its id (spec §4.3)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { title: TITLE });
    expect((await read(key, guide.id)).id).toBe(guide.id);
  });

  it('a guide is found by its id written in capitals (decisions §2)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { title: TITLE });
    expect(guide.id).toMatch(/[a-f]/);
    const data = await read(key, guide.id.toUpperCase());
    expect(data.id).toBe(guide.id);
    expect((await read(key, guide.id.slice(0, 18) + guide.id.slice(18).toUpperCase())).id).toBe(guide.id);
  });

  it('a guide is found by its permalink, generated or chosen (spec §4.3, decisions §2)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const generated = await createGuide(t, team.id, { title: 'Reset the router' });
    expect(generated.permalink).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect((await read(key, generated.permalink)).id).toBe(generated.id);
    const chosen = await createGuide(t, team.id, { title: 'Chosen', permalink: `chosen-link-${unique()}` });
    const data = await read(key, chosen.permalink);
    expect(data.id).toBe(chosen.id);
    expect(data.permalink).toBe(chosen.permalink);
  });

  it('a guide is found by its new permalink after a change, and not by the old one (decisions §2)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { permalink: `before-${unique()}` });
    const after = `after-${unique()}`;
    await t.admin('PATCH', `/guides/${guide.id}`, { permalink: after });
    expect((await read(key, after)).id).toBe(guide.id);
    expectNotFound(await t.get(`/v1/guides/${guide.permalink}`, key));
  });

  it('an unknown id is 404 not_found (spec §4.3, §7)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    await createGuide(t, team.id);
    expectNotFound(await t.get('/v1/guides/00000000-0000-4000-8000-000000000000', key));
    expectNotFound(await t.get('/v1/guides/6F1C2D3E-4B5A-4C6D-8E7F-0A1B2C3D4E5F', key));
  });

  it('an unknown permalink is 404 not_found (spec §4.3, §7)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { title: 'Known guide' });
    expectNotFound(await t.get('/v1/guides/no-such-guide-here', key));
    expectNotFound(await t.get(`/v1/guides/${guide.permalink}-x`, key));
    expectNotFound(await t.get(`/v1/guides/${guide.permalink.toUpperCase()}`, key));
  });

  it('a guide of another team is 404 for a team key, by id and by permalink (spec §1, §4.3)', async () => {
    const { teams, key: organizationKey } = await organizationWithTeams(t, 'growth', 2);
    const teamKey = (await createKey(t, { type: 'team', id: teams[0].id })).secret;
    const sibling = await createGuide(t, teams[1].id, { title: 'Sibling' });
    expectNotFound(await t.get(`/v1/guides/${sibling.id}`, teamKey));
    expectNotFound(await t.get(`/v1/guides/${sibling.permalink}`, teamKey));
    expect((await read(organizationKey, sibling.id)).id).toBe(sibling.id);
  });

  it('a guide of another organization or of a team outside it is 404, by id and by permalink (spec §1, §4.3)', async () => {
    const mine = await organizationWithTeams(t, 'growth', 1);
    const other = await organizationWithTeams(t, 'growth', 1);
    const solo = await soloTeam(t, 'growth');
    const foreign = await createGuide(t, other.teams[0].id, { title: 'Foreign' });
    const soloGuide = await createGuide(t, solo.team.id, { title: 'Solo' });
    for (const guide of [foreign, soloGuide]) {
      expectNotFound(await t.get(`/v1/guides/${guide.id}`, mine.key));
      expectNotFound(await t.get(`/v1/guides/${guide.id.toUpperCase()}`, mine.key));
      expectNotFound(await t.get(`/v1/guides/${guide.permalink}`, mine.key));
    }
    expectNotFound(await t.get(`/v1/guides/${foreign.id}`, solo.key));
  });

  it('a processing guide is 404 by id and by permalink until processing finishes (spec §1, §3.2)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { title: 'Recording', processing: true, steps: STEPS });
    expectNotFound(await t.get(`/v1/guides/${guide.id}`, key));
    expectNotFound(await t.get(`/v1/guides/${guide.permalink}`, key));
    await t.admin('POST', `/guides/${guide.id}/processing`, { outcome: 'finished' });
    const data = await read(key, guide.permalink);
    expect(data.id).toBe(guide.id);
    expect(outline(data.markdown_body)).toEqual(expectedOutline(STEPS, null, 'Recording', null));
  });

  it('a guide whose processing failed is readable (spec §3.2)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { title: 'Broken import', processing: true });
    await t.admin('POST', `/guides/${guide.id}/processing`, { outcome: 'failed', error: 'unreadable file' });
    const data = await read(key, guide.id);
    expect(data).toMatchObject({ id: guide.id, title: 'Broken import', notice: null, locked: false });
    expect((await read(key, guide.permalink)).id).toBe(guide.id);
  });

  it('a deleted guide is 404 (spec §4.3)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id);
    await t.admin('DELETE', `/guides/${guide.id}`);
    expectNotFound(await t.get(`/v1/guides/${guide.id}`, key));
    expectNotFound(await t.get(`/v1/guides/${guide.permalink}`, key));
  });

  it("a moved guide is readable with the new team's key and 404 with the old team's key (spec §1, decisions §7)", async () => {
    const { teams, key: organizationKey } = await organizationWithTeams(t, 'growth', 2);
    const oldKey = (await createKey(t, { type: 'team', id: teams[0].id })).secret;
    const newKey = (await createKey(t, { type: 'team', id: teams[1].id })).secret;
    const guide = await createGuide(t, teams[0].id, { title: TITLE, description: DESCRIPTION, steps: STEPS });
    expect((await read(oldKey, guide.id)).team_id).toBe(teams[0].id);
    expectNotFound(await t.get(`/v1/guides/${guide.id}`, newKey));

    await t.admin('POST', `/guides/${guide.id}/move`, { team_id: teams[1].id });
    const moved = await read(newKey, guide.id);
    expect(moved.team_id).toBe(teams[1].id);
    expect(outline(moved.markdown_body)).toEqual(expectedOutline(STEPS, null));
    expect((await read(newKey, guide.permalink)).id).toBe(guide.id);
    expectNotFound(await t.get(`/v1/guides/${guide.id}`, oldKey));
    expectNotFound(await t.get(`/v1/guides/${guide.permalink}`, oldKey));
    expect((await read(organizationKey, guide.id)).team_id).toBe(teams[1].id);
  });

  it("a guide moved to another organization's team is 404 for the old organization's key (spec §1)", async () => {
    const from = await organizationWithTeams(t, 'growth', 1);
    const to = await organizationWithTeams(t, 'growth', 1);
    const guide = await createGuide(t, from.teams[0].id);
    await t.admin('POST', `/guides/${guide.id}/move`, { team_id: to.teams[0].id });
    expectNotFound(await t.get(`/v1/guides/${guide.id}`, from.key));
    expect((await read(to.key, guide.id)).team_id).toBe(to.teams[0].id);
  });
});

describe('body per plan', () => {
  it.each(['growth', 'enterprise'])(
    '%s: notice is null and markdown_body is the whole export with every step and image link (spec §4.3, decisions §3, §5)',
    async (plan) => {
      const { teams, key } = await organizationWithTeams(t, plan, 1);
      const guide = await createGuide(t, teams[0].id, { title: TITLE, description: DESCRIPTION, steps: STEPS });
      const data = await read(key, guide.id);
      expect(data.notice).toBeNull();
      expect(data.locked).toBe(false);
      expect(outline(data.markdown_body)).toEqual(expectedOutline(STEPS, null));
      expect(data.markdown_body.startsWith(`# ${TITLE}\n`)).toBe(true);
      for (const step of STEPS.filter((s) => s.image_url)) expect(data.markdown_body).toContain(`![${step.image_alt}](${step.image_url})`);
    },
  );

  it('growth: the whole export is the same as the management view of the guide (spec §2.3)', async () => {
    const { team, key } = await soloTeam(t, 'growth');
    const guide = await createGuide(t, team.id, { title: TITLE, description: DESCRIPTION, steps: STEPS });
    expect((await read(key, guide.id)).markdown_body).toBe(guide.markdown_body);
  });

  it('free: markdown_body is title, description and the first 3 steps, closed by the notice (spec §4.3, decisions §3)', async () => {
    const { team, key } = await soloTeam(t, 'free');
    const guide = await createGuide(t, team.id, { title: TITLE, description: DESCRIPTION, steps: STEPS });
    const data = await read(key, guide.id);
    expect(data.locked).toBe(false);
    const notice = expectClosedByNotice(data);
    expect(outline(data.markdown_body)).toEqual(expectedOutline(STEPS.slice(0, 3), notice));
    expect(data.markdown_body).not.toContain('Pick the printer');
    expect(data.markdown_body).not.toContain('https://img.example.com/4.png');
  });

  it('starter organization: the same preview of 3 steps closed by the notice (decisions §3)', async () => {
    const { teams, key } = await organizationWithTeams(t, 'starter', 2);
    const guide = await createGuide(t, teams[1].id, { title: TITLE, description: DESCRIPTION, steps: STEPS });
    const data = await read(key, guide.id);
    expect(data.locked).toBe(false);
    const notice = expectClosedByNotice(data);
    expect(outline(data.markdown_body)).toEqual(expectedOutline(STEPS.slice(0, 3), notice));
  });

  it('free: a guide with fewer steps than PREVIEW_STEPS shows them all and still closes with the notice (decisions §3)', async () => {
    const { team, key } = await soloTeam(t, 'free');
    const guide = await createGuide(t, team.id, { title: TITLE, description: DESCRIPTION, steps: STEPS.slice(0, 2) });
    const data = await read(key, guide.id);
    const notice = expectClosedByNotice(data);
    expect(outline(data.markdown_body)).toEqual(expectedOutline(STEPS.slice(0, 2), notice));
  });

  it('PREVIEW_STEPS sets how many steps a preview shows (decisions §1, §3)', async () => {
    const one = await startTestService({ PREVIEW_STEPS: '1' });
    try {
      const free = await soloTeam(one, 'free');
      const growth = await soloTeam(one, 'growth');
      const preview = await createGuide(one, free.team.id, { title: TITLE, description: DESCRIPTION, steps: STEPS });
      const whole = await createGuide(one, growth.team.id, { title: TITLE, description: DESCRIPTION, steps: STEPS });
      const previewAnswer = await one.get(`/v1/guides/${preview.id}`, free.key);
      expect(previewAnswer.statusCode).toBe(200);
      const data = previewAnswer.json().data;
      const notice = expectClosedByNotice(data);
      expect(outline(data.markdown_body)).toEqual(expectedOutline(STEPS.slice(0, 1), notice));
      const wholeAnswer = await one.get(`/v1/guides/${whole.id}`, growth.key);
      expect(wholeAnswer.json().data.notice).toBeNull();
      expect(outline(wholeAnswer.json().data.markdown_body)).toEqual(expectedOutline(STEPS, null));
    } finally {
      await one.close();
    }
  });

  it("a locked guide (26th of a free team) is cut to title, description and the first step, closed by a notice naming the plan's guide limit (decisions §3)", async () => {
    const { team, key } = await soloTeam(t, 'free');
    const made = [];
    for (let i = 0; i < 26; i++) {
      made.push(await createGuide(t, team.id, { title: `${TITLE} ${i + 1}`, description: DESCRIPTION, steps: STEPS }));
      t.clock.advance(10);
    }
    const twentyFifth = await read(key, made[24].id);
    expect(twentyFifth.locked).toBe(false);
    const previewNotice = expectClosedByNotice(twentyFifth);
    expect(outline(twentyFifth.markdown_body)).toEqual(expectedOutline(STEPS.slice(0, 3), previewNotice, `${TITLE} 25`));

    const locked = await read(key, made[25].id);
    expect(locked.locked).toBe(true);
    const notice = expectClosedByNotice(locked);
    expect(notice).toMatch(/\b25\b/);
    expect(notice).not.toBe(previewNotice);
    expect(outline(locked.markdown_body)).toEqual(expectedOutline(STEPS.slice(0, 1), notice, `${TITLE} 26`));
    expect(locked.markdown_body).not.toContain('Choose Printers');
    expect((await read(key, made[25].permalink)).locked).toBe(true);
  });

  it('a plan change takes effect at once: moving the organization to growth unlocks and gives the whole body (decisions §3)', async () => {
    const { organization, teams, key } = await organizationWithTeams(t, 'free', 1);
    const made = [];
    for (let i = 0; i < 26; i++) {
      made.push(await createGuide(t, teams[0].id, { title: TITLE, description: DESCRIPTION, steps: STEPS }));
      t.clock.advance(10);
    }
    const before = await read(key, made[25].id);
    expect(before.locked).toBe(true);
    expect(before.notice).not.toBeNull();

    await t.admin('PATCH', `/organizations/${organization.id}`, { plan: 'growth' });
    for (const guide of [made[25], made[0]]) {
      const data = await read(key, guide.id);
      expect(data.locked).toBe(false);
      expect(data.notice).toBeNull();
      expect(outline(data.markdown_body)).toEqual(expectedOutline(STEPS, null));
    }

    await t.admin('PATCH', `/organizations/${organization.id}`, { plan: 'starter' });
    const starter = await read(key, made[25].id);
    expect(starter.locked).toBe(false);
    expect(outline(starter.markdown_body)).toEqual(expectedOutline(STEPS.slice(0, 3), expectClosedByNotice(starter)));
  });

  it("a plan change of a team without organization takes effect at once (decisions §3)", async () => {
    const { team, key } = await soloTeam(t, 'free');
    const guide = await createGuide(t, team.id, { title: TITLE, description: DESCRIPTION, steps: STEPS });
    expect((await read(key, guide.id)).notice).not.toBeNull();
    await t.admin('PATCH', `/teams/${team.id}`, { plan: 'enterprise' });
    const data = await read(key, guide.id);
    expect(data.notice).toBeNull();
    expect(outline(data.markdown_body)).toEqual(expectedOutline(STEPS, null));
  });
});

describe('path tricks', () => {
  let key: string;
  beforeAll(async () => {
    const solo = await soloTeam(t, 'growth');
    key = solo.key;
    await createGuide(t, solo.team.id, { title: 'Something to find' });
  });

  it.each([
    ['a dot-dot path, encoded', '..%2F..%2Fetc%2Fpasswd'],
    ['a NUL byte', '%00'],
    ['a NUL byte after a permalink-like value', 'something%00'],
    ['a 500-character value', 'a'.repeat(500)],
    ['a 500-character value of mixed characters', 'x-'.repeat(250)],
    ['SQL injection, URL-encoded', encodeURIComponent("' OR 1=1 --")],
    ['SQL injection with a quote-closing UUID', encodeURIComponent("00000000-0000-4000-8000-000000000000' OR '1'='1")],
    ['unicode letters', encodeURIComponent('écran-ß-Σύστημα')],
    ['an emoji', encodeURIComponent('🚀')],
    ['a broken percent escape', '%ZZ'],
    ['a lone percent sign', '%'],
    ['a UUID with a trailing character', '00000000-0000-4000-8000-000000000000x'],
    ['a dot', '.'],
  ])('guideId %s is 404 not_found with the headers every response carries, never 500 (spec §4, §4.3, §7)', async (_label, guideId) => {
    // t.get also checks the answer against the OpenAPI document: a documented 404 with X-Request-Id,
    // RateLimit-Limit and RateLimit-Remaining (spec §4: every response, success or error).
    const response = await t.get(`/v1/guides/${guideId}`, key);
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json()).toMatchObject({ code: 'not_found', status: 404 });
    for (const header of ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining']) expect(response.headers[header], header).toBeDefined();
  });

  it('a guideId too long for a permalink still needs a key: without one it is 401 invalid_key (decisions §4)', async () => {
    const response = await t.get(`/v1/guides/${'a'.repeat(500)}`, null);
    expect(response.statusCode, response.body).toBe(401);
    expect(response.json().code).toBe('invalid_key');
  });
});
