// The pages a person reads outside the console (issue 44, item 5): a page for addresses nothing is at and
// for `/`, the reference's search finding words of its text, and a Copy button on every code block; each
// without a serious or critical axe violation at desktop and phone widths, none scrolling sideways.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../console/axe.js';
import { consolePage, screenshot, useBrowserAndService } from '../console/browser.js';

let browser: Browser;
let baseUrl: string;
useBrowserAndService((world) => ({ browser, baseUrl } = world));

const scrollsSideways = (page: Page) => page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');

/** The entries "In the text" lists now: each link's text and the words shown around what was found. */
const textMatches = (page: Page) =>
  page.evaluate<{ label: string; around: string; href: string }[]>(
    "[...document.querySelectorAll('#text-matches li')].map((li) => ({ label: li.querySelector('a').textContent, around: li.querySelector('.around').textContent, href: li.querySelector('a').getAttribute('href') }))",
  );

describe.each([
  { label: 'desktop', viewport: { width: 1280, height: 860 } },
  { label: 'phone', viewport: { width: 390, height: 844 } },
])('at $label width', ({ label, viewport }) => {
  const suffix = label === 'phone' ? '-phone' : '';
  let page: Page;
  beforeAll(async () => {
    page = await consolePage(browser, viewport);
    page.setDefaultTimeout(8000);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('an address nothing is at, under /docs, /console/ or the root, shows a page that leads to the reference and the console', async () => {
    for (const path of ['/docs/nope', '/console/nope', '/nope']) {
      const answer = await page.goto(`${baseUrl}${path}`);
      expect(answer!.status(), path).toBe(404);
      expect(await page.title(), path).toBe('Page not found · Guide service');
      await page.getByRole('heading', { name: 'There is no such page', level: 1 }).waitFor();
      expect(await page.evaluate<string>('document.documentElement.lang')).toBe('en');
      await expectAccessible(page, `${path} at ${label} width`);
      expect(await scrollsSideways(page), `${path} scrolls sideways at ${label} width`).toBe(false);
    }
    await screenshot(page, `32-not-found${suffix}`);
    await page.getByRole('main').getByRole('link', { name: 'API reference' }).click();
    await page.waitForURL(`${baseUrl}/docs`);
    await page.goto(`${baseUrl}/nope`);
    await page.getByRole('main').getByRole('link', { name: 'Console' }).click();
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
  });

  it('/ shows what the service is and where to go', async () => {
    const answer = await page.goto(`${baseUrl}/`);
    expect(answer!.status()).toBe(200);
    await page.getByRole('heading', { name: 'Guide service', level: 1 }).waitFor();
    for (const name of ['API reference', 'Verifying webhooks', 'Console']) await page.getByRole('main').getByRole('link', { name }).waitFor();
    await expectAccessible(page, `/ at ${label} width`);
    expect(await scrollsSideways(page)).toBe(false);
  });

  it('the search finds words of the text: an error code, "signature", "retry", with the words around them', async () => {
    await page.goto(`${baseUrl}/docs`);
    const search = page.getByLabel('Search the contents and the text');
    await search.fill('cursor_expired');
    await page.getByRole('status').filter({ hasText: /^Found .*in the text$/ }).waitFor();
    const expired = await textMatches(page);
    expect(expired.map((match) => match.label)).toContain('Errors');
    for (const match of expired) expect(match.around.toLowerCase(), match.label).toContain('cursor_expired');
    await expectAccessible(page, `/docs searching at ${label} width`);
    await screenshot(page, `33-docs-search${suffix}`, { fullPage: false });
    expect(await scrollsSideways(page)).toBe(false);

    for (const word of ['signature', 'retry']) {
      await search.fill(word);
      await expect.poll(async () => (await textMatches(page)).length, { message: word }).toBeGreaterThan(0);
      for (const match of await textMatches(page)) expect(match.around.toLowerCase(), `${word}: ${match.label}`).toContain(word);
    }

    // A found entry leads to its part of the page.
    await search.fill('cursor_expired');
    await page.locator('#text-matches a', { hasText: 'Errors' }).click();
    await page.waitForURL(/#errors$/);

    await search.fill('no such words anywhere');
    await page.getByRole('status').filter({ hasText: 'No matches' }).waitFor();
    expect(await textMatches(page)).toEqual([]);
  });

  it('every code block has a Copy button that copies it as shown and says so', async () => {
    for (const path of ['/docs', '/docs/webhooks']) {
      await page.goto(`${baseUrl}${path}`);
      const blocks = await page.locator('main pre').count();
      expect(blocks, path).toBeGreaterThan(0);
      expect(await page.getByRole('button', { name: 'Copy' }).count(), path).toBe(blocks);
    }
    const second = page.locator('main pre').nth(1);
    const shown = await second.textContent();
    await page.getByRole('button', { name: 'Copy' }).nth(1).click();
    await page.getByRole('status').filter({ hasText: /^Copied \d+ lines?$/ }).waitFor({ state: 'attached' });
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(shown);
    const box = await page.getByRole('button', { name: 'Copy' }).first().boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(24);
    expect(box!.width).toBeGreaterThanOrEqual(24);
    await expectAccessible(page, `/docs/webhooks with Copy buttons at ${label} width`);
  });
});
