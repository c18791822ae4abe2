// Issue 14, console item 6, and issue 35 item 2: endpoint health at a glance, in a real browser at desktop
// and at phone width. An endpoint whose attempts fail is not a green "Active"; the home's table of
// endpoints shows each one's state, success rate over the last 24 hours and last delivery; the endpoint's
// page shows its last delivery, success rate, failures in a row, next retry and why it is paused, and
// draws delivered and failed deliveries per hour as an inline SVG chart against a labelled scale, its
// labels readable at phone width. The service's clock (TestClock) is moved so that attempts fall in
// different hours.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuide, type TestService } from '../support/service.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { eventually } from '../support/waiting.js';
import { allAttempts } from '../support/webhooks.js';
import { consolePage, launchChromium, screenshot, signInByLink, startListeningService, WIDTHS } from './browser.js';

const HOUR = 3_600_000;

let browser: Browser;
let t: TestService;
let baseUrl: string;

beforeAll(async () => {
  browser = await launchChromium();
  // Retries an hour apart: a failed attempt's retry stays waiting while the test looks at it.
  ({ t, baseUrl } = await startListeningService({ WEBHOOK_RETRY_DELAYS: '1h,1h', WEBHOOK_TIMEOUT_MS: '2000' }));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Waits until an attempt of the endpoint of this type is sent and recorded, and answers it. */
async function sentOfType(endpointId: string, type: string): Promise<any> {
  return eventually(`a recorded ${type} attempt`, async () =>
    (await allAttempts(t, endpointId)).find((a) => a.event_type === type && (a.status === 'delivered' || a.status === 'failed')),
  );
}

describe.each(WIDTHS)('endpoint health at $label width (issue 14 item 6)', ({ label, suffix, viewport }) => {
  let page: Page;
  let receiver: Receiver;
  const world: Record<string, any> = {};
  const webhooksUrl = () => `${baseUrl}/console/#/team/${world.team.id}/webhooks`;
  const endpointUrl = () => `${webhooksUrl()}/${world.endpoint.id}`;

  beforeAll(async () => {
    receiver = await startReceiver();
    world.team = await t.admin('POST', '/teams', { name: `Field Support ${label}` });
    const email = `health-${label}@example.com`;
    world.user = await t.admin('POST', '/users', { email, name: `Health ${label}` });
    await t.admin('PUT', `/teams/${world.team.id}/members/${world.user.id}`, { role: 'ADMIN' });

    // The ping is delivered; two hours later a guide.created attempt fails, and its retry waits an hour.
    world.endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: world.team.id }, url: `${receiver.url}/${label}`, events: ['guide.created'] });
    world.ping = await sentOfType(world.endpoint.id, 'ping');
    expect(world.ping.status).toBe('delivered');
    t.clock.advance(2 * HOUR);
    receiver.answer = { status: 500 };
    await createGuide(t, world.team.id);
    world.failed = await sentOfType(world.endpoint.id, 'guide.created');
    expect(world.failed.status).toBe('failed');

    page = await consolePage(browser, viewport);
    page.setDefaultTimeout(8000);
    await signInByLink(page, t, baseUrl, email);
    await page.getByRole('heading', { name: /API keys/ }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await page?.context().close();
    await receiver?.close();
  });

  it('an active endpoint whose attempts fail is not a green "Active": it shows its last delivery, success rate over 24 hours, failures in a row and next retry', async () => {
    // In the home's table: its state, success rate and last delivery.
    await page.goto(webhooksUrl());
    const row = page.locator('tbody tr').filter({ has: page.getByRole('link', { name: world.endpoint.url, exact: true }) });
    await row.getByText('Failing: 1 failure in a row').waitFor();
    expect(await row.locator('.badge.ok').count()).toBe(0);
    expect(await row.locator('[data-fact="rate"]').innerText()).toBe('50 % (1 of 2 events delivered)');
    expect(await row.locator('[data-fact="last"]').innerText()).toMatch(/^failed /);
    expect(await row.locator('[data-fact="last"] time').getAttribute('datetime')).toBe(world.failed.sent_at);
    await screenshot(page, `19-endpoint-health${suffix}`);

    // On its page, all four facts.
    await page.goto(endpointUrl());
    const facts = page.getByRole('definition');
    await page.locator('[data-fact="last"] time').waitFor();
    await page.getByText('Failing: 1 failure in a row').waitFor();
    expect(await facts.count()).toBe(4);
    const last = page.locator('[data-fact="last"]');
    expect(await last.innerText()).toContain('failed');
    expect(await last.locator('time').getAttribute('datetime')).toBe(world.failed.sent_at);
    expect(await page.locator('[data-fact="rate"]').innerText()).toBe('50 % (1 of 2 events delivered)');
    expect(await page.locator('[data-fact="failures"]').innerText()).toBe('1');
    expect(world.failed.next_attempt_at).not.toBeNull();
    expect(await page.locator('[data-fact="next-retry"] time').getAttribute('datetime')).toBe(world.failed.next_attempt_at);
  });

  it("draws the endpoint's delivered and failed deliveries per hour over the last 24 hours as an inline SVG chart on its page", async () => {
    await page.goto(webhooksUrl());
    await page.goto(endpointUrl());
    const chart = page.getByRole('img', { name: /Deliveries per hour over the last 24 hours/ });
    await chart.waitFor();
    expect(await chart.getAttribute('aria-label')).toBe('Deliveries per hour over the last 24 hours: 1 delivered, 1 failed');
    // Drawn in the page: an <svg> element, nothing loaded for it.
    expect(await chart.evaluate((element) => [element.tagName, element.namespaceURI])).toEqual(['svg', 'http://www.w3.org/2000/svg']);
    expect(await page.locator('.chart img, .chart object, .chart iframe').count()).toBe(0);

    const health = await t.admin('GET', `/webhook-endpoints/${world.endpoint.id}/health`);
    const hours = chart.locator('g.hour');
    expect(await hours.count()).toBe(24);
    const drawn = await hours.evaluateAll((groups) =>
      groups.map((g) => ({
        start: g.getAttribute('data-start'),
        delivered: Number(g.getAttribute('data-delivered')),
        failed: Number(g.getAttribute('data-failed')),
        deliveredHeight: Number(g.querySelector('rect.delivered')!.getAttribute('height')),
        failedHeight: Number(g.querySelector('rect.failed')!.getAttribute('height')),
        title: g.querySelector('title')!.textContent,
      })),
    );
    expect(drawn.map(({ start, delivered, failed }) => ({ start, delivered, failed }))).toEqual(health.hours);
    const hourOf = (iso: string) => `${iso.slice(0, 13)}:00:00.000Z`;
    const pingHour = drawn.find((hour) => hour.start === hourOf(world.ping.sent_at))!;
    const failedHour = drawn.find((hour) => hour.start === hourOf(world.failed.sent_at))!;
    expect([pingHour.deliveredHeight > 0, pingHour.failedHeight]).toEqual([true, 0]);
    expect([failedHour.deliveredHeight, failedHour.failedHeight > 0]).toEqual([0, true]);
    expect(failedHour.title).toContain('0 delivered, 1 failed');
    expect(drawn.filter((hour) => hour !== pingHour && hour !== failedHour).every((hour) => hour.deliveredHeight === 0 && hour.failedHeight === 0)).toBe(true);

    // It fits the page at this width.
    const box = (await chart.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);

    // A scale: a gridline at each of its values (at most one delivery an hour here: 0 and 1), each labelled.
    const lines = await chart.locator('line[data-value]').evaluateAll((found) => found.map((line) => line.getAttribute('data-value')));
    expect(lines).toEqual(['0', '1']);
    const figure = page.locator('figure.chart');
    expect(await figure.locator('.scale-label').allInnerTexts()).toEqual(['1', '0']);
    // Its labels are readable at this width: text of at least 12 px, inside the page, none over another.
    const labels = await figure.locator('.scale-label, .hours .tick > span').evaluateAll((found) =>
      found
        .map((label) => ({ text: label.textContent, size: parseFloat((globalThis as any).getComputedStyle(label).fontSize), box: label.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number } }))
        .filter((label) => label.box.width > 0),
    );
    expect(labels.length).toBeGreaterThanOrEqual(2 + 3);
    for (const label of labels) {
      expect(label.size, label.text!).toBeGreaterThanOrEqual(12);
      expect(label.box.height, label.text!).toBeGreaterThanOrEqual(12);
      expect(label.box.x, label.text!).toBeGreaterThanOrEqual(0);
      expect(label.box.x + label.box.width, label.text!).toBeLessThanOrEqual(viewport.width);
    }
    const overlap = (a: (typeof labels)[number]['box'], b: (typeof labels)[number]['box']) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    for (const [i, a] of labels.entries()) for (const b of labels.slice(i + 1)) expect(overlap(a.box, b.box), `${a.text} over ${b.text}`).toBe(false);
    await page.getByText('Failing: 1 failure in a row').waitFor();
    await screenshot(page, `20-endpoint-chart${suffix}`);
  });

  it('a paused endpoint says why it is paused and that no retry waits while it is', async () => {
    await t.admin('POST', `/webhook-endpoints/${world.endpoint.id}/pause`);
    await page.goto(webhooksUrl());
    const row = page.locator('tbody tr').filter({ has: page.getByRole('link', { name: world.endpoint.url, exact: true }) });
    await row.getByText('Paused: an admin paused it').waitFor();
    expect(await row.getByText('Failing').count()).toBe(0);
    await page.goto(endpointUrl());
    await page.getByText('Paused: an admin paused it').waitFor();
    await page.locator('[data-fact="next-retry"]').waitFor();
    expect(await page.locator('[data-fact="next-retry"]').innerText()).toBe('None while paused (an admin paused it)');
    expect(await page.locator('[data-fact="failures"]').innerText()).toBe('1');
    expect(await page.getByText('Failing').count()).toBe(0);
  });
});
