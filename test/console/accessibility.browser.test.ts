// Every console page, and the reference pages, checked by axe-core in a real browser at desktop and phone
// widths (issue 35): no serious or critical violation; and at phone width no page scrolls sideways (a wide
// table or code block scrolls inside its own focusable region instead).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { expectAccessible } from './axe.js';
import { consolePage, launchChromium, signInByLink, startListeningService } from './browser.js';

let browser: Browser;
let t: TestService;
let baseUrl: string;
let receiver: Receiver;
const world: Record<string, any> = {};

beforeAll(async () => {
  browser = await launchChromium();
  ({ t, baseUrl } = await startListeningService());
  receiver = await startReceiver();
  world.organization = await t.admin('POST', '/organizations', { name: 'Northwind Outfitters', plan: 'growth' });
  world.team = await t.admin('POST', '/teams', { name: 'Customer Support', organization_id: world.organization.id });
  world.ana = await t.admin('POST', '/users', { email: 'ana-a11y@example.com', name: 'Ana Lima' });
  await t.admin('PUT', `/teams/${world.team.id}/members/${world.ana.id}`, { role: 'ADMIN' });
  await t.admin('PUT', `/organizations/${world.organization.id}/admins/${world.ana.id}`);
  world.endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: world.team.id }, url: `${receiver.url}/a11y`, events: ['guide.created'] });
  world.guide = await t.admin('POST', '/guides', { team_id: world.team.id, title: 'Reset a customer password', steps: [{ text: 'Open **Settings**.' }], publish_status: 'PUBLISHED' });
  await t.admin('POST', '/api-keys', { home: { type: 'team', id: world.team.id }, name: 'CI', scopes: ['guides:read'], expires_in_days: 30 });
  await receiver.waitFor(2);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await t?.close();
});

/** The console pages, by their address, with a heading that says the page has drawn. */
const consolePages = () => [
  { hash: `#/team/${world.team.id}/keys`, heading: 'API keys' },
  { hash: `#/team/${world.team.id}/webhooks`, heading: 'Webhooks' },
  // An endpoint's page is headed by its URL (issue 35: health, signing key, deliveries and actions).
  { hash: `#/team/${world.team.id}/webhooks/${world.endpoint.id}`, heading: world.endpoint.url },
  { hash: `#/team/${world.team.id}/settings`, heading: 'API settings' },
  { hash: `#/team/${world.team.id}/guides`, heading: 'Guides' },
  { hash: `#/guides/${world.guide.id}`, heading: 'Reset a customer password' },
  { hash: `#/team/${world.team.id}/audit`, heading: 'Audit log' },
  { hash: `#/organization/${world.organization.id}/keys`, heading: 'API keys' },
  { hash: `#/organization/${world.organization.id}/settings`, heading: 'API settings' },
  { hash: `#/organization/${world.organization.id}/audit`, heading: 'Audit log' },
];

const REFERENCE_PAGES = ['/docs', '/docs/webhooks', '/docs/mcp', '/admin/v1/docs'];

/** Whether the page is wider than its window: something makes it scroll sideways. */
const scrollsSideways = (page: Page) => page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');

describe.each([
  { label: 'desktop', viewport: { width: 1280, height: 860 } },
  { label: 'phone', viewport: { width: 390, height: 844 } },
])('at $label width', ({ label, viewport }) => {
  let page: Page;

  beforeAll(async () => {
    page = await consolePage(browser, viewport);
    page.setDefaultTimeout(8000);
    await page.goto(`${baseUrl}/console/#/sign-in`);
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    await expectAccessible(page, `the sign-in page at ${label} width`);
    await signInByLink(page, t, baseUrl, world.ana.email);
    await page.getByRole('heading', { name: /API keys/ }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await page?.context().close();
  });

  it('no console page has a serious or critical axe violation, and none scrolls sideways', async () => {
    for (const { hash, heading } of consolePages()) {
      await page.goto(`${baseUrl}/console/${hash}`);
      await page.getByRole('heading', { name: heading, level: 1 }).first().waitFor();
      await page.locator('.loading').first().waitFor({ state: 'detached' });
      await expectAccessible(page, `${hash} at ${label} width`);
      expect(await scrollsSideways(page), `${hash} scrolls sideways at ${label} width`).toBe(false);
    }
  }, 60_000);

  it('no reference page has a serious or critical axe violation, and none scrolls sideways', async () => {
    for (const path of REFERENCE_PAGES) {
      await page.goto(`${baseUrl}${path}`);
      await page.locator('h1').first().waitFor();
      await expectAccessible(page, `${path} at ${label} width`);
      expect(await scrollsSideways(page), `${path} scrolls sideways at ${label} width`).toBe(false);
    }
  }, 60_000);
});

describe('the reference pages (issue 35, item 7)', () => {
  let page: Page;
  beforeAll(async () => {
    page = await consolePage(browser, { width: 390, height: 844 });
    page.setDefaultTimeout(8000);
    // Signed in: the management API's reference is for the operator and signed-in people.
    await signInByLink(page, t, baseUrl, world.ana.email);
    await page.getByRole('heading', { name: /API keys/ }).waitFor();
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('each has one main region, a header linking the pages, and contents linking every section and every operation', async () => {
    for (const path of REFERENCE_PAGES) {
      await page.goto(`${baseUrl}${path}`);
      expect(await page.getByRole('main').count(), path).toBe(1);
      for (const link of ['API reference', 'Verifying webhooks', 'MCP', 'Console']) await page.getByRole('banner').getByRole('link', { name: link, exact: true }).waitFor();
      const targets = await page.evaluate<string[]>("[...document.querySelectorAll('main h2[id], main section.operation[id]')].map((e) => e.id)");
      const linked = await page.evaluate<string[]>("[...document.querySelectorAll('#contents a')].map((a) => a.getAttribute('href').slice(1))");
      expect(targets.length, path).toBeGreaterThan(2);
      expect(linked, path).toEqual(expect.arrayContaining(targets));
    }
  });

  it('the search box narrows the contents to the entries holding every word typed', async () => {
    await page.goto(`${baseUrl}/docs`);
    const search = page.getByLabel('Search the contents');
    await search.fill('get guide');
    await page.getByRole('status').filter({ hasText: /^Found \d+ in the contents/ }).waitFor();
    const shown = await page.evaluate<string[]>("[...document.querySelectorAll('#contents details li:not([hidden]) > a')].map((a) => a.textContent)");
    expect(shown).toContain('GET /guides/{guideId}: Read one guide with its markdown body');
    expect(shown.filter((text) => text.startsWith('GET ') || text.startsWith('POST ')).every((text) => /get/i.test(text) && /guide/i.test(text))).toBe(true);
    expect(shown).not.toContain('Errors');
    await search.fill('');
    expect(await page.locator('#contents li[hidden]').count()).toBe(0);
  });

  it('code samples say they are samples, and a code block scrolls inside itself and takes focus', async () => {
    await page.goto(`${baseUrl}/docs`);
    await page.getByText('Sample request:').first().waitFor();
    await page.getByText(/^Sample answer \(200, recorded from a real run/).first().waitFor();
    const block = page.locator('pre').first();
    expect(await block.getAttribute('tabindex')).toBe('0');
    expect(await page.evaluate<string>("getComputedStyle(document.querySelector('pre')).overflowX")).toBe('auto');
  });
});
