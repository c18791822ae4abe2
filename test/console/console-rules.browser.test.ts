// The console's rules of issue 14 (items 8–10) in a real browser, at desktop and at phone width: editing
// and pausing endpoints, refusals shown beside the field they name, confirmations before keys stop
// working, loading indicators, no stale panels, returning to the page asked for after sign-in, a tab whose
// session ended, the favicon and the names in the "Working on" select.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestService } from '../support/service.js';
import type { Receiver } from '../support/receiver.js';
import { consolePage, type ConsoleWorld, screenshot, signInByLink, startConsoleWorld, WIDTHS } from './browser.js';

let browser: Browser;
let t: TestService;
let baseUrl: string;
let receiver: Receiver;

let consoleWorld: ConsoleWorld | undefined;

beforeAll(async () => {
  consoleWorld = await startConsoleWorld();
  ({ browser, t, baseUrl, receiver } = consoleWorld);
}, 60_000);

afterAll(() => consoleWorld?.close());

/** Opens the Actions menu of the endpoint's page with the keyboard, and presses one of its items. */
async function pressMenuItem(page: Page, item: string) {
  const menu = page.locator('.menu').first();
  await menu.locator('summary').focus();
  if (!(await menu.evaluate((details: any) => details.open as boolean))) await page.keyboard.press('Enter');
  // Enabled: the item's last action has finished.
  const button = menu.locator('.menu-items button:not([disabled])', { hasText: item });
  await button.focus();
  await page.keyboard.press('Enter');
}

describe.each(WIDTHS)('the console at $label width', ({ label, suffix, viewport }) => {
  let page: Page;
  const world: Record<string, any> = {};
  const email = `ana-${label}@example.com`;
  const keysHash = () => `#/team/${world.team.id}/keys`;
  /** The key form's Name field, the form opened first from "New key…" if it is closed. */
  async function keyName() {
    const opener = page.getByRole('button', { name: 'New key…' });
    // The page is drawn when one of them shows: the button, or the form it opened.
    await page.locator('#new-key-form:visible, button[aria-controls="new-key-form"]:visible').first().waitFor();
    if (await opener.isVisible()) await opener.click();
    return page.getByLabel('Name');
  }

  beforeAll(async () => {
    world.organization = await t.admin('POST', '/organizations', { name: `Northwind Outfitters Worldwide ${label}`, plan: 'growth' });
    world.team = await t.admin('POST', '/teams', { name: `Customer Success Operations ${label}`, organization_id: world.organization.id });
    world.ana = await t.admin('POST', '/users', { email, name: `Ana ${label}` });
    await t.admin('PUT', `/teams/${world.team.id}/members/${world.ana.id}`, { role: 'ADMIN' });
    page = await consolePage(browser, viewport);
    page.setDefaultTimeout(8000);
    await signInByLink(page, t, baseUrl, email);
    await page.getByRole('heading', { name: `API keys · ${world.team.name}` }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await page?.context().close();
  });

  describe('item 8: edit and pause', () => {
    it("edits an endpoint's URL, events and description from its menu, by keyboard", async () => {
      world.endpoint = await t.admin('POST', '/webhook-endpoints', {
        home: { type: 'team', id: world.team.id },
        url: `${receiver.url}/${label}`,
        events: ['guide.created'],
        description: 'Before',
      });
      await page.goto(`${baseUrl}/console/#/team/${world.team.id}/webhooks/${world.endpoint.id}`);
      await page.getByRole('heading', { name: `${receiver.url}/${label}` }).waitFor();
      await pressMenuItem(page, 'Edit…');
      const form = page.getByRole('form', { name: `Edit ${receiver.url}/${label}` });
      await form.waitFor();
      // The form opens with focus in its first field, filled with what the endpoint has now.
      expect(await page.evaluate('document.activeElement.id')).toBe(`edit-${world.endpoint.id}-url`);
      expect(await form.getByLabel('guide.created').isChecked()).toBe(true);
      expect(await form.getByLabel('Description (optional)').inputValue()).toBe('Before');
      await form.getByLabel('URL').fill(`${receiver.url}/${label}-edited`);
      await form.getByLabel('guide.created').uncheck();
      await form.getByLabel('guide.deleted').check();
      await form.getByLabel('Description (optional)').fill('After');
      await screenshot(page, `12-endpoint-edit${suffix}`);
      await form.getByLabel('Description (optional)').press('Enter');
      await page.getByRole('status').filter({ hasText: 'The endpoint was saved.' }).waitFor();
      await page.getByRole('heading', { name: `${receiver.url}/${label}-edited` }).waitFor();
      await page.getByText('After', { exact: true }).waitFor();
      const saved = await t.admin('GET', `/webhook-endpoints/${world.endpoint.id}`);
      expect([saved.url, saved.events, saved.description]).toEqual([`${receiver.url}/${label}-edited`, ['guide.deleted'], 'After']);

      // Emptying the description takes it away; Escape closes the form without saving.
      const editForm = page.getByRole('form', { name: /^Edit / });
      await pressMenuItem(page, 'Edit…');
      await editForm.getByLabel('Description (optional)').fill('');
      await editForm.getByRole('button', { name: 'Save endpoint' }).press('Enter');
      await page.getByRole('status').filter({ hasText: 'The endpoint was saved.' }).waitFor();
      expect((await t.admin('GET', `/webhook-endpoints/${world.endpoint.id}`)).description).toBeNull();
      await pressMenuItem(page, 'Edit…');
      await editForm.getByLabel('URL').press('Escape');
      expect(await editForm.count()).toBe(0);
      // Focus goes back to the menu's button.
      expect(await page.evaluate('document.activeElement.tagName')).toBe('SUMMARY');
    });

    it('shows a URL the API refuses beside the URL field, not in a general alert', async () => {
      await pressMenuItem(page, 'Edit…');
      const form = page.getByRole('form', { name: /^Edit / });
      const url = form.getByLabel('URL');
      await url.fill('ftp://example.com/hook');
      await url.press('Enter');
      const message = form.locator('.field-error');
      await message.waitFor();
      expect(await message.innerText()).toBe('URL must be an http:// or https:// URL');
      expect(await url.getAttribute('aria-invalid')).toBe('true');
      expect(await url.getAttribute('aria-describedby')).toBe(await message.getAttribute('id'));
      expect(await page.evaluate('document.activeElement.id')).toBe(await url.getAttribute('id'));
      expect(await page.locator('.alert.error').count()).toBe(0);
      await screenshot(page, `13-field-error${suffix}`);
      // Fixed and sent again: the message goes.
      await url.fill(`${receiver.url}/${label}`);
      await url.press('Enter');
      await page.getByRole('status').filter({ hasText: 'The endpoint was saved.' }).waitFor();
      expect(await page.locator('.field-error').count()).toBe(0);
    });

    it('pauses an endpoint by hand after confirming, and resumes it without redelivery', async () => {
      await pressMenuItem(page, 'Pause…');
      const dialog = page.getByRole('dialog');
      expect(await dialog.innerText()).toContain('Nothing is sent to it until it is resumed; new events are kept as missed');
      // Escape cancels: nothing changes.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect((await t.admin('GET', `/webhook-endpoints/${world.endpoint.id}`)).status).toBe('active');

      await pressMenuItem(page, 'Pause…');
      await page.getByRole('dialog').getByRole('button', { name: 'Pause endpoint' }).press('Enter');
      await page.getByRole('status').filter({ hasText: 'The endpoint is paused.' }).waitFor();
      await page.getByText('Paused: an admin paused it').waitFor();
      const paused = await t.admin('GET', `/webhook-endpoints/${world.endpoint.id}`);
      expect([paused.status, paused.paused_reason]).toEqual(['paused', 'manual']);

      await pressMenuItem(page, 'Resume…');
      await page.getByRole('dialog').getByLabel('Redeliver missed events, oldest first').uncheck();
      await page.getByRole('dialog').getByRole('button', { name: 'Resume' }).press('Enter');
      await page.getByRole('status').filter({ hasText: 'The endpoint is active again.' }).waitFor();
      await page.getByText('Active', { exact: true }).waitFor();
      expect((await t.admin('GET', `/webhook-endpoints/${world.endpoint.id}`)).status).toBe('active');
    });
  });

  describe('item 9: guard rails', () => {
    it("refuses a key name of only spaces, showing the API's words beside the Name field", async () => {
      await page.goto(`${baseUrl}/console/${keysHash()}`);
      const name = await keyName();
      for (const [typed, words] of [
        ['   ', 'Name must be text with at least one character that is not a space'],
        ['', 'Name must not be empty'],
      ] as const) {
        await name.fill(typed);
        await name.press('Enter');
        const message = page.locator('#key-name-error');
        await message.waitFor();
        expect(await message.innerText()).toBe(words);
        expect(await name.getAttribute('aria-invalid')).toBe('true');
      }
      expect(await t.admin('GET', `/api-keys?home_type=team&home_id=${world.team.id}`)).toEqual([]);
    });

    it('refuses an endpoint without events beside the Events, and a description of only spaces beside the Description', async () => {
      await page.goto(`${baseUrl}/console/#/team/${world.team.id}/webhooks`);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const form = page.locator('form#add-endpoint');
      await form.getByLabel('URL').fill(`${receiver.url}/${label}-blank`);
      await form.getByLabel('Description (optional)').fill('   ');
      await form.getByLabel('Description (optional)').press('Enter');
      const events = page.locator('#endpoint-events-error');
      await events.waitFor();
      expect(await events.innerText()).toMatch(/^Events must /);
      // Focus goes to the first box of the Events: "All events".
      expect(await page.evaluate('document.activeElement.id')).toBe('endpoint-events-all');
      await page.keyboard.press('Space');
      await form.getByLabel('Description (optional)').press('Enter');
      await events.waitFor({ state: 'detached' });
      const message = page.locator('#endpoint-description-error');
      await message.waitFor();
      expect(await message.innerText()).toBe('Description must be text with at least one character that is not a space');
      expect(await page.evaluate('document.activeElement.id')).toBe('endpoint-description');
    });

    it('asks before turning API access off or organization keys only on, saying what stops working, and gives focus back to Save', async () => {
      const operator = await consolePage(browser, viewport);
      await operator.goto(`${baseUrl}/console/#/organization/${world.organization.id}/settings`);
      await operator.getByLabel('Admin token').fill(ADMIN_TOKEN);
      await operator.getByLabel('Admin token').press('Enter');
      await operator.getByText('Plan: Growth').waitFor();
      const organization = () => t.admin('GET', `/organizations/${world.organization.id}`);
      const focused = () => operator.evaluate('document.activeElement?.textContent');

      await operator.getByLabel('API access', { exact: true }).uncheck();
      await operator.getByRole('button', { name: 'Save settings' }).press('Enter');
      const dialog = operator.getByRole('dialog', { name: 'Turn API access off?' });
      expect(await dialog.innerText()).toContain(`Every API key of ${world.organization.name} and of its teams stops working at once`);
      await screenshot(operator, `14-confirm-api-off${suffix}`);
      await dialog.getByRole('button', { name: 'Cancel' }).press('Enter');
      // Focus comes back to the button once the console is done asking (a closed dialog hides at once).
      await expect.poll(focused).toBe('Save settings');
      await dialog.waitFor({ state: 'detached' });
      expect((await organization()).api_enabled).toBe(true);

      await operator.getByLabel('API access', { exact: true }).check();
      await operator.getByLabel('Organization keys only', { exact: true }).check();
      await operator.getByRole('button', { name: 'Save settings' }).press('Enter');
      const orgOnly = operator.getByRole('dialog', { name: 'Allow organization keys only?' });
      expect(await orgOnly.innerText()).toContain('Every team key');
      await operator.keyboard.press('Escape');
      await expect.poll(focused).toBe('Save settings');
      await orgOnly.waitFor({ state: 'detached' });
      expect((await organization()).org_keys_only).toBe(false);

      await operator.getByRole('button', { name: 'Save settings' }).press('Enter');
      await orgOnly.getByRole('button', { name: 'Allow organization keys only' }).press('Enter');
      await operator.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
      expect((await organization()).org_keys_only).toBe(true);

      // Turning it off again stops nothing: no question.
      await operator.getByLabel('Organization keys only', { exact: true }).uncheck();
      await operator.getByRole('button', { name: 'Save settings' }).press('Enter');
      await operator.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
      expect(await operator.getByRole('dialog').count()).toBe(0);
      expect((await organization()).org_keys_only).toBe(false);
      await operator.context().close();
    });

    it("says team keys are disabled on the team's keys page, and offers no form, while its organization allows organization keys only", async () => {
      await t.admin('PATCH', `/organizations/${world.organization.id}`, { org_keys_only: true });
      await page.goto(`${baseUrl}/console/${keysHash()}`);
      const warning = page.locator('#team-keys-disabled');
      await warning.waitFor();
      expect(await warning.innerText()).toContain(`Team keys are disabled. The organization ${world.organization.name} allows organization keys only`);
      expect(await page.getByRole('button', { name: 'New key…' }).count()).toBe(0);
      expect(await page.locator('#new-key-form').count()).toBe(0);
      await screenshot(page, `15-team-keys-disabled${suffix}`);

      await t.admin('PATCH', `/organizations/${world.organization.id}`, { org_keys_only: false });
      await page.reload();
      await page.getByRole('button', { name: 'New key…' }).waitFor();
      expect(await warning.count()).toBe(0);
    });
  });

  describe('item 10: state and navigation', () => {
    it("shows a loading indicator while a page's request is on its way, and a busy button while a form is sent", async () => {
      let releaseList = () => {};
      const listHeld = new Promise<void>((resolve) => (releaseList = resolve));
      await page.route('**/admin/v1/api-keys?*', async (route) => {
        await listHeld;
        await route.continue();
      });
      try {
        await page.goto(`${baseUrl}/console/${keysHash()}`);
        await page.reload();
        await page.getByRole('status').filter({ hasText: 'Loading keys…' }).waitFor();
        await screenshot(page, `18-loading${suffix}`);
      } finally {
        releaseList();
      }
      await page.getByText('No keys yet.').waitFor();
      expect(await page.getByText('Loading keys…').count()).toBe(0);
      await page.unroute('**/admin/v1/api-keys?*');

      let releaseCreate = () => {};
      const createHeld = new Promise<void>((resolve) => (releaseCreate = resolve));
      await page.route('**/admin/v1/api-keys', async (route) => {
        await createHeld;
        await route.continue();
      });
      const create = page.locator('#new-key-form button[type="submit"]');
      try {
        await (await keyName()).fill('Busy');
        await page.getByLabel('Name').press('Enter');
        await page.locator('button[aria-busy="true"]').waitFor();
        expect(await create.isDisabled()).toBe(true);
      } finally {
        releaseCreate();
      }
      await page.getByLabel('Your new API key').waitFor();
      // The button is freed when the answer has been shown; the shown key may come a moment earlier.
      await expect.poll(() => create.getAttribute('aria-busy')).toBeNull();
      await page.unroute('**/admin/v1/api-keys');
    });

    it('sends each change with an Idempotency-Key, the same one when it is tried again: a create whose answer was lost, tried again, makes one key (issue 42)', async () => {
      const name = `Once ${label}`;
      const keysSent: string[] = [];
      let lost = false;
      await page.route('**/admin/v1/api-keys', async (route) => {
        keysSent.push(route.request().headers()['idempotency-key'] ?? '');
        if (lost) return route.continue();
        // The service gets it and answers, and the answer never reaches the page.
        lost = true;
        await route.fetch();
        await route.abort('connectionreset');
      });
      try {
        await (await keyName()).fill(name);
        await page.getByLabel('Name').press('Enter');
        await page.getByText('The service cannot be reached').waitFor();
        await page.getByRole('button', { name: 'Create key' }).click();
        await page.getByLabel('Your new API key').waitFor();
      } finally {
        await page.unroute('**/admin/v1/api-keys');
      }
      expect(keysSent).toHaveLength(2);
      expect(keysSent[0]).toMatch(/^[0-9a-f]{32}$/);
      expect(keysSent[1]).toBe(keysSent[0]);
      const keys = (await t.admin('GET', `/api-keys?home_type=team&home_id=${world.team.id}`)) as { name: string }[];
      expect(keys.filter((key) => key.name === name)).toHaveLength(1);
      // The next change is a new one, with a key of its own.
      await (await keyName()).fill(`${name} again`);
      const next = page.waitForRequest('**/admin/v1/api-keys');
      await page.getByLabel('Name').press('Enter');
      expect((await next).headers()['idempotency-key']).not.toBe(keysSent[0]);
      await page.getByLabel('Your new API key').waitFor();
    });

    it('makes a management key when "Manage webhooks" is ticked, which the form explains and leaves unticked (issue 42)', async () => {
      await keyName();
      const manage = page.getByRole('checkbox', { name: /Manage webhooks/ });
      expect(await manage.isChecked()).toBe(false);
      const described = await manage.getAttribute('aria-describedby');
      expect(await page.locator(`[id="${described}"]`).textContent()).toContain('webhook endpoints of this team');
      const name = `Deploys ${label}`;
      await page.getByLabel('Name').fill(name);
      await manage.check();
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByLabel('Your new API key').waitFor();
      const keys = (await t.admin('GET', `/api-keys?home_type=team&home_id=${world.team.id}`)) as { name: string; scopes: string[] }[];
      expect(keys.find((key) => key.name === name)?.scopes).toEqual(['guides:read', 'teams:read', 'members:read', 'webhooks:manage']);
      // The form is reset: the next key is not a management key unless asked again.
      await keyName();
      expect(await manage.isChecked()).toBe(false);
    });

    it('shows no stale panels: a new refusal takes the last secret away', async () => {
      // The key "Busy" of the last test is on show, with its secret.
      expect(await page.getByLabel('Your new API key').count()).toBe(1);
      await (await keyName()).fill('  ');
      await page.getByLabel('Name').press('Enter');
      await page.locator('#key-name-error').waitFor();
      expect(await page.getByLabel('Your new API key').count()).toBe(0);
    });

    it("shows a guide's saved title in its heading at once", async () => {
      const guide = await t.admin('POST', '/guides', { team_id: world.team.id, title: 'Old title', steps: [{ text: 'One' }] });
      await page.goto(`${baseUrl}/console/#/guides/${guide.id}`);
      await page.getByRole('heading', { name: 'Old title' }).waitFor();
      await page.getByLabel('Title').fill('New title');
      await page.getByLabel('Title').press('Enter');
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await page.getByRole('heading', { level: 1, name: 'New title' }).waitFor();
    });

    it('returns to the page asked for after signing in, by link and with the admin token', async () => {
      const webhooks = `#/team/${world.team.id}/webhooks`;
      const visitor = await consolePage(browser, viewport);
      await visitor.goto(`${baseUrl}/console/${webhooks}`);
      await visitor.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
      await signInByLink(visitor, t, baseUrl, email);
      await visitor.getByRole('heading', { name: `Webhooks · ${world.team.name}` }).waitFor();
      expect(new URL(visitor.url()).hash).toBe(webhooks);
      await visitor.context().close();

      const operator = await consolePage(browser, viewport);
      const settings = `#/organization/${world.organization.id}/settings`;
      await operator.goto(`${baseUrl}/console/${settings}`);
      await operator.getByLabel('Admin token').fill(ADMIN_TOKEN);
      await operator.getByLabel('Admin token').press('Enter');
      await operator.getByRole('heading', { name: `API settings · ${world.organization.name}` }).waitFor();
      expect(new URL(operator.url()).hash).toBe(settings);
      await operator.context().close();
    });

    it('says so when the session of a tab has ended, keeps what was typed, and saves it once signed in in another tab', async () => {
      await page.goto(`${baseUrl}/console/${keysHash()}`);
      await (await keyName()).fill('Typed before the session ended');
      const context: BrowserContext = page.context();
      await context.clearCookies();
      await page.getByLabel('Name').press('Enter');
      const alert = page.locator('main').getByRole('alert');
      await alert.waitFor();
      expect(await alert.innerText()).toContain('Your session has ended, so this was not done. What you typed is still here');
      expect(await page.locator('#banner').innerText()).toContain('Your session has ended.');
      expect(await page.getByLabel('Name').inputValue()).toBe('Typed before the session ended');
      expect(new URL(page.url()).hash).toBe(keysHash());
      await screenshot(page, `16-session-ended${suffix}`);

      const other = await context.newPage();
      await signInByLink(other, t, baseUrl, email);
      await other.getByRole('heading', { name: /^API keys · / }).waitFor();
      await other.close();

      await page.getByLabel('Name').press('Enter');
      await page.getByRole('heading', { name: 'Key “Typed before the session ended” created' }).waitFor();
      expect(await page.locator('#banner').innerText()).toBe('');
    });

    it('does not go on as someone else who signed in in another tab after the session ended', async () => {
      await (await keyName()).fill('Not as the operator');
      await page.context().clearCookies();
      await page.getByLabel('Name').press('Enter');
      await page.locator('#banner').getByRole('alert').waitFor();
      const other = await page.context().newPage();
      await other.goto(`${baseUrl}/console/`);
      await other.getByLabel('Admin token').fill(ADMIN_TOKEN);
      await other.getByLabel('Admin token').press('Enter');
      await other.getByText('Operator', { exact: true }).waitFor();
      await other.close();

      await page.getByLabel('Name').press('Enter');
      await page.locator('main').getByRole('alert').filter({ hasText: 'Someone else is signed in now' }).waitFor();
      const keys = (await t.admin('GET', `/api-keys?home_type=team&home_id=${world.team.id}`)) as { name: string }[];
      expect(keys.map((key) => key.name)).not.toContain('Not as the operator');
      // Signed in again as themselves, in this tab: the console opens the page that was left.
      await signInByLink(page, t, baseUrl, email);
      await page.getByRole('heading', { name: `API keys · ${world.team.name}` }).waitFor();
      expect(new URL(page.url()).hash).toBe(keysHash());
    });

    it('has a favicon that the CSP of the page lets load', async () => {
      const refused: string[] = [];
      page.on('console', (message) => {
        if (message.text().includes('Content Security Policy')) refused.push(message.text());
      });
      await page.reload();
      await page.getByRole('heading', { name: `API keys · ${world.team.name}` }).waitFor();
      const href = await page.locator('link[rel="icon"]').getAttribute('href');
      expect(href).toMatch(/^data:image\/svg\+xml,/);
      const width = await page.evaluate(`new Promise((resolve) => {
        const image = new Image();
        image.onload = () => resolve(image.naturalWidth);
        image.onerror = () => resolve(0);
        image.src = document.querySelector('link[rel="icon"]').href;
        document.body.append(image);
      })`);
      expect(width).toBeGreaterThan(0);
      expect(refused).toEqual([]);
    });

    it('shows the names in the "Working on" select in full, grouped by organization', async () => {
      const picker = page.getByLabel('Working on');
      expect(await picker.locator('option:checked').innerText()).toBe(world.team.name);
      expect(await picker.locator('optgroup').getAttribute('label')).toBe(world.organization.name);
      // The select is wide enough for the chosen name: its text, padding and arrow fit.
      const fit = (await page.evaluate(`(() => {
        const select = document.getElementById('home-picker');
        const style = getComputedStyle(select);
        const context = document.createElement('canvas').getContext('2d');
        context.font = style.font;
        const text = context.measureText(select.selectedOptions[0].textContent).width;
        return { need: Math.ceil(text + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + 16), have: select.clientWidth };
      })()`)) as { need: number; have: number };
      expect(fit.have).toBeGreaterThanOrEqual(fit.need);
      const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `17-working-on${suffix}`);
    });
  });
});
