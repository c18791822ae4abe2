// People in the console (shared decisions §11, issue 44 item 1), in a real browser at desktop and phone
// widths: a team's ADMIN adds a person by e-mail with a role (invited, as the page says), changes a role
// and removes a member; a refusal (the last ADMIN of a team of no organization) is shown in the service's
// words and the role stays; a VIEWER sees the list without controls; an organization's admin adds an
// admin and finds each team's people. No serious or critical axe violation on any of these pages.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.js';
import { expectAccessible } from './axe.js';
import { consolePage, screenshot, signInByLink, WIDTHS, useBrowserAndService } from './browser.js';

let browser: Browser;
let t: TestService;
let baseUrl: string;
useBrowserAndService((world) => ({ browser, t, baseUrl } = world));

async function person(email: string, name: string, grant: (id: string) => Promise<unknown>) {
  const user = await t.admin('POST', '/users', { email, name });
  await grant(user.id);
  return user;
}

describe.each(WIDTHS)('the people pages at $label width', ({ label, suffix, viewport }) => {
  const world: Record<string, any> = {};
  let page: Page;

  async function signedIn(email: string, hash: string): Promise<Page> {
    const opened = await consolePage(browser, viewport);
    opened.setDefaultTimeout(8000);
    await signInByLink(opened, t, baseUrl, email);
    await opened.getByRole('heading', { level: 1 }).waitFor();
    await opened.goto(`${baseUrl}/console/${hash}`);
    await opened.getByRole('heading', { name: /^People · / }).waitFor();
    return opened;
  }

  beforeAll(async () => {
    world.organization = await t.admin('POST', '/organizations', { name: `People Outfitters ${label}`, plan: 'growth' });
    world.team = await t.admin('POST', '/teams', { name: `Support ${label}`, organization_id: world.organization.id });
    world.solo = await t.admin('POST', '/teams', { name: `Solo ${label}`, plan: 'free' });
    world.ana = await person(`ana.people.${label}@example.com`, 'Ana Lima', (id) => t.admin('PUT', `/organizations/${world.organization.id}/admins/${id}`));
    world.bo = await person(`bo.people.${label}@example.com`, 'Bo Berg', async (id) => {
      await t.admin('PUT', `/teams/${world.team.id}/members/${id}`, { role: 'ADMIN' });
      await t.admin('PUT', `/teams/${world.solo.id}/members/${id}`, { role: 'ADMIN' });
    });
    world.cy = await person(`cy.people.${label}@example.com`, 'Cy Dahl', (id) => t.admin('PUT', `/teams/${world.team.id}/members/${id}`, { role: 'VIEWER' }));
    page = await signedIn(world.bo.email, `#/team/${world.team.id}/people`);
  }, 60_000);

  afterAll(async () => {
    await page?.context().close();
  });

  it("a team's ADMIN adds someone new by e-mail with a role, and the page says they were invited", async () => {
    const email = `dee.people.${label}@example.com`;
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Name (optional)').fill('Dee Ekman');
    await page.getByLabel('Role', { exact: true }).selectOption('EDITOR');
    await page.getByRole('button', { name: 'Add person' }).click();
    const said = page.getByRole('status').filter({ hasText: 'Dee Ekman was added' });
    await said.waitFor();
    expect(await said.textContent()).toContain('invited by e-mail');
    await page.getByRole('cell', { name: email }).waitFor();
    expect((await t.admin('GET', '/mail')).some((mail: { to: string[] }) => mail.to.includes(email))).toBe(true);
    await expectAccessible(page, `people page after adding (${label})`);
    await screenshot(page, `28-people${suffix}`);
  });

  it("changes a member's role from the list, and removes a member after confirming", async () => {
    await page.getByLabel('Role of Cy Dahl').selectOption('EDITOR');
    await page.getByRole('status').filter({ hasText: 'Cy Dahl is now EDITOR.' }).waitFor();
    expect((await t.admin('GET', `/teams/${world.team.id}/members`)).find((member: { id: string }) => member.id === world.cy.id).role).toBe('EDITOR');
    await page.getByRole('button', { name: 'Remove Dee Ekman' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('status').filter({ hasText: 'Dee Ekman was removed.' }).waitFor();
    expect(await page.getByRole('cell', { name: `dee.people.${label}@example.com` }).count()).toBe(0);
  });

  it('the last ADMIN of a team of no organization: the refusal in the service’s words, and the role stays', async () => {
    await page.goto(`${baseUrl}/console/#/team/${world.solo.id}/people`);
    await page.getByRole('heading', { name: `People · Solo ${label}` }).waitFor();
    const select = page.getByLabel('Role of Bo Berg');
    await select.selectOption('VIEWER');
    const alert = page.getByRole('alert').filter({ hasText: 'last ADMIN' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('make another member ADMIN first');
    expect(await select.inputValue()).toBe('ADMIN');
    await expectAccessible(page, `people page with a refusal (${label})`);
  });

  it('a VIEWER sees the list, without controls', async () => {
    await t.admin('PUT', `/teams/${world.team.id}/members/${world.cy.id}`, { role: 'VIEWER' });
    const viewer = await signedIn(world.cy.email, `#/team/${world.team.id}/people`);
    try {
      await viewer.getByRole('cell', { name: world.bo.email }).waitFor();
      const main = viewer.locator('main');
      expect(await main.getByRole('combobox').count()).toBe(0);
      expect(await main.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
      expect(await main.getByRole('button', { name: 'Add person' }).count()).toBe(0);
      await expectAccessible(viewer, `people page of a viewer (${label})`);
    } finally {
      await viewer.context().close();
    }
  });

  it("an organization's admin adds an admin by e-mail, and finds each team's people", async () => {
    const admin = await signedIn(world.ana.email, `#/organization/${world.organization.id}/people`);
    try {
      await admin.getByRole('cell', { name: world.ana.email }).waitFor();
      await admin.getByLabel('E-mail address').fill(world.bo.email);
      await admin.getByRole('button', { name: 'Add admin' }).click();
      await admin.getByRole('status').filter({ hasText: 'Bo Berg was made an admin' }).waitFor();
      await admin.getByRole('cell', { name: world.bo.email }).waitFor();
      await admin.getByRole('link', { name: `Support ${label}` }).click();
      await admin.getByRole('heading', { name: `People · Support ${label}` }).waitFor();
      await expectAccessible(admin, `an organization's people (${label})`);
    } finally {
      await admin.context().close();
    }
  });
});
