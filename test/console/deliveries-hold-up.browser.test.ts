// Issue 44 item 3, the Deliveries list under use, in a real browser at desktop and phone widths: while an
// attempt is on its way the list reads itself again with one request each time (the endpoint and its
// health only when something changed) and changes rows in place, so a keyboard's focus in the table stays
// where it was through every refresh and through its row being drawn again; an attempt's details open
// beside the list at desktop widths and in its place on a phone, with Copy buttons for what was sent,
// and close back to the button that opened them; a paused endpoint shows why in a banner (a 410 named as
// such) with a Resume button. No serious or critical axe violation in any of these states.
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.js';
import type { Receiver } from '../support/receiver.js';
import { eventually } from '../support/waiting.js';
import { allAttempts } from '../support/webhooks.js';
import { expectAccessible } from './axe.js';
import { consolePage, type ConsoleWorld, type HeldReceiver, screenshot, signInByLink, startConsoleWorld, startHeldReceiver, WIDTHS } from './browser.js';

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

/** The focus key of what has focus, and whether it is in the Deliveries table. Run in the page. */
const focusInTable = (page: Page) =>
  page.evaluate<{ key: string | null; inTable: boolean }>(
    "({ key: document.activeElement?.getAttribute('data-focus-key') ?? null, inTable: Boolean(document.activeElement?.closest('.deliveries tbody')) })",
  );

describe.each(WIDTHS)('the Deliveries list under use at $label width (issue 44 item 3)', ({ label, suffix, viewport }) => {
  let page: Page;
  let held: HeldReceiver;
  const world: Record<string, any> = {};
  const endpointUrl = (endpoint: { id: string }) => `${baseUrl}/console/#/team/${world.team.id}/webhooks/${endpoint.id}`;

  beforeAll(async () => {
    world.team = await t.admin('POST', '/teams', { name: `Lists ${label}` });
    const email = `lists-${label}@example.com`;
    const user = await t.admin('POST', '/users', { email, name: `Lists ${label}` });
    await t.admin('PUT', `/teams/${world.team.id}/members/${user.id}`, { role: 'ADMIN' });
    held = await startHeldReceiver();
    page = await consolePage(browser, viewport);
    page.setDefaultTimeout(15_000);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await signInByLink(page, t, baseUrl, email);
    await page.getByRole('heading', { name: /API keys/ }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await page?.context().close();
    await held?.close();
  });

  it('keeps keyboard focus in a refreshing table, reading one request a refresh until something changes', async () => {
    world.endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: world.team.id }, url: held.url, events: ['guide.created'] });
    await page.goto(endpointUrl(world.endpoint));
    await held.arrived;
    await page.locator('tbody .badge.latest.sending').waitFor();

    // Tab from the filter button into the table.
    await page.locator('.filter-chooser > summary').focus();
    for (let presses = 0; presses < 5 && !(await focusInTable(page)).inTable; presses += 1) await page.keyboard.press('Tab');
    const start = await focusInTable(page);
    expect(start.inTable).toBe(true);
    expect(start.key).toMatch(/^fold:/);

    const requests: string[] = [];
    const record = (request: Request) => {
      if (request.url().includes('/admin/v1/')) requests.push(new URL(request.url()).pathname);
    };
    page.on('request', record);
    try {
      // Four refreshes (2 s apart: 8 s) with nothing changed: one request each, focus where it was.
      await eventually('four refreshes of the list', async () => (requests.filter((path) => path.endsWith('/deliveries')).length >= 4 ? true : undefined), 45_000);
      expect(requests.every((path) => path.endsWith('/deliveries'))).toBe(true);
      expect(await focusInTable(page)).toEqual(start);
      await expectAccessible(page, 'a refreshing Deliveries list with focus in it');

      // The ping is answered: its row is drawn again, focus goes back to the same control in it, and the
      // endpoint and its health are read again with it.
      held.release();
      await page.locator('tbody .badge.latest.delivered').waitFor();
      expect(await focusInTable(page)).toEqual(start);
      expect(requests.some((path) => path.endsWith('/health'))).toBe(true);
    } finally {
      page.off('request', record);
    }
    // Four refreshes take 8 s at least; on a loaded machine each of the steps around them may take seconds.
  }, 90_000);

  it("opens an attempt's details beside the list (in its place on a phone), with Copy buttons, and closes back to the button", async () => {
    const row = page.locator('tbody tr').first();
    await row.locator('details.attempts > summary').click();
    const details = row.getByRole('button', { name: /^Details of attempt 1 of ping/ });
    await details.click();
    const panel = page.getByRole('region', { name: 'Attempt 1 of ping' });
    await panel.waitFor();
    const list = page.locator('.deliveries-list');
    if (viewport.width >= 1100) {
      // Beside the list: both on screen, the panel to its right.
      const [listBox, panelBox] = [await list.boundingBox(), await panel.boundingBox()];
      expect(panelBox!.x).toBeGreaterThanOrEqual(listBox!.x + listBox!.width);
      expect(await list.isVisible()).toBe(true);
    } else {
      expect(await list.isVisible()).toBe(false);
      await panel.getByRole('button', { name: '← Back to deliveries' }).waitFor();
    }
    await expectAccessible(page, "an attempt's details open");
    await screenshot(page, `30-delivery-details${suffix}`);

    // Copy puts what was sent on the clipboard, as the panel shows it.
    await panel.getByRole('button', { name: 'Copy request headers' }).click();
    const headers = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(headers).toMatch(/^webhook-id: /m);
    expect(headers).toContain('x-service-signature: ');
    await panel.getByRole('button', { name: 'Copy request body' }).click();
    expect(JSON.parse(String(await page.evaluate('navigator.clipboard.readText()')))).toMatchObject({ type: 'ping' });

    // Escape closes it; focus goes back to the button that opened it, and the list is back.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    expect(await list.isVisible()).toBe(true);
    expect(await page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null")).toMatch(/^Details of attempt 1 of ping/);
  });

  it('says why a paused endpoint is paused in a banner (a 410 named as such), whose Resume button resumes it', async () => {
    receiver.answer = { status: 410 };
    const gone = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: world.team.id }, url: `${receiver.url}/gone-${label}`, events: ['guide.created'] });
    await eventually('the endpoint paused by its 410', async () => ((await t.admin('GET', `/webhook-endpoints/${gone.id}`)).status === 'paused' ? true : undefined));
    receiver.answer = { status: 200 };
    await page.goto(endpointUrl(gone));
    const banner = page.getByRole('region', { name: /^Paused/ });
    await banner.waitFor();
    expect(await banner.innerText()).toContain('The receiver answered 410 Gone');
    await expectAccessible(page, 'a paused endpoint with its banner');
    await screenshot(page, `31-endpoint-paused-gone${suffix}`);

    await banner.getByRole('button', { name: 'Resume…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('status').filter({ hasText: 'The endpoint is active again' }).waitFor();
    await banner.waitFor({ state: 'detached' });
    expect((await t.admin('GET', `/webhook-endpoints/${gone.id}`)).status).toBe('active');
    // The ping it missed was redelivered.
    await eventually('the missed ping redelivered', async () => ((await allAttempts(t, gone.id)).some((a) => a.status === 'delivered') ? true : undefined));
  });
});
