// The console knows the person (issue 35, items 3, 4, 6 and 8): a person lands where they can act; the
// "Working on" picker and the page never disagree, and no heading shows a raw id; a refusal names who can
// help, with its code behind "Details"; arrow keys in the picker wait for Enter; a dialog closes when the
// page changes; times read "just now" with the exact time on hover; the header links to the API docs;
// the sign-in page says when this network has asked for too many links.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../support/receiver.js';
import type { TestService } from '../support/service.js';
import { eventually } from '../support/waiting.js';
import { closedPortUrl } from '../support/webhooks.js';
import { alertText, consolePage, launchChromium, signInByLink, startListeningService } from './browser.js';
import { requestLink } from './sessions.js';

let browser: Browser;
let t: TestService;
let baseUrl: string;
let page: Page;
const world: Record<string, any> = {};

beforeAll(async () => {
  browser = await launchChromium();
  ({ t, baseUrl } = await startListeningService({ RATE_LIMIT_PER_MINUTE: '40' }));
  world.organization = await t.admin('POST', '/organizations', { name: 'Northwind Outfitters', plan: 'growth' });
  world.alpha = await t.admin('POST', '/teams', { name: 'Alpha', organization_id: world.organization.id });
  world.beta = await t.admin('POST', '/teams', { name: 'Beta', organization_id: world.organization.id });
  world.gamma = await t.admin('POST', '/teams', { name: 'Gamma', organization_id: world.organization.id });
  world.ana = await t.admin('POST', '/users', { email: 'ana-nav@example.com', name: 'Ana Lima' });
  world.ed = await t.admin('POST', '/users', { email: 'ed-nav@example.com', name: 'Ed Editor' });
  await t.admin('PUT', `/teams/${world.alpha.id}/members/${world.ana.id}`, { role: 'ADMIN' });
  // Ed edits guides in Alpha, and is an admin of Beta only.
  await t.admin('PUT', `/teams/${world.alpha.id}/members/${world.ed.id}`, { role: 'EDITOR' });
  await t.admin('PUT', `/teams/${world.beta.id}/members/${world.ed.id}`, { role: 'ADMIN' });
  page = await consolePage(browser);
  page.setDefaultTimeout(8000);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Opens a console page afresh: going to the address of the page already shown would change nothing. */
async function openConsole(hash: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${baseUrl}/console/${hash}`);
}

const picked = () => page.getByLabel('Working on').locator('option:checked').innerText();

describe('the console knows the person', () => {
  it('lands on the team where the person can act, not where they may only edit', async () => {
    await signInByLink(page, t, baseUrl, world.ed.email);
    await page.getByRole('heading', { name: 'API keys · Beta', level: 1 }).waitFor();
    expect(await picked()).toBe('Beta');
  });

  it('a refusal names the team’s admins with a link to write to them, and keeps its code behind "Details"', async () => {
    await openConsole(`#/team/${world.alpha.id}/keys`);
    const text = await alertText(page);
    expect(text).toContain("Only the team's admins and its organization's admins may open");
    expect(text).toContain('Ask Ana Lima, the team’s admin, or an admin of Northwind Outfitters.');
    expect(await page.getByRole('alert').getByRole('link', { name: 'Ana Lima' }).getAttribute('href')).toBe('mailto:ana-nav@example.com');
    const code = page.getByRole('alert').getByText('Code forbidden');
    expect(await code.isVisible()).toBe(false);
    await page.getByRole('alert').getByText('Details').click();
    expect(await code.isVisible()).toBe(true);
  });

  it('a team reached by its address that the menus do not list: the picker agrees with the page, and no heading shows its id', async () => {
    await openConsole(`#/team/${world.gamma.id}/guides`);
    await page.getByRole('heading', { name: 'Guides · This team', level: 1 }).waitFor();
    expect(await picked()).toBe('This team');
    for (const heading of await page.getByRole('heading').allInnerTexts()) expect(heading).not.toContain(world.gamma.id);
  });

  it('arrow keys in the picker move through the choices without leaving the page; Enter goes there', async () => {
    await openConsole(`#/team/${world.beta.id}/keys`);
    await page.getByRole('heading', { name: 'API keys · Beta', level: 1 }).waitFor();
    const picker = page.getByLabel('Working on');
    await picker.focus();
    await page.keyboard.press('ArrowUp');
    expect(await picked()).toBe('Alpha');
    expect(await page.evaluate('location.hash')).toBe(`#/team/${world.beta.id}/keys`);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Guides · Alpha', level: 1 }).waitFor();
  });

  it('the picker, reached while the page still waits for its answers, keeps the focus when they come', async () => {
    await openConsole(`#/team/${world.alpha.id}/guides`);
    await page.getByRole('heading', { name: 'Guides · Alpha', level: 1 }).waitFor();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api-keys?*', async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.evaluate(`location.hash = '#/team/${world.beta.id}/keys'`);
      await page.getByRole('heading', { name: 'API keys · Beta', level: 1 }).waitFor();
      await page.getByLabel('Working on').focus();
      const keysAnswered = page.waitForResponse((response) => response.url().includes('/api-keys?'));
      release();
      await keysAnswered;
      await page.getByText('No keys yet.').waitFor();
    } finally {
      await page.unroute('**/api-keys?*');
    }
    expect(await page.evaluate('document.activeElement?.id')).toBe('home-picker');
  });

  it('a dialog left open closes when the page changes', async () => {
    await t.admin('POST', '/api-keys', { home: { type: 'team', id: world.beta.id }, name: 'Old key', scopes: ['guides:read'], expires_in_days: 30 });
    await openConsole(`#/team/${world.beta.id}/keys`);
    await page.getByRole('button', { name: 'Revoke Old key' }).click();
    await page.getByRole('dialog').waitFor();
    await page.evaluate(`location.hash = '#/team/${world.beta.id}/audit'`);
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    // Nothing was revoked: the list holds only keys not revoked.
    expect((await t.admin('GET', `/api-keys?home_type=team&home_id=${world.beta.id}`)).map((key: any) => key.name)).toEqual(['Old key']);
  });

  it('times read as people say them ("just now"), with the exact time on hover, and the header links to the API docs', async () => {
    await openConsole(`#/team/${world.beta.id}/keys`);
    const created = page.locator('tbody time').first();
    await created.waitFor();
    expect(await created.innerText()).toMatch(/^(just now|\d+ seconds? ago)$/);
    expect(await created.getAttribute('title')).toContain(String(new Date().getFullYear()));
    const docs = page.getByRole('banner').getByRole('link', { name: 'API docs' });
    expect(await docs.evaluate((link) => (link as unknown as { href: string }).href)).toBe(`${baseUrl}/docs`);
  });
});

describe('a page left before its answers came', () => {
  it('never draws over the page that replaced it', async () => {
    await openConsole(`#/team/${world.beta.id}/audit`);
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    // The keys page first asks who is signed in; that answer is held until the person has moved on.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const askedOnce = new Promise<void>((resolve) => (asked = resolve));
    await page.route('**/console/api/session', async (route) => {
      asked();
      await held;
      await route.continue();
    });
    await page.evaluate(`location.hash = '#/team/${world.beta.id}/keys'`);
    await askedOnce;
    await page.evaluate(`location.hash = '#/team/${world.beta.id}/guides'`);
    await page.getByRole('heading', { name: 'Guides · Beta', level: 1 }).waitFor();
    const keysAnswered = page.waitForResponse((response) => response.url().includes('/api-keys?'));
    release();
    await keysAnswered;
    await page.unroute('**/console/api/session');
    expect(await page.getByRole('heading', { level: 1 }).allInnerTexts()).toEqual(['Guides · Beta']);
  });
});

describe('a team page when the organization has switched API access off', () => {
  it('says so in words, and who can turn it on', async () => {
    await t.admin('PATCH', `/organizations/${world.organization.id}`, { api_enabled: false });
    try {
      await openConsole(`#/team/${world.beta.id}/keys`);
      const warning = page.locator('#api-disabled');
      await warning.waitFor();
      expect(await warning.innerText()).toContain(
        "API access is switched off. The organization Northwind Outfitters has switched API access off, so every key of this team is refused until an organization admin turns it on again",
      );
    } finally {
      await t.admin('PATCH', `/organizations/${world.organization.id}`, { api_enabled: true });
    }
    await page.reload();
    await page.getByRole('heading', { name: 'API keys · Beta', level: 1 }).waitFor();
    expect(await page.locator('#api-disabled').count()).toBe(0);
  });
});

describe("an organization admin's view of every team", () => {
  it('lists every endpoint and key of the organization and its teams, failing endpoints first and keys by expiry', async () => {
    const receiver = await startReceiver();
    try {
      const olga = await t.admin('POST', '/users', { email: 'olga-nav@example.com', name: 'Olga Org' });
      await t.admin('PUT', `/organizations/${world.organization.id}/admins/${olga.id}`);
      const healthy = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: world.alpha.id }, url: `${receiver.url}/alpha`, events: ['guide.created'] });
      const failing = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: world.beta.id }, url: await closedPortUrl(), events: ['guide.created'] });
      await receiver.waitFor(1);
      await eventually('the failing ping recorded', async () => (await t.admin('GET', `/webhook-endpoints/${failing.id}/health`)).consecutive_failures > 0);
      await t.admin('POST', '/api-keys', { home: { type: 'organization', id: world.organization.id }, name: 'Org forever', scopes: ['guides:read'], expires_in_days: null });
      await t.admin('POST', '/api-keys', { home: { type: 'team', id: world.gamma.id }, name: 'Gamma soon', scopes: ['guides:read'], expires_in_days: 30 });

      const olgaPage = await consolePage(browser);
      olgaPage.setDefaultTimeout(8000);
      await signInByLink(olgaPage, t, baseUrl, olga.email);
      await olgaPage.getByRole('heading', { name: /API keys · Northwind Outfitters/ }).waitFor();
      await olgaPage.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'All teams' }).click();
      await olgaPage.getByRole('heading', { name: 'All teams · Northwind Outfitters', level: 1 }).waitFor();
      const endpointRows = olgaPage.getByRole('table', { name: 'Webhook endpoints of every team' }).locator('tbody tr');
      await endpointRows.first().waitFor();
      expect(await endpointRows.allInnerTexts()).toEqual([expect.stringContaining('Failing: 1 in a row'), expect.stringContaining('Active')]);
      expect(await endpointRows.nth(0).innerText()).toContain('Beta');
      expect(await endpointRows.nth(1).getByRole('link').getAttribute('href')).toBe(`#/team/${world.alpha.id}/webhooks/${healthy.id}`);
      const keyNames = await olgaPage.getByRole('table', { name: 'API keys of every team' }).locator('tbody tr td:first-child').allInnerTexts();
      expect(keyNames.indexOf('Gamma soon')).toBeLessThan(keyNames.indexOf('Org forever'));
      await olgaPage.context().close();
    } finally {
      await receiver.close();
    }
  });
});

describe('the sign-in page', () => {
  it('says in words when this network has asked for too many links, and when to try again', async () => {
    const signIn = await consolePage(browser);
    await signIn.goto(`${baseUrl}/console/#/sign-in`);
    const email = signIn.getByLabel('E-mail address');
    await email.fill('someone@example.com');
    await signIn.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await signIn.getByRole('status').filter({ hasText: 'No more than 5 links are sent' }).waitFor();
    // This network's share of requests goes (RATE_LIMIT_PER_MINUTE is 40 here).
    for (let i = 0; i < 45; i++) await requestLink(t, 'someone@example.com');
    await signIn.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    const text = await alertText(signIn);
    expect(text).toMatch(/^Too many sign-in links were asked for from this network just now, so none was sent\. Try again in \d+ minutes?\. A link already e-mailed still works\./);
    await signIn.context().close();
  });
});
