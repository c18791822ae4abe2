// The console's audit log (issue 33, part 1), in a real browser: an organization's admin opens the
// "Audit log" of the organization and reads each change in words, with who, when and from where;
// filters by kind of change and by person (in the page's address); a team's ADMIN member sees the
// team's log and not the other team's; a VIEWER is not offered it.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService } from '../support/service.js';
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

    // Filtered by kind of change, then by one person, in the address.
    await page.getByLabel('Change').selectOption('api_key.revoked');
    await page.waitForURL(/action=api_key\.revoked/);
    // The list is drawn again once the filtered page has come: wait for what it shows, not for a time.
    await expect.poll(() => log.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/^Ana Lima revoked the key 'CI'/)]);
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await page.waitForURL(/\/audit$/);
    await log.getByRole('link', { name: 'Bo Berg' }).first().click();
    await page.waitForURL(new RegExp(`actor_id=${world.bo.id}`));
    await page.getByText("Only one person's changes.").waitFor();
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
    await page.context().close();

    const viewer = await signedInPage('cy.audit@example.com');
    expect(await viewer.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await viewer.context().close();
  });
});
