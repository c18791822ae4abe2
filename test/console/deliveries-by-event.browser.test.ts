// Issue 14, console item 7, and issue 35 item 1: the Deliveries list grouped by event, in a real browser at
// desktop and at phone width. One row per event with its attempts folded under it, saying in words and
// numbers what became of it ("Failed · 500 · retry 1 of 2 at 19:46", "Delivered · 200 · 12 ms", "Missed
// (endpoint paused)") and, in one time column, when it was delivered or failed; only the newest retry is
// shown (a later attempt supersedes an earlier one's); a missed attempt shows no (future) time; "Send
// again" is not offered while the endpoint is paused; filters by status, event type and time range, and a
// search by event id. Issue 42: an attempt cancelled because its event was delivered by another says so
// in words ("cancelled · delivered by a later attempt"), and test events (the ping) are labelled "Test".
// The service's clock (TestClock) is moved instead of waiting for retries.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuide, type TestService } from '../support/service.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { eventually } from '../support/waiting.js';
import { allAttempts, attemptsOf } from '../support/webhooks.js';
import { consolePage, launchChromium, screenshot, signInByLink, startListeningService, WIDTHS } from './browser.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let browser: Browser;
let t: TestService;
let baseUrl: string;

beforeAll(async () => {
  browser = await launchChromium();
  ({ t, baseUrl } = await startListeningService({ WEBHOOK_RETRY_DELAYS: '1h,1h', WEBHOOK_TIMEOUT_MS: '2000' }));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe.each(WIDTHS)('the Deliveries list by event at $label width (issue 14 item 7)', ({ label, suffix, viewport }) => {
  let page: Page;
  let receiver: Receiver;
  const world: Record<string, any> = {};
  const listUrl = (query = '') => `${baseUrl}/console/#/team/${world.team.id}/webhooks/${world.endpoint.id}${query}`;
  const row = (eventId: string) => page.locator('tbody tr').filter({ has: page.locator(`code[title="${eventId}"]`) });

  /** Waits until the event has `n` attempts and the n-th is `status`. */
  async function attemptN(n: number, status: string): Promise<any[]> {
    return eventually(`attempt ${n} of the guide.created event to be ${status}`, async () => {
      const attempts = await attemptsOf(t, world.endpoint.id, world.eventId);
      return attempts.length === n && attempts[n - 1].status === status ? attempts : undefined;
    });
  }

  beforeAll(async () => {
    receiver = await startReceiver();
    world.team = await t.admin('POST', '/teams', { name: `Deliveries ${label}` });
    const email = `deliveries-${label}@example.com`;
    world.user = await t.admin('POST', '/users', { email, name: `Deliveries ${label}` });
    await t.admin('PUT', `/teams/${world.team.id}/members/${world.user.id}`, { role: 'ADMIN' });
    world.endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: world.team.id }, url: `${receiver.url}/${label}`, events: ['guide.created'] });
    world.ping = await eventually('the ping to be delivered', async () => (await allAttempts(t, world.endpoint.id)).find((a) => a.event_type === 'ping' && a.status === 'delivered'));
    // An hour later a guide.created fails; its retry waits an hour.
    t.clock.advance(HOUR);
    receiver.answer = { status: 500 };
    await createGuide(t, world.team.id);
    world.eventId = await eventually('the guide.created event', async () => (await allAttempts(t, world.endpoint.id)).find((a) => a.event_type === 'guide.created')?.event_id);
    await attemptN(2, 'scheduled');

    page = await consolePage(browser, viewport);
    page.setDefaultTimeout(8000);
    await signInByLink(page, t, baseUrl, email);
    await page.getByRole('heading', { name: /API keys/ }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await page?.context().close();
    await receiver?.close();
  });

  it("shows one row per event with its attempts folded under it, saying its outcome in words and numbers with one time, and clears an attempt's retry once a later attempt supersedes it", async () => {
    await page.goto(listUrl());
    await row(world.eventId).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(2);
    expect(await page.locator('thead th').allInnerTexts()).toEqual(['Event', 'Type', 'Outcome', 'Attempts', 'When', '']);
    let attempts = await attemptN(2, 'scheduled');
    // The first attempt failed with 500 and its retry waits: the row says so (not "scheduled"), with the
    // retry's time in its words and the failure's time in the one time column.
    const outcome = () => row(world.eventId).locator('[data-outcome]');
    const when = () => row(world.eventId).locator('td[data-label="When"] time');
    expect(await outcome().innerText()).toMatch(/^Failed · 500 · retry 1 of 2 at .*\d:\d\d/);
    expect(await outcome().locator('.badge').innerText()).toBe('Failed');
    expect(await outcome().locator('.badge.scheduled').count()).toBe(0);
    expect(await outcome().locator('time').getAttribute('datetime')).toBe(attempts[1].due_at);
    expect(attempts[0].next_attempt_at).toBe(attempts[1].due_at);
    expect(await when().getAttribute('datetime')).toBe(attempts[0].sent_at);
    expect(await row(world.ping.event_id).locator('[data-outcome]').innerText()).toMatch(/^Delivered · 200 · \d+ ms$/);
    expect(await row(world.ping.event_id).locator('td[data-label="When"] time').getAttribute('datetime')).toBe(world.ping.sent_at);

    // The retry is sent and fails too: the event shows the third attempt's time, not the second's.
    t.clock.advance(HOUR + MINUTE);
    t.service.ctx.outbox.wake();
    attempts = await attemptN(3, 'scheduled');
    expect(attempts[1].next_attempt_at).not.toBeNull();
    await page.reload();
    const fold = row(world.eventId).locator('details.attempts');
    await fold.locator('summary').click();
    const items = fold.locator('li.attempt');
    expect(await items.count()).toBe(3);
    expect(await items.nth(0).innerText()).toContain('Attempt 1');
    expect(await items.nth(1).innerText()).toContain('failed');
    expect(await outcome().innerText()).toMatch(/^Failed · 500 · retry 2 of 2 at /);
    expect(await outcome().locator('time').getAttribute('datetime')).toBe(attempts[2].due_at);
    expect(await when().getAttribute('datetime')).toBe(attempts[1].sent_at);
    // No superseded retry time is shown anywhere in the list.
    const shown = await page.locator('tbody time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime')));
    expect(shown).not.toContain(attempts[0].next_attempt_at);
    await screenshot(page, `21-deliveries-by-event${suffix}`);

    // The last attempt fails, with no retry after it: the row says the retries are used up.
    t.clock.advance(HOUR + MINUTE);
    t.service.ctx.outbox.wake();
    attempts = await attemptN(3, 'failed');
    expect(attempts[2].next_attempt_at).toBeNull();
    await page.reload();
    await row(world.eventId).locator('.badge.latest.failed').waitFor();
    expect(await outcome().innerText()).toBe('Failed · 500 · all 2 retries used');
    expect(await when().getAttribute('datetime')).toBe(attempts[2].sent_at);
  });

  it('filters by status, event type and time range, and finds an event by its id', async () => {
    await page.goto(listUrl());
    await row(world.eventId).waitFor();
    // The form opens from "Filter"; a type applies as soon as it is picked, and shows as a chip.
    const openFilters = () => page.locator('.filter-chooser > summary').click();
    await openFilters();
    await page.getByLabel('Event type', { exact: true }).selectOption('ping');
    await eventually('only the ping', async () => ((await page.locator('tbody tr').count()) === 1 && (await row(world.ping.event_id).count()) === 1 ? true : undefined));
    expect(page.url()).toContain('event_type=ping');
    const chip = page.getByRole('list', { name: 'Filters in use' }).getByRole('button');
    expect(await chip.innerText()).toContain('Event type: ping');
    expect(await chip.getAttribute('aria-label')).toBeNull();
    await chip.click();
    await eventually('every event again', async () => ((await page.locator('tbody tr').count()) === 2 ? true : undefined));
    expect(page.url()).not.toContain('event_type');

    await page.goto(listUrl('?status=failed'));
    await row(world.eventId).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    await openFilters();
    expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('failed');

    // A time range, in the reader's local time: from the minute the guide.created event was written.
    const first = (await attemptsOf(t, world.endpoint.id, world.eventId))[0];
    const localMinute = await page.evaluate((iso: string) => {
      const d = new Date(iso);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    }, first.created_at);
    await page.goto(listUrl());
    await row(world.eventId).waitFor();
    await openFilters();
    await page.getByLabel('From', { exact: true }).fill(localMinute);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await eventually('only the guide.created event', async () => ((await page.locator('tbody tr').count()) === 1 && (await row(world.eventId).count()) === 1 ? true : undefined));
    await openFilters();
    await page.getByLabel('From', { exact: true }).fill('');
    await page.getByLabel('To', { exact: true }).fill(localMinute);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await eventually('only the ping', async () => ((await page.locator('tbody tr').count()) === 1 && (await row(world.ping.event_id).count()) === 1 ? true : undefined));

    // By event id: the short id the list shows finds the event, as does the whole id; anything else is
    // refused beside the field.
    await page.goto(listUrl());
    await row(world.eventId).waitFor();
    const shortId = await row(world.eventId).locator('td[data-label="Event"] code').innerText();
    expect(shortId).toBe(world.eventId.slice(0, 8));
    await openFilters();
    const search = page.getByLabel('Event id', { exact: true });
    await search.fill('not an id');
    await search.press('Enter');
    const message = page.locator('.field-error');
    await message.waitFor();
    expect(await message.innerText()).toContain('must be an event id');
    expect(await search.getAttribute('aria-invalid')).toBe('true');
    await search.fill(shortId);
    await search.press('Enter');
    await eventually('only the searched event', async () => ((await page.locator('tbody tr').count()) === 1 && (await row(world.eventId).count()) === 1 ? true : undefined));
    expect(await page.getByRole('list', { name: 'Filters in use' }).innerText()).toContain(`Event: ${shortId}`);
    await page.goto(listUrl(`?event_id=${world.eventId}`));
    await eventually('the event by its whole id', async () => ((await page.locator('tbody tr').count()) === 1 && (await row(world.eventId).count()) === 1 ? true : undefined));
    await page.getByRole('link', { name: 'Clear filters' }).waitFor();
    await screenshot(page, `22-deliveries-filtered${suffix}`);
  });

  it('offers no "Send again" while the endpoint is paused, and shows a missed attempt without a future time', async () => {
    // A new event fails; its retry is due in an hour. Pausing marks that retry missed: it keeps its due time.
    await createGuide(t, world.team.id, { title: 'Second guide' });
    // Three failures in a row opened the endpoint's breaker: its next attempt waits (decisions, "The breaker").
    t.clock.advance(HOUR);
    t.service.ctx.outbox.wake();
    const second = await eventually('the second guide.created retry', async () => {
      const attempts = (await allAttempts(t, world.endpoint.id)).filter((a) => a.event_type === 'guide.created' && a.event_id !== world.eventId);
      return attempts.length === 2 && attempts.some((a) => a.status === 'scheduled') ? attempts : undefined;
    });
    await t.admin('POST', `/webhook-endpoints/${world.endpoint.id}/pause`);
    const missed = (await attemptsOf(t, world.endpoint.id, second[0].event_id))[1];
    expect(missed.status).toBe('missed');
    expect(Date.parse(missed.due_at)).toBeGreaterThan(t.clock.now().getTime());

    await page.goto(listUrl());
    const secondRow = row(missed.event_id);
    await secondRow.waitFor();
    // A banner says it is paused, by an admin, and offers to resume it.
    const banner = page.getByRole('region', { name: /^Paused/ });
    await banner.waitFor();
    expect(await banner.innerText()).toContain('An admin paused it.');
    await banner.getByRole('button', { name: 'Resume…' }).waitFor();
    expect(await page.getByRole('button', { name: /^Send again/ }).count()).toBe(0);
    expect(await secondRow.locator('[data-outcome]').innerText()).toBe('Missed (endpoint paused)');
    expect(await secondRow.locator('td[data-label="When"]').innerText()).toBe('not sent');
    await secondRow.locator('details.attempts summary').click();
    const missedItem = secondRow.locator('li.attempt').nth(1);
    expect(await missedItem.innerText()).toContain('not sent');
    expect(await missedItem.locator('time').count()).toBe(0);
    // No time anywhere in the list lies ahead of the service's clock.
    const now = t.clock.now().getTime();
    const shown = await page.locator('tbody time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime')!));
    expect(shown.filter((iso) => Date.parse(iso) > now)).toEqual([]);
    await screenshot(page, `23-deliveries-paused${suffix}`);

    // Resumed, "Send again" is offered again, one per event.
    receiver.answer = { status: 200 };
    await t.admin('POST', `/webhook-endpoints/${world.endpoint.id}/resume`, { redeliver_missed: false });
    await page.reload();
    await secondRow.waitFor();
    expect(await page.getByRole('button', { name: /^Send again/ }).count()).toBe(await page.locator('tbody tr').count());
    world.missed = missed;
  });

  it('says in words that an attempt was cancelled because a later one delivered its event, and labels test events "Test" (issue 42)', async () => {
    // The missed retry of the second event waits no more once the event is sent again by hand and delivered.
    await page.goto(listUrl());
    const secondRow = row(world.missed.event_id);
    await secondRow.waitFor();
    await secondRow.getByRole('button', { name: /^Send again/ }).click();
    await eventually('the second event delivered, its missed retry cancelled', async () => {
      const attempts = await attemptsOf(t, world.endpoint.id, world.missed.event_id);
      return attempts.length === 3 && attempts[1].status === 'cancelled' && attempts[2].status === 'delivered' ? true : undefined;
    });
    await page.reload();
    await secondRow.locator('.badge.latest.delivered').waitFor();
    expect(await secondRow.locator('[data-outcome]').innerText()).toMatch(/^Delivered · 200 · \d+ ms$/);
    await secondRow.locator('details.attempts summary').click();
    const cancelled = secondRow.locator('li.attempt').nth(1);
    expect(await cancelled.innerText()).toMatch(/^Attempt 2 cancelled · delivered by a later attempt · not sent/);
    expect(await cancelled.locator('time').count()).toBe(0);

    // Only the ping is a test event.
    const type = (eventId: string) => row(eventId).locator('td[data-label="Type"]');
    // (At phone width the label wraps under the type.)
    expect((await type(world.ping.event_id).innerText()).replace(/\s+/g, ' ')).toBe('ping Test');
    expect(await type(world.ping.event_id).locator('.badge.test').getAttribute('title')).toContain('X-Service-Test: true');
    expect(await type(world.eventId).innerText()).toBe('guide.created');

    // The status filter takes cancelled: the event shows with its cancelled attempt, in words.
    await page.goto(listUrl('?status=cancelled'));
    await secondRow.waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(await secondRow.locator('[data-outcome]').innerText()).toBe('Cancelled · delivered by a later attempt');
    expect(await secondRow.locator('td[data-label="When"]').innerText()).toBe('not sent');
  });

  it('recovers the deliveries that failed since a time from the Actions menu: the event whose retries were used up is sent again (issue 42)', async () => {
    await page.goto(listUrl());
    await row(world.eventId).locator('.badge.latest.failed').waitFor();
    const menu = page.locator('.menu').first();
    await menu.locator('summary').click();
    await menu.locator('.menu-items button', { hasText: 'Recover failed deliveries since…' }).click();
    const dialog = page.getByRole('dialog');
    // It offers the last day, in the reader's local time.
    expect(await dialog.getByLabel('Failed since').inputValue()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
    await dialog.getByRole('button', { name: 'Recover' }).click();
    await page.getByRole('status').filter({ hasText: '1 event is being sent again, oldest first.' }).waitFor();
    const attempts = await eventually('the recovered attempt delivered', async () => {
      const list = await attemptsOf(t, world.endpoint.id, world.eventId);
      return list.length === 4 && list[3].status === 'delivered' ? list : undefined;
    });
    expect(attempts[3].attempt_number).toBe(4);
    await page.reload();
    await row(world.eventId).locator('.badge.latest.delivered').waitFor();
  });
});
