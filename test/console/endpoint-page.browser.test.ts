// Issue 35, the webhooks parts, in a real browser: a home's endpoints as a compact table whose URL opens
// the endpoint's page (health, deliveries, signing key, actions), "Add endpoint" opening the form; the
// last delivery says "Sending…" while one is on its way; the Actions menu gives focus back to its button
// after an action and on Escape; "Send again" is named by its visible text first; the signing key masked
// until revealed, with Copy; a ping to a paused endpoint said to be kept as missed; the form's events each
// with a line saying when it is sent, and "All events"; a test event of any type.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_DESCRIPTIONS, SUBSCRIBABLE_EVENTS } from '../../src/domain/events.js';
import type { TestService } from '../support/service.js';
import type { Receiver } from '../support/receiver.js';
import { eventually } from '../support/waiting.js';
import { allAttempts } from '../support/webhooks.js';
import { seriousViolations } from './axe.js';
import { consolePage, type ConsoleWorld, screenshot, signInByLink, startConsoleWorld, startHeldReceiver, WIDTHS } from './browser.js';

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

/** What has focus, as "tag:text". Run in the page (this file is type-checked without the DOM library). */
const focused = (page: Page) => page.evaluate<string>("`${document.activeElement?.tagName.toLowerCase()}:${document.activeElement?.textContent?.trim()}`");

describe.each(WIDTHS)('webhooks in the console at $label width (issue 35)', ({ label, suffix, viewport }) => {
  let page: Page;
  const world: Record<string, any> = {};
  const webhooksUrl = () => `${baseUrl}/console/#/team/${world.team.id}/webhooks`;
  const endpointUrl = (endpoint: { id: string }) => `${webhooksUrl()}/${endpoint.id}`;

  /** Opens a console page afresh (going to the address already open would draw nothing again). */
  async function visit(url: string) {
    if (page.url() === url) await page.reload();
    else await page.goto(url);
  }

  /** Opens the Actions menu with the keyboard and presses one of its items. */
  async function pressMenuItem(item: string) {
    const summary = page.locator('details.menu > summary');
    await summary.focus();
    if (!(await page.locator('details.menu').evaluate((details: any) => details.open as boolean))) await page.keyboard.press('Enter');
    const button = page.locator('details.menu .menu-items button:not([disabled])', { hasText: item });
    await button.focus();
    await page.keyboard.press('Enter');
  }

  beforeAll(async () => {
    world.team = await t.admin('POST', '/teams', { name: `Webhooks ${label}` });
    const email = `webhooks-${label}@example.com`;
    world.user = await t.admin('POST', '/users', { email, name: `Webhooks ${label}` });
    await t.admin('PUT', `/teams/${world.team.id}/members/${world.user.id}`, { role: 'ADMIN' });
    world.endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: world.team.id }, url: `${receiver.url}/${label}`, events: ['guide.created'] });
    await eventually('the ping delivered', async () => (await allAttempts(t, world.endpoint.id)).find((a) => a.status === 'delivered'));
    page = await consolePage(browser, viewport);
    page.setDefaultTimeout(15_000);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await signInByLink(page, t, baseUrl, email);
    await page.getByRole('heading', { name: /API keys/ }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await page?.context().close();
  });

  it("lists a home's endpoints as a table whose URL opens the endpoint's page, and \"Add endpoint\" opens the form", async () => {
    await visit(webhooksUrl());
    const link = page.getByRole('link', { name: world.endpoint.url, exact: true });
    await link.waitFor();
    expect(await page.locator('main article').count()).toBe(0);
    expect(await page.locator('main table th').allInnerTexts()).toEqual(['URL', 'State', 'Success rate, 24 hours', 'Last delivery']);
    const row = page.locator('tbody tr').filter({ has: link });
    expect(await row.locator('.badge.ok').innerText()).toBe('Active');
    expect(await row.locator('[data-fact="rate"]').innerText()).toBe('100 % (1 of 1 event delivered)');
    expect(await row.locator('[data-fact="last"]').innerText()).toMatch(/^delivered /);

    // The form is closed until asked for; Escape closes it and gives focus back to the button.
    const add = page.getByRole('button', { name: 'Add endpoint', exact: true });
    expect(await page.getByLabel('URL').isVisible()).toBe(false);
    expect(await add.getAttribute('aria-expanded')).toBe('false');
    await add.click();
    expect(await add.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.evaluate('document.activeElement.id')).toBe('endpoint-url');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `25-webhooks-add${suffix}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('button:Add endpoint');
    expect(await page.getByLabel('URL').isVisible()).toBe(false);

    // The endpoint's page has its health, signing key, deliveries and actions.
    await link.click();
    await page.getByRole('heading', { level: 1, name: world.endpoint.url }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/team/${world.team.id}/webhooks/${world.endpoint.id}`);
    for (const heading of ['Health', 'Signing key', 'Deliveries']) await page.getByRole('heading', { level: 2, name: heading, exact: true }).waitFor();
    await page.getByRole('img', { name: /Deliveries per hour/ }).waitFor();
    await page.locator('tbody .badge.latest.delivered').waitFor();
    expect(await page.locator('details.menu > summary').getAttribute('aria-label')).toBe(`Actions for ${world.endpoint.url}`);
    await page.locator('details.menu > summary').click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
  });

  it('says "Sending…" as the last delivery while the first attempt is in flight, and the delivery once it is made', async () => {
    const held = await startHeldReceiver();
    try {
      const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: world.team.id }, url: held.url, events: ['guide.created'] });
      await held.arrived;
      await visit(webhooksUrl());
      const row = page.locator('tbody tr').filter({ has: page.getByRole('link', { name: held.url, exact: true }) });
      await row.waitFor();
      expect(await row.locator('[data-fact="last"]').innerText()).toBe('Sending…');
      await visit(endpointUrl(endpoint));
      const last = page.locator('[data-fact="last"]');
      await last.getByText('Sending…').waitFor();
      expect(await last.innerText()).toBe('Sending…');
      expect(await page.locator('tbody [data-outcome]').innerText()).toBe('Sending…');
      held.release();
      // Nobody reloads: the page notices the answer by itself.
      await last.getByText('delivered').waitFor();
      expect(await page.locator('tbody [data-outcome]').innerText()).toMatch(/^Delivered · 200 · \d+ ms$/);
      await t.admin('DELETE', `/webhook-endpoints/${endpoint.id}`);
    } finally {
      await held.close();
    }
  });

  it('gives focus back to the Actions button after an action and on Escape, and names "Send again" by its visible text first', async () => {
    await visit(endpointUrl(world.endpoint));
    await page.locator('tbody .badge.latest.delivered').waitFor();
    const summary = page.locator('details.menu > summary');
    const menu = page.locator('details.menu');

    // Escape closes the menu, and focus is on its button.
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => menu.evaluate((details: any) => details.open as boolean)).toBe(true);
    await page.locator('details.menu .menu-items button').first().focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.evaluate((details: any) => details.open as boolean)).toBe(false);
    expect(await focused(page)).toBe('summary:Actions');

    // After an action, focus is back on the menu's button, not on the page.
    await pressMenuItem('Send ping');
    await page.getByRole('status').filter({ hasText: 'A ping is on its way' }).waitFor();
    await expect.poll(() => focused(page)).toBe('summary:Actions');
    await pressMenuItem('Reveal signing key');
    await page.getByRole('textbox', { name: 'Signing key (verifies X-Service-Signature)', exact: true }).waitFor();
    await expect.poll(() => focused(page)).toBe('summary:Actions');
    // After a dialog too, whether it was cancelled or confirmed.
    await pressMenuItem('Rotate signing key…');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('summary:Actions');

    // "Send again": its accessible name begins with what it shows; axe's label-content-name-mismatch agrees.
    await eventually('the ping delivered', async () => (await allAttempts(t, world.endpoint.id)).every((a) => a.status === 'delivered') || undefined);
    await page.reload();
    const again = page.getByRole('button', { name: /^Send again/ });
    await again.first().waitFor();
    expect(await again.count()).toBe(await page.locator('tbody tr').count());
    for (const button of await again.all()) {
      const [text, name] = [await button.innerText(), await button.getAttribute('aria-label')];
      expect(text).toBe('Send again');
      expect(name).toMatch(/^Send again: ping [0-9a-f]{8}$/);
    }
    expect(await seriousViolations(page, ['label-content-name-mismatch'])).toEqual([]);
  });

  it('shows the signing key masked until "Reveal", with a Copy button, and rotates it with an overlap', async () => {
    await visit(endpointUrl(world.endpoint));
    const panel = page.getByRole('region', { name: 'Signing key' });
    await panel.getByText('whsec_••••••••••••••••').waitFor();
    const key = (await t.admin('GET', `/webhook-endpoints/${world.endpoint.id}/signing-key`)).signing_key as string;
    expect(await page.content()).not.toContain(key);
    await screenshot(page, `26-signing-key-masked${suffix}`);

    await panel.getByRole('button', { name: 'Reveal' }).click();
    const field = panel.getByRole('textbox', { name: 'Signing key (verifies X-Service-Signature)', exact: true });
    expect(await field.inputValue()).toBe(key);
    await panel.getByRole('button', { name: 'Copy' }).first().click();
    await panel.getByText('Copied', { exact: true }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await panel.getByRole('button', { name: 'Hide' }).click();
    await panel.getByText('whsec_••••••••••••••••').waitFor();
    expect(await page.content()).not.toContain(key);

    // The rotation offers an overlap, 24 hours unless another is chosen; the page says until when.
    await pressMenuItem('Rotate signing key…');
    expect(await page.getByRole('dialog').getByLabel('Keep the old key signing for').inputValue()).toBe('24');
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate key' }).click();
    await page.getByRole('status').filter({ hasText: 'The signing key was rotated' }).waitFor();
    // The two forms of the new key are shown, what a receiver needs now; the old one is folded away.
    expect(await panel.getByRole('textbox').count()).toBe(2);
    await panel.locator('details.old-key > summary').click();
    expect(await panel.getByRole('textbox', { name: 'Old signing key (X-Service-Signature)', exact: true }).inputValue()).toBe(key);
    expect(await panel.getByRole('textbox', { name: 'Signing key (verifies X-Service-Signature)', exact: true }).inputValue()).not.toBe(key);
    await page.getByText('The old signing key still signs beside the new one until').waitFor();
  });

  it('says a ping to a paused endpoint was kept as missed, not that it is on its way', async () => {
    await t.admin('POST', `/webhook-endpoints/${world.endpoint.id}/pause`);
    await visit(endpointUrl(world.endpoint));
    await page.getByText('Paused: an admin paused it').waitFor();
    const before = (await allAttempts(t, world.endpoint.id)).length;
    await pressMenuItem('Send ping');
    const message = page.getByRole('status').filter({ hasText: 'kept as missed' });
    await message.waitFor();
    expect(await message.innerText()).toBe(
      `${world.endpoint.url} is paused, so a ping was not sent: it is kept as missed, and is sent if you resume the endpoint and choose to redeliver missed events.`,
    );
    const attempts = await allAttempts(t, world.endpoint.id);
    expect(attempts.length).toBe(before + 1);
    expect(attempts[0]).toMatchObject({ event_type: 'ping', status: 'missed' });
    await page.locator('tbody [data-outcome="missed"]').first().waitFor();
    expect(await page.locator('tbody [data-outcome="missed"]').first().innerText()).toBe('Missed (endpoint paused)');
    await t.admin('POST', `/webhook-endpoints/${world.endpoint.id}/resume`, { redeliver_missed: false });
  });

  it('describes each event in the form in one line, picks them all at once, and sends a test event of any type', async () => {
    await visit(webhooksUrl());
    await page.getByRole('button', { name: 'Add endpoint', exact: true }).click();
    const form = page.locator('#add-endpoint');
    for (const type of SUBSCRIBABLE_EVENTS) {
      const box = form.getByLabel(type, { exact: true });
      const says = await box.getAttribute('aria-describedby');
      expect(await form.locator(`[id="${says}"]`).innerText(), type).toBe(EVENT_DESCRIPTIONS[type].replaceAll('`', ''));
    }
    const all = form.getByLabel('All events', { exact: true });
    await all.check();
    for (const type of SUBSCRIBABLE_EVENTS) expect(await form.getByLabel(type, { exact: true }).isChecked(), type).toBe(true);
    await form.getByLabel('guide.ready', { exact: true }).uncheck();
    expect(await all.evaluate((box: any) => [box.checked, box.indeterminate])).toEqual([false, true]);
    // Pressed while some are picked, it picks them all; pressed again, none.
    await all.click();
    expect(await all.evaluate((box: any) => [box.checked, box.indeterminate])).toEqual([true, false]);
    expect(await form.getByLabel('guide.ready', { exact: true }).isChecked()).toBe(true);
    await all.uncheck();
    expect(await all.evaluate((box: any) => [box.checked, box.indeterminate])).toEqual([false, false]);
    for (const type of SUBSCRIBABLE_EVENTS) expect(await form.getByLabel(type, { exact: true }).isChecked(), type).toBe(false);
    await screenshot(page, `27-endpoint-form-events${suffix}`);
    await all.check();
    await form.getByLabel('URL').fill(`${receiver.url}/${label}-all`);
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    await page.getByRole('status').filter({ hasText: 'Endpoint added' }).waitFor();
    const link = page.getByRole('link', { name: `${receiver.url}/${label}-all`, exact: true });
    await link.waitFor();
    expect(await form.isVisible()).toBe(false);
    const created = (await t.admin('GET', `/webhook-endpoints?home_type=team&home_id=${world.team.id}`)).find((e: any) => e.url === `${receiver.url}/${label}-all`);
    expect(created.events).toEqual([...SUBSCRIBABLE_EVENTS]);

    // A test member.joined, from the endpoint's page.
    await link.click();
    await page.getByRole('heading', { level: 1, name: created.url }).waitFor();
    await pressMenuItem('Send test event…');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Event type').selectOption('member.joined');
    await dialog.getByText(EVENT_DESCRIPTIONS['member.joined']).waitFor();
    await dialog.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').filter({ hasText: `A test member.joined event is on its way to ${created.url}.` }).waitFor();
    const delivered = await eventually('the test member.joined', () =>
      receiver.received.find((r) => r.path.endsWith(`/${label}-all`) && r.headers['x-service-event'] === 'member.joined'),
    );
    expect(JSON.parse(delivered.body).data.member.name).toBe('Test event: a sample member');
    await page.locator('tbody tr').filter({ hasText: 'member.joined' }).locator('.badge.latest.delivered').waitFor();
  });
});
