// The console's audit log (issue 33, part 1; issue 44 item 3), in a real browser: an organization's admin
// opens the "Audit log" of the organization and reads each change in words, with who, when and from where,
// grouped by day, each opening to its facts; filters by kind of change (in words, only the kinds that can
// happen there) and by person (in the page's address); a run of identical entries is one line; a team's
// ADMIN member sees the team's log and not the other team's; a VIEWER is not offered it.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService } from '../support/service.js';
import { expectAccessible } from './axe.js';
import { consolePage, launchChromium, screenshot, signInByLink, startListeningService } from './browser.js';
import { asSession, type ConsoleSession, signIn } from './sessions.js';

let browser: Browser;
let t: TestService;
let baseUrl: string;
const world: Record<string, any> = {};

async function person(email: string, name: string, grant: (id: string) => Promise<unknown>) {
  const user = await t.admin('POST', '/users', { email, name });
  await grant(user.id);
  return user;
}

async function signedInPage(email: string): Promise<Page> {
  const page = await consolePage(browser);
  page.setDefaultTimeout(8000);
  await signInByLink(page, t, baseUrl, email);
  await page.getByRole('heading', { name: /API keys|Guides/ }).waitFor();
  return page;
}

beforeAll(async () => {
  browser = await launchChromium();
  ({ t, baseUrl } = await startListeningService());
  world.organization = await t.admin('POST', '/organizations', { name: 'Audit Outfitters', plan: 'growth' });
  world.support = await t.admin('POST', '/teams', { name: 'Support', organization_id: world.organization.id });
  world.sales = await t.admin('POST', '/teams', { name: 'Sales', organization_id: world.organization.id });
  world.ana = await person('ana.audit@example.com', 'Ana Lima', (id) => t.admin('PUT', `/organizations/${world.organization.id}/admins/${id}`));
  world.bo = await person('bo.audit@example.com', 'Bo Berg', (id) => t.admin('PUT', `/teams/${world.support.id}/members/${id}`, { role: 'ADMIN' }));
  world.cy = await person('cy.audit@example.com', 'Cy Dahl', (id) => t.admin('PUT', `/teams/${world.support.id}/members/${id}`, { role: 'VIEWER' }));
  // Changes made by Ana and Bo from the console, and one by the operator.
  const ana: ConsoleSession = await signIn(t, 'ana.audit@example.com');
  const key = await asSession(t, ana, 'POST', '/api-keys', { home: { type: 'team', id: world.support.id }, name: 'CI', scopes: ['guides:read'], expires_in_days: 30 });
  world.keyId = key.json().data.id;
  expect((await asSession(t, ana, 'DELETE', `/api-keys/${key.json().data.id}`)).statusCode).toBe(204);
  const bo: ConsoleSession = await signIn(t, 'bo.audit@example.com');
  expect((await asSession(t, bo, 'POST', '/api-keys', { home: { type: 'team', id: world.support.id }, name: 'Deploy', scopes: ['guides:read'], expires_in_days: 7 })).statusCode).toBe(201);
  await t.admin('PATCH', `/teams/${world.sales.id}`, { name: 'Sales EMEA' });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe("the console's audit log", () => {
  it("an organization's admin reads its changes and its teams' in words: who, what, when, from where", async () => {
    const page = await signedInPage('ana.audit@example.com');
    await page.goto(`${baseUrl}/console/#/organization/${world.organization.id}/audit`);
    const log = page.getByRole('list', { name: 'Audit log' });
    await log.getByRole('listitem').first().waitFor();
    const rows = await log.getByRole('listitem').allInnerTexts();
    expect(rows.some((row) => /^Ana Lima revoked the key 'CI' · just now · from 127\.0\.0\.1$/.test(row))).toBe(true);
    expect(rows.some((row) => /^Ana Lima created the key 'CI' · just now · from 127\.0\.0\.1$/.test(row))).toBe(true);
    expect(rows.some((row) => /^Bo Berg created the key 'Deploy' · just now/.test(row))).toBe(true);
    expect(rows.some((row) => /^The operator changed the team 'Sales EMEA': name · just now/.test(row))).toBe(true);
    await screenshot(page, '24-audit-log');

    // Grouped by day; an entry opens to its facts: the exact time, the kind's code, the target's id.
    await page.getByRole('heading', { name: 'Today', level: 2 }).waitFor();
    const revoked = log.getByRole('listitem').filter({ hasText: "Ana Lima revoked the key 'CI'" });
    await revoked.locator('summary').click();
    const revokedFacts = await revoked.locator('dl').innerText();
    expect(revokedFacts).toContain('api_key.revoked');
    expect(revokedFacts).toContain(world.keyId);
    expect(revokedFacts).toMatch(/Request\s+\S+/);
    await expectAccessible(page, 'the audit log with an entry open');

    // The menu of kinds says them in words, and only those that can happen at an organization.
    const kinds = await page.getByLabel('Change').locator('option').allInnerTexts();
    expect(kinds).toContain('Key revoked');
    expect(kinds).toContain('Admin added');
    expect(kinds).not.toContain('User erased');
    expect(kinds.filter((kind) => /^[a-z_]+\.[a-z_]+$/.test(kind))).toEqual([]);

    // Filtered by kind of change, then by one person, in the address.
    await page.getByLabel('Change').selectOption({ label: 'Key revoked' });
    await page.waitForURL(/action=api_key\.revoked/);
    // The list is drawn again once the filtered page has come: wait for what it shows, not for a time.
    await expect.poll(() => log.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/^Ana Lima revoked the key 'CI'/)]);
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await page.waitForURL(/\/audit$/);
    await page.getByLabel('Who').selectOption({ label: 'Bo Berg' });
    await page.waitForURL(new RegExp(`actor_id=${world.bo.id}`));
    await expect
      .poll(async () => {
        const rows = await log.getByRole('listitem').allInnerTexts();
        return rows.length > 0 && rows.every((row) => row.startsWith('Bo Berg '));
      })
      .toBe(true);
    await page.context().close();
  });

  it("a team's ADMIN member reads the team's log, not the other team's; a VIEWER is not offered it", async () => {
    const page = await signedInPage('bo.audit@example.com');
    await page.goto(`${baseUrl}/console/#/team/${world.support.id}/audit`);
    const items = page.getByRole('list', { name: 'Audit log' }).getByRole('listitem');
    await items.first().waitFor();
    const rows = await items.allInnerTexts();
    expect(rows.some((row) => row.startsWith("Bo Berg created the key 'Deploy'"))).toBe(true);
    expect(rows.some((row) => row.includes('Sales'))).toBe(false);

    // A team's menu offers what can happen to a team, not to its organization.
    const kinds = await page.getByLabel('Change').locator('option').allInnerTexts();
    expect(kinds).toContain('Key created');
    expect(kinds).not.toContain('Admin added');
    expect(kinds).not.toContain('Organization changed');
    await page.context().close();

    const viewer = await signedInPage('cy.audit@example.com');
    expect(await viewer.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await viewer.context().close();
  });

  it('collapses a run of identical entries into one line that says how many times, opening to each time', async () => {
    const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: world.sales.id }, url: 'https://hooks.example.com/audit-run', events: ['guide.created'] });
    for (let i = 0; i < 3; i += 1) await t.admin('POST', `/webhook-endpoints/${endpoint.id}/ping`);
    const page = await signedInPage('ana.audit@example.com');
    await page.goto(`${baseUrl}/console/#/team/${world.sales.id}/audit`);
    const items = page.getByRole('list', { name: /^Audit log/ }).getByRole('listitem');
    const run = items.filter({ hasText: 'The operator pinged the webhook endpoint' });
    await run.first().waitFor();
    expect(await run.count()).toBe(1);
    expect(await run.locator('summary').innerText()).toMatch(/^The operator pinged the webhook endpoint 'https:\/\/hooks\.example\.com\/audit-run' · 3 times · just now/);
    await run.locator('summary').click();
    expect(await run.locator('ul.times > li').count()).toBe(3);
    await page.context().close();
  });
});
