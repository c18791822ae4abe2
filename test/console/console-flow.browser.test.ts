// The console in a real browser (issue 6): a team admin signs in by e-mailed link, creates a key and uses
// it, adds an endpoint that points at a local receiver, sees the ping in the Deliveries list and sends it
// again, rotates the signing key, is paused by a 410 and resumes with redelivery; the operator turns on
// organization keys only; a VIEWER cannot reach API settings. Each page is saved as a screenshot.
import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestService } from '../support/service.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { eventually } from '../support/waiting.js';
import { alertText, consolePage, launchChromium, screenshot, startHeldReceiver, startListeningService } from './browser.js';
import { mailedLinkToken } from './sessions.js';

let browser: Browser;
let t: TestService;
let baseUrl: string;
let receiver: Receiver;
let page: Page;
const world: Record<string, any> = {};

const signature = (key: string, body: string) => `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;
const lastOfType = (type: string) => receiver.received.filter((r) => r.headers['x-service-event'] === type).at(-1);

beforeAll(async () => {
  browser = await launchChromium();
  ({ t, baseUrl } = await startListeningService({ WEBHOOK_MAX_ENDPOINTS_PER_HOME: '2' }));
  receiver = await startReceiver();
  world.organization = await t.admin('POST', '/organizations', { name: 'Northwind Outfitters', plan: 'growth' });
  world.team = await t.admin('POST', '/teams', { name: 'Support', organization_id: world.organization.id });
  world.other = await t.admin('POST', '/teams', { name: 'Sales', organization_id: world.organization.id });
  world.ana = await t.admin('POST', '/users', { email: 'ana@example.com', name: 'Ana Admin' });
  world.victor = await t.admin('POST', '/users', { email: 'victor@example.com', name: 'Victor Viewer' });
  await t.admin('PUT', `/teams/${world.team.id}/members/${world.ana.id}`, { role: 'ADMIN' });
  await t.admin('PUT', `/teams/${world.team.id}/members/${world.victor.id}`, { role: 'VIEWER' });
  world.guide = await t.admin('POST', '/guides', {
    team_id: world.team.id,
    title: 'Reset a customer password',
    description: 'From the admin panel',
    steps: [{ text: 'Open settings' }, { text: 'Choose Reset' }],
  });
  page = await consolePage(browser);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await t?.close();
});

async function signInByLink(target: Page, email: string) {
  await target.goto(`${baseUrl}/console/`);
  await target.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
  await target.getByLabel('E-mail address').fill(email);
  await target.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await target.getByRole('status').filter({ hasText: 'sign-in link is on its way' }).waitFor();
  const token = await mailedLinkToken(t, email);
  await target.goto(`${baseUrl}/console/#/sign-in/${token}`);
}

describe('a team admin in the console', () => {
  it('signs in by e-mailed link and lands on the API keys of their team', async () => {
    await page.goto(`${baseUrl}/console/`);
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await screenshot(page, '01-sign-in');
    await signInByLink(page, 'ana@example.com');
    await page.getByRole('heading', { name: 'API keys · Support' }).waitFor();
    expect(await page.getByText('Ana Admin').isVisible()).toBe(true);
  });

  it('creates a key from the form "New key…" opens, sees it once with a copy button, and the key works against /v1/auth/verify', async () => {
    expect(await page.getByLabel('Name').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'New key…' }).click();
    // The form opens with focus in its first field.
    await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.id')).toBe('key-name');
    await page.getByLabel('Name').fill('Zapier');
    await page.getByLabel('Read members').uncheck();
    await page.getByLabel('Expires after').selectOption('30');
    await page.getByRole('button', { name: 'Create key' }).click();
    const field = page.getByLabel('Your new API key');
    await field.waitFor();
    const secret = await field.inputValue();
    expect(secret).toMatch(/^gsk_/);
    expect(await page.getByText('Copy this key now. It is shown only this once').isVisible()).toBe(true);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied', { exact: true }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await page.getByRole('cell', { name: 'Zapier', exact: true }).waitFor();
    await screenshot(page, '02-api-keys');

    const verify = await fetch(`${baseUrl}/v1/auth/verify`, { headers: { authorization: `Bearer ${secret}` } });
    expect(verify.status).toBe(200);
    const body = (await verify.json()) as { data: { name: string; scopes: string[] } };
    expect(body.data.name).toBe('Zapier');
    expect(body.data.scopes).toEqual(['guides:read', 'teams:read']);
    world.secret = secret;
  });

  it('shows the key only once: after a reload only its start is listed', async () => {
    await page.reload();
    await page.getByRole('cell', { name: 'Zapier', exact: true }).waitFor();
    expect(await page.getByLabel('Your new API key').count()).toBe(0);
    expect(await page.content()).not.toContain(world.secret);
  });

  it('revokes a key only after confirming, and the key stops working', async () => {
    const revoke = page.getByRole('button', { name: 'Revoke Zapier' });
    await revoke.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await page.getByRole('cell', { name: 'Zapier', exact: true }).count()).toBe(1);
    const verify = () => fetch(`${baseUrl}/v1/auth/verify`, { headers: { authorization: `Bearer ${world.secret}` } });
    expect((await verify()).status).toBe(200);

    await revoke.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('No keys yet.').waitFor();
    expect((await verify()).status).toBe(401);
    // The page says so, and focus goes to making a new key, as no key is left to act on.
    await page.getByRole('status').filter({ hasText: 'The key “Zapier” was revoked' }).waitFor();
    await expect.poll(() => page.evaluate<string | null | undefined>('document.activeElement?.textContent')).toBe('New key…');
  });

  it('adds an endpoint pointing at a local receiver, which gets the ping', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks · Support' }).waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('guide.created').check();
    await page.getByLabel('guide.updated').check();
    await page.getByLabel('Description (optional)').fill('Local receiver');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await page.getByRole('link', { name: receiver.url, exact: true }).waitFor();
    await receiver.waitFor(1);
    expect(receiver.received[0]!.headers['x-service-event']).toBe('ping');
    await screenshot(page, '03-webhooks');
  });

  it("sees the ping in the Deliveries list of the endpoint's page with its details, and sends it again", async () => {
    await page.getByRole('link', { name: receiver.url, exact: true }).click();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await page.locator('.badge.delivered').first().waitFor();
    // Each event is one row, its attempts folded under it.
    await page.locator('tbody details.attempts summary').first().click();
    await page.getByRole('button', { name: /^Details of attempt 1 of ping/ }).click();
    await page.getByRole('heading', { name: 'Request headers' }).waitFor();
    expect(await page.locator('#delivery-detail').innerText()).toContain('x-service-signature');
    await page.getByRole('button', { name: /^Send again: ping / }).first().click();
    await page.getByRole('status').filter({ hasText: 'Sent again as attempt 2' }).waitFor();
    await receiver.waitFor(2);
    // The list refreshes itself until the new attempt is delivered.
    await eventually('the resent attempt shows as delivered', async () => ((await page.locator('tbody li.attempt .badge.delivered').count()) === 2 ? true : undefined));
    await screenshot(page, '04-deliveries');
  });

  it("reveals the signing key on the endpoint's page, rotates it after confirming, and deliveries are signed with the new key", async () => {
    await openMenu();
    await page.getByRole('button', { name: 'Reveal signing key' }).click();
    const keyField = page.getByRole('textbox', { name: 'Signing key (verifies X-Service-Signature)', exact: true });
    await keyField.waitFor();
    const oldKey = await keyField.inputValue();
    expect(signatureOfLastPing()).toBe(signature(oldKey, lastOfType('ping')!.body));

    // The dialog offers an overlap, 24 hours unless another is chosen: the old key is shown beside the
    // new one, and the endpoint says until when it signs.
    await openMenu();
    await page.getByRole('button', { name: 'Rotate signing key…' }).click();
    expect(await page.getByRole('dialog').getByLabel('Keep the old key signing for').inputValue()).toBe('24');
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate key' }).click();
    await page.getByRole('status').filter({ hasText: 'The signing key was rotated' }).waitFor();
    const overlapping = await page.getByRole('textbox', { name: 'Signing key (verifies X-Service-Signature)', exact: true }).inputValue();
    expect(overlapping).not.toBe(oldKey);
    await page.locator('details.old-key > summary').click();
    expect(await page.getByRole('textbox', { name: 'Old signing key (X-Service-Signature)', exact: true }).inputValue()).toBe(oldKey);
    await page.getByText('The old signing key still signs beside the new one until').waitFor();
    await screenshot(page, '05-signing-key');

    // Without an overlap the replaced key stops at once.
    await openMenu();
    await page.getByRole('button', { name: 'Rotate signing key…' }).click();
    await page.getByRole('dialog').getByLabel('Keep the old key signing for').selectOption('0');
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate key' }).click();
    await eventually('the new key without an old one', async () => {
      const shown = await page.getByRole('textbox', { name: 'Signing key (verifies X-Service-Signature)', exact: true }).inputValue();
      return shown !== overlapping && (await page.getByRole('textbox', { name: 'Old signing key (X-Service-Signature)', exact: true }).count()) === 0 ? true : undefined;
    });
    const newKey = await page.getByRole('textbox', { name: 'Signing key (verifies X-Service-Signature)', exact: true }).inputValue();
    expect(await page.getByText('The old signing key still signs').count()).toBe(0);

    await openMenu();
    await page.getByRole('button', { name: 'Send ping', exact: true }).click();
    await receiver.waitFor(3);
    expect(signatureOfLastPing()).toBe(signature(newKey, lastOfType('ping')!.body));
  });

  it('is paused when the receiver answers 410, and resumes from the menu with the missed events redelivered', async () => {
    receiver.answer = { status: 410 };
    await openMenu();
    await page.getByRole('button', { name: 'Send ping', exact: true }).click();
    await receiver.waitFor(4);
    await eventually('the endpoint is paused', async () => {
      await page.reload();
      // The health and the deliveries load after the page does: read them once they are there.
      await page.locator('main .loading').first().waitFor({ state: 'detached' });
      return (await page.getByText('Paused: the receiver answered 410 Gone').count()) === 1 ? true : undefined;
    });
    await screenshot(page, '06-webhooks-paused');

    // A change while paused: published from the Guides page, it is kept as missed.
    await page.getByRole('link', { name: 'Guides' }).click();
    await page.getByRole('link', { name: 'Reset a customer password' }).click();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('status').filter({ hasText: 'Published.' }).waitFor();
    await screenshot(page, '07-guide');
    const before = receiver.received.length;

    receiver.answer = { status: 200 };
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: receiver.url, exact: true }).click();
    await openMenu();
    await page.locator('.menu-items').getByRole('button', { name: 'Resume…' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByLabel('Redeliver missed events, oldest first').isChecked()).toBe(true);
    await screenshot(page, '08-resume');
    await dialog.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('status').filter({ hasText: 'missed events are being redelivered' }).waitFor();
    // Oldest first: the ping that was answered 410 may come back before the change made while paused.
    const redelivered = await eventually('the missed guide.updated redelivered', () => {
      const types = receiver.received.slice(before).map((r) => r.headers['x-service-event']);
      return types.includes('guide.updated') ? types : undefined;
    });
    expect(redelivered).toContain('guide.updated');
    expect(JSON.parse(lastOfType('guide.updated')!.body).data.changed).toEqual(['publish_status']);
    await page.getByText('Active', { exact: true }).waitFor();
  });

  it('filters the Deliveries list by status; failed lists no event that a later attempt delivered (issue 42)', async () => {
    await page.locator('.filter-chooser > summary').click();
    await page.getByLabel('Status').selectOption('delivered');
    await eventually('only delivered attempts are listed', async () => {
      const badges = await page.locator('tbody li.attempt .badge').allTextContents();
      return badges.length > 0 && badges.every((badge) => badge === 'delivered') ? true : undefined;
    });
    // The one failure, the ping answered 410, was delivered when the endpoint resumed with its missed
    // retry redelivered: its event's outcome is not a failure.
    await page.locator('.filter-chooser > summary').click();
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No deliveries match these filters.').waitFor();
    const [endpoint] = (await t.admin('GET', `/webhook-endpoints?home_type=team&home_id=${world.team.id}`)).filter((e: any) => e.url === receiver.url);
    const attempts = await t.admin('GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=100`);
    const gone = attempts.find((a: any) => a.response_status === 410);
    expect(attempts.some((a: any) => a.event_id === gone.event_id && a.status === 'delivered')).toBe(true);
  });

  it("refuses an endpoint past the team's limit, saying so in words", async () => {
    const second = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: world.team.id }, url: `${receiver.url}/second`, events: ['guide.created'] });
    await eventually('the ping of the second endpoint', () => receiver.received.some((r) => r.path === '/hook/second'));
    await page.goto(`${baseUrl}/console/#/team/${world.team.id}/webhooks`);
    await page.getByRole('heading', { name: 'Webhooks · Support' }).waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('URL').fill(`${receiver.url}/third`);
    await page.getByLabel('guide.created').check();
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    expect(await alertText(page)).toContain(
      'This team already has 2 webhook endpoints, the most it may have (WEBHOOK_MAX_ENDPOINTS_PER_HOME is 2); delete one to add another',
    );
    await t.admin('DELETE', `/webhook-endpoints/${second.id}`);
    await page.getByRole('link', { name: receiver.url, exact: true }).click();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
  });

  it('reads well at phone width', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.locator('.badge.delivered').first().waitFor();
    await screenshot(page, '09-deliveries-phone');
    // Runs in the page, where `document` exists; this file is type-checked without the DOM library.
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('refreshes the Deliveries list by itself while a delivery is in flight', async () => {
    const held = await startHeldReceiver();
    try {
      const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: world.team.id }, url: held.url, events: ['guide.created'] });
      await page.goto(`${baseUrl}/console/#/team/${world.team.id}/webhooks/${endpoint.id}`);
      await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
      await held.arrived;
      // The ping is being sent and the receiver has not answered: the list shows it in flight.
      await page.locator('tbody .badge.latest.sending').waitFor();
      expect(await page.locator('tbody [data-outcome]').innerText()).toBe('Sending…');
      expect(await page.locator('tbody .badge.delivered').count()).toBe(0);
      held.release();
      // Nobody reloads or clicks: the list notices the answer by itself.
      await page.locator('tbody .badge.latest.delivered').waitFor({ timeout: 10_000 });
      await t.admin('DELETE', `/webhook-endpoints/${endpoint.id}`);
    } finally {
      await held.close();
    }
  });

  it("edits a guide's title and description, turns its share link on and deletes it, each emitting its event", async () => {
    await page.goto(`${baseUrl}/console/#/guides/${world.guide.id}`);
    await page.getByRole('heading', { name: 'Reset a customer password' }).waitFor();
    const before = receiver.received.length;
    await page.getByLabel('Title').fill('Reset a password');
    await page.getByLabel('Description').fill('From the support desk');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('button', { name: 'Turn share link on' }).click();
    await page.getByRole('status').filter({ hasText: 'Share link is on.' }).waitFor();
    const guide = await t.admin('GET', `/guides/${world.guide.id}`);
    expect([guide.title, guide.description, guide.is_public]).toEqual(['Reset a password', 'From the support desk', true]);
    // The share link is a link, with a Copy button beside it.
    expect(await page.getByRole('link', { name: guide.permalink, exact: true }).getAttribute('href')).toBe(guide.permalink);
    await page.getByRole('button', { name: 'Copy share link' }).waitFor();
    await receiver.waitFor(before + 2);
    const changed = receiver.received.slice(before).map((r) => JSON.parse(r.body).data.changed);
    expect(changed).toEqual([['title', 'description'], ['is_public']]);

    await page.getByRole('button', { name: 'Delete guide' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete guide' }).click();
    await page.getByRole('heading', { name: 'Guides · Support' }).waitFor();
    await page.getByText('No guides yet.').waitFor();
    expect((await t.adminRaw('GET', `/guides/${world.guide.id}`)).statusCode).toBe(404);
  });
});

async function openMenu() {
  await page.getByText('Actions', { exact: true }).first().click();
}

function signatureOfLastPing() {
  return lastOfType('ping')!.headers['x-service-signature'];
}

describe('the operator in the console', () => {
  it("signs in with the admin token and sets the organization's API settings", async () => {
    const operator = await consolePage(browser);
    await operator.goto(`${baseUrl}/console/`);
    await operator.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await operator.getByRole('button', { name: 'Sign in as operator' }).click();
    await operator.getByText('Operator', { exact: true }).waitFor();
    await operator.getByLabel('Working on').selectOption(`organization:${world.organization.id}`);
    await operator.getByRole('link', { name: 'API settings' }).click();
    await operator.getByText('Plan: Growth').waitFor();
    await operator.getByLabel('Organization keys only', { exact: true }).check();
    await operator.getByRole('button', { name: 'Save settings' }).click();
    // Team keys stop working: asked first, in words.
    const dialog = operator.getByRole('dialog');
    expect(await dialog.innerText()).toContain('Every team key of the teams of Northwind Outfitters');
    await dialog.getByRole('button', { name: 'Allow organization keys only' }).click();
    await operator.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    await screenshot(operator, '10-organization-settings');
    expect((await t.admin('GET', `/organizations/${world.organization.id}`)).org_keys_only).toBe(true);
    await operator.context().close();
  });
});

describe('a VIEWER in the console', () => {
  it('sees only the Guides and the People (without controls), and API settings refuse them in words', async () => {
    const viewer = await consolePage(browser);
    await signInByLink(viewer, 'victor@example.com');
    await viewer.getByRole('heading', { name: 'Guides · Support' }).waitFor();
    const sections = await viewer.getByRole('navigation', { name: 'Sections' }).getByRole('link').allInnerTexts();
    expect(sections).toEqual(['Guides', 'People']);
    await viewer.goto(`${baseUrl}/console/#/team/${world.team.id}/keys`);
    expect(await alertText(viewer)).toContain("Only the team's admins and its organization's admins may open the team's API settings");
    await screenshot(viewer, '11-viewer-refused');
    // Nor the team's API settings page, though the team's plan is something a member may read.
    for (const slug of ['settings', 'webhooks']) {
      await viewer.goto(`${baseUrl}/console/#/team/${world.team.id}/${slug}`);
      await viewer.getByRole('heading', { name: new RegExp(`^(API settings|Webhooks) · Support$`) }).waitFor();
      expect(await alertText(viewer), slug).toContain("may open the team's API settings");
      expect(await viewer.getByText('Plan:').count(), slug).toBe(0);
    }
    // An id in the address that is not a UUID never reaches an API path (no ../ into another route).
    await viewer.goto(`${baseUrl}/console/#/guides/..%2Fwebhook-endpoints`);
    await viewer.getByRole('heading', { name: 'There is no such page' }).waitFor();
    await viewer.context().close();
  });
});
