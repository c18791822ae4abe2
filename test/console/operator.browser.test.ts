// The operator's console (shared decisions §11, issue 44 item 2), in a real browser at desktop and phone
// widths: signed in with the admin token, the operator lands on the tenants, searches them by name,
// changes a plan, creates an organization and a team; finds a person by e-mail and erases them after a
// confirmation that names them and says what cannot be recalled; reads the mail outbox and the audit log
// of every tenant. No serious or critical axe violation on these pages.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestService } from '../support/service.js';
import { expectAccessible } from './axe.js';
import { consolePage, screenshot, WIDTHS, useBrowserAndService } from './browser.js';

let browser: Browser;
let t: TestService;
let baseUrl: string;
useBrowserAndService((world) => ({ browser, t, baseUrl } = world));

describe.each(WIDTHS)("the operator's pages at $label width", ({ label, suffix, viewport }) => {
  let page: Page;
  const world: Record<string, any> = {};

  beforeAll(async () => {
    world.organization = await t.admin('POST', '/organizations', { name: `Quokka Holdings ${label}`, plan: 'starter' });
    world.team = await t.admin('POST', '/teams', { name: `Quokka support ${label}`, organization_id: world.organization.id });
    world.person = await t.admin('POST', '/users', { email: `erin.erased.${label}@example.com`, name: 'Erin Erased' });
    await t.admin('PUT', `/teams/${world.team.id}/members/${world.person.id}`, { role: 'EDITOR' });
    page = await consolePage(browser, viewport);
    page.setDefaultTimeout(8000);
    await page.goto(`${baseUrl}/console/#/sign-in`);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in as operator' }).click();
  }, 60_000);

  afterAll(async () => {
    await page?.context().close();
  });

  it('lands on the tenants, finds one by a piece of its name, and changes its plan', async () => {
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    expect(page.url()).toContain('#/operator/tenants');
    await page.getByLabel('Find by name').fill(`quokka holdings ${label}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: `Quokka Holdings ${label}` }).waitFor();
    expect(await page.getByRole('row').count()).toBe(2);
    await page.getByLabel(`Plan of Quokka Holdings ${label}`).selectOption('growth');
    await page.getByRole('status').filter({ hasText: 'is on the growth plan now' }).waitFor();
    expect((await t.admin('GET', `/organizations/${world.organization.id}`)).plan).toBe('growth');
    await expectAccessible(page, `tenants (${label})`);
    await screenshot(page, `29-tenants${suffix}`);
  });

  it('creates an organization, and a team of it', async () => {
    await page.locator('#new-organization-name').fill(`Wombat Works ${label}`);
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('status').filter({ hasText: `The organization “Wombat Works ${label}” was created.` }).waitFor();
    // The new organization is in the operator's menus once the page is drawn again.
    await page.reload();
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    await page.locator('#new-team-name').fill(`Wombat desk ${label}`);
    await page.locator('#new-team-organization').selectOption({ label: `Wombat Works ${label}` });
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('status').filter({ hasText: `The team “Wombat desk ${label}” was created.` }).waitFor();
    const organizations = (await t.admin('GET', `/tenants?q=${encodeURIComponent(`wombat works ${label}`)}`)) as { id: string; teams: number }[];
    expect(organizations[0]!.teams).toBe(1);
  });

  it('finds a person by e-mail and erases them after a confirmation that names them and says what cannot be recalled', async () => {
    await page.getByRole('link', { name: 'People' }).click();
    await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
    await page.getByLabel('E-mail address').fill(world.person.email.toUpperCase());
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: `Erase Erin Erased (${world.person.email})` }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain(`Erase Erin Erased (${world.person.email})?`);
    expect(await dialog.textContent()).toContain('cannot be undone');
    expect(await dialog.textContent()).toContain('backups taken before');
    await expectAccessible(page, `the erase confirmation (${label})`);
    await dialog.getByRole('button', { name: 'Erase for good' }).click();
    await page.getByRole('status').filter({ hasText: 'was erased' }).waitFor();
    expect((await t.admin('GET', `/users/${world.person.id}`)).name).toBeNull();
  });

  it('reads the mail outbox and the audit log of every tenant', async () => {
    await page.getByRole('link', { name: 'Mail' }).click();
    await page.getByRole('heading', { name: 'Mail', level: 1 }).waitFor();
    await expectAccessible(page, `mail (${label})`);
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.getByText(`erased the user`).first().waitFor();
    await expectAccessible(page, `the audit log of every tenant (${label})`);
  });

  it("opens a tenant's own pages from the list, with a way back to every tenant", async () => {
    await page.goto(`${baseUrl}/console/#/operator/tenants`);
    await page.getByRole('link', { name: `Quokka Holdings ${label}` }).click();
    await page.getByRole('heading', { name: `API keys · Quokka Holdings ${label}` }).waitFor();
    await page.getByRole('link', { name: 'All tenants' }).click();
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
  });
});
