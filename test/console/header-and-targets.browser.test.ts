// Issue 44 item 4, in a real browser: the console's header fits every width from 1024 to 1920 px for every
// role (the boxes of its brand, picker, section links and sign-out measured at 1024, 1100, 1280, 1366 and
// 1920 px: none overlaps another, none leaves the window, the page never scrolls sideways), and at 390 px
// it takes at most 30 % of the height with every section reachable. Every target in the main content is
// at least 24×24 px or spaced as WCAG 2.2 AA allows (axe's target-size rule, at 1280 and 390 px), and the
// row actions of keys and deliveries are at least 44 px tall on a phone.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';
import { allAttempts } from '../support/webhooks.js';
import { seriousViolations } from './axe.js';
import { consolePage, type ConsoleWorld, signInByLink, startConsoleWorld } from './browser.js';

let browser: Browser;
let t: TestService;
let baseUrl: string;
let consoleWorld: ConsoleWorld | undefined;
const world: Record<string, any> = {};

const DESKTOP_WIDTHS = [1024, 1100, 1280, 1366, 1920];
const PHONE = { width: 390, height: 844 };

interface Box {
  what: string;
  /** A section link, which on a phone may be scrolled out of sight within the sections' row. */
  inNav: boolean;
  /** The sections' row, which holds the links. */
  isNav: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The header's parts as drawn. Run in the page (this file is type-checked without the DOM library). */
const HEADER_BOXES = `[...document.querySelectorAll('#top .brand, #top .picker label, #top .picker select, #top nav, #top nav a, #top .who > *')].map((element) => {
  const box = element.getBoundingClientRect();
  const what = element.tagName === 'NAV' ? 'the sections' : element.textContent.trim().slice(0, 40) || element.tagName;
  return { what, inNav: element.tagName === 'A' && Boolean(element.closest('nav')), isNav: element.tagName === 'NAV', x: box.x, y: box.y, width: box.width, height: box.height };
})`;

function overlaps(a: Box, b: Box): boolean {
  const across = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const down = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return across > 0.5 && down > 0.5;
}

/**
 * Every pair of header parts that overlap, and every part outside the window, in words. With
 * `scrollingSections` (a phone) the section links may lie outside the window within their own row, which
 * scrolls sideways (that each can be reached is checked apart).
 */
async function headerFaults(page: Page, scrollingSections = false): Promise<string[]> {
  const boxes = await page.evaluate<Box[]>(HEADER_BOXES);
  const width = page.viewportSize()!.width;
  const faults: string[] = [];
  boxes.forEach((a, i) => {
    if (a.width === 0 || a.height === 0) faults.push(`${a.what} is not drawn`);
    if (!(scrollingSections && a.inNav) && (a.x < 0 || a.x + a.width > width + 0.5)) faults.push(`${a.what} leaves the window`);
    for (const b of boxes.slice(i + 1)) {
      // The sections' row holds its links; on a phone a link scrolled out of sight may lie under anything.
      const contains = (a.isNav && b.inNav) || (b.isNav && a.inNav);
      if (!contains && !(scrollingSections && (a.inNav || b.inNav)) && overlaps(a, b)) faults.push(`${a.what} overlaps ${b.what}`);
    }
  });
  const sideways = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  if (sideways > 0) faults.push(`the page scrolls sideways by ${sideways} px`);
  return faults;
}

/** Each role, signed in, on the page it lands on (and the operator also on a tenant's page). */
const ROLES: { role: string; open(page: Page): Promise<void> }[] = [
  { role: 'team viewer', open: (page) => signInAs(page, world.viewer.email, /^Guides · /) },
  { role: 'team editor', open: (page) => signInAs(page, world.editor.email, /^Guides · /) },
  { role: 'team admin', open: (page) => signInAs(page, world.admin.email, /^API keys · /) },
  { role: 'organization admin', open: (page) => signInAs(page, world.orgAdmin.email, /^API keys · /) },
  {
    role: 'operator',
    open: async (page) => {
      await page.goto(`${baseUrl}/console/#/sign-in`);
      await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
      await page.getByRole('button', { name: 'Sign in as operator' }).click();
      await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    },
  },
  {
    role: "operator on a tenant's page",
    open: async (page) => {
      await ROLES[4]!.open(page);
      await page.goto(`${baseUrl}/console/#/team/${world.team.id}/keys`);
      await page.getByRole('heading', { name: /^API keys · / }).waitFor();
    },
  },
];

async function signInAs(page: Page, email: string, landing: RegExp): Promise<void> {
  await signInByLink(page, t, baseUrl, email);
  await page.getByRole('heading', { name: landing, level: 1 }).waitFor();
}

beforeAll(async () => {
  consoleWorld = await startConsoleWorld();
  ({ browser, t, baseUrl } = consoleWorld);
  // Long names, as real companies have them, in every place the header shows one.
  world.organization = await t.admin('POST', '/organizations', { name: 'Northwind Outfitters International Holdings', plan: 'growth' });
  world.team = await t.admin('POST', '/teams', { name: 'Customer Success Operations EMEA and APAC', organization_id: world.organization.id });
  const person = async (key: string, name: string, grant: (id: string) => Promise<unknown>) => {
    world[key] = await t.admin('POST', '/users', { email: `${key}.header@example.com`, name });
    await grant(world[key].id);
  };
  await person('viewer', 'Valentina Viewer-Hernández de la Cruz', (id) => t.admin('PUT', `/teams/${world.team.id}/members/${id}`, { role: 'VIEWER' }));
  await person('editor', 'Eduardo Editor-Fitzgerald', (id) => t.admin('PUT', `/teams/${world.team.id}/members/${id}`, { role: 'EDITOR' }));
  await person('admin', 'Adelheid Administrator-Müller', (id) => t.admin('PUT', `/teams/${world.team.id}/members/${id}`, { role: 'ADMIN' }));
  await person('orgAdmin', 'Oluwaseun Organization-Admin', (id) => t.admin('PUT', `/organizations/${world.organization.id}/admins/${id}`));
  world.endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: world.team.id }, url: `${consoleWorld.receiver.url}/header`, events: ['guide.created'] });
  await eventually('the ping delivered', async () => ((await allAttempts(t, world.endpoint.id)).some((a) => a.status === 'delivered') ? true : undefined));
  await t.admin('POST', '/api-keys', { home: { type: 'team', id: world.team.id }, name: 'Zapier', scopes: ['guides:read'], expires_in_days: 30 });
}, 60_000);

afterAll(() => consoleWorld?.close());

describe('the header (issue 44 item 4)', () => {
  it.each(ROLES)('fits every width from 1024 to 1920 px for the $role: nothing overlaps, nothing leaves the window', async ({ open }) => {
    const page = await consolePage(browser, { width: 1280, height: 860 });
    page.setDefaultTimeout(15_000);
    try {
      await open(page);
      for (const width of DESKTOP_WIDTHS) {
        await page.setViewportSize({ width, height: 860 });
        expect(await headerFaults(page), `at ${width} px`).toEqual([]);
      }
    } finally {
      await page.context().close();
    }
  });

  it.each(ROLES)('at 390 px takes at most 30 % of the height for the $role, and every section can be reached', async ({ open }) => {
    const page = await consolePage(browser, PHONE);
    page.setDefaultTimeout(15_000);
    try {
      await open(page);
      const header = (await page.locator('#top').boundingBox())!;
      expect(header.height).toBeLessThanOrEqual(0.3 * PHONE.height);
      const links = page.getByRole('navigation', { name: 'Sections' }).getByRole('link');
      expect(await links.count()).toBeGreaterThan(0);
      for (const link of await links.all()) {
        await link.scrollIntoViewIfNeeded();
        const box = (await link.boundingBox())!;
        expect(box.x, await link.innerText()).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, await link.innerText()).toBeLessThanOrEqual(PHONE.width);
        // What is drawn at its middle is the link itself: nothing covers it.
        const atMiddle = await page.evaluate<string | undefined>(`document.elementFromPoint(${box.x + box.width / 2}, ${box.y + box.height / 2})?.closest('a')?.textContent`);
        expect(atMiddle).toBe(await link.innerText());
      }
      expect(await headerFaults(page, true)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});

describe('targets (issue 44 item 4)', () => {
  const PAGES = [
    { name: 'API keys', hash: () => `#/team/${world.team.id}/keys` },
    { name: 'Webhooks', hash: () => `#/team/${world.team.id}/webhooks` },
    { name: "an endpoint's page", hash: () => `#/team/${world.team.id}/webhooks/${world.endpoint.id}` },
    { name: 'API settings', hash: () => `#/team/${world.team.id}/settings` },
    { name: 'People', hash: () => `#/team/${world.team.id}/people` },
    { name: 'Guides', hash: () => `#/team/${world.team.id}/guides` },
    { name: 'Audit log', hash: () => `#/team/${world.team.id}/audit` },
  ];

  it.each([{ width: 1280, height: 860 }, PHONE])('every target in the main content is at least 24×24 px or spaced enough, at $width px', async (viewport) => {
    const page = await consolePage(browser, viewport);
    page.setDefaultTimeout(15_000);
    try {
      await signInAs(page, world.admin.email, /^API keys · /);
      for (const { name, hash } of PAGES) {
        await page.goto(`${baseUrl}/console/${hash()}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.locator('main .loading').first().waitFor({ state: 'detached' });
        // The attempts of the endpoint's deliveries unfolded, their buttons drawn.
        for (const fold of await page.locator('details.attempts > summary').all()) await fold.click();
        expect(await seriousViolations(page, ['target-size']), name).toEqual([]);
      }
    } finally {
      await page.context().close();
    }
  });

  it('on a phone, the row actions of keys and deliveries are at least 44 px tall', async () => {
    const page = await consolePage(browser, PHONE);
    page.setDefaultTimeout(15_000);
    try {
      await signInAs(page, world.admin.email, /^API keys · /);
      await page.getByRole('button', { name: 'Revoke Zapier' }).waitFor();
      await page.goto(`${baseUrl}/console/#/team/${world.team.id}/webhooks/${world.endpoint.id}`);
      await page.locator('tbody tr').first().waitFor();
      await page.locator('details.attempts > summary').first().click();
      const deliveries = await page.locator('tbody button, tbody summary').evaluateAll((elements: any[]) => elements.map((element) => [element.textContent, element.getBoundingClientRect().height]));
      await page.goto(`${baseUrl}/console/#/team/${world.team.id}/keys`);
      await page.getByRole('button', { name: 'Revoke Zapier' }).waitFor();
      const keys = await page.locator('tbody button').evaluateAll((elements: any[]) => elements.map((element) => [element.textContent, element.getBoundingClientRect().height]));
      const actions = [...deliveries, ...keys] as [string, number][];
      expect(actions.length).toBeGreaterThanOrEqual(4);
      expect(actions.filter(([, height]) => height < 44)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
