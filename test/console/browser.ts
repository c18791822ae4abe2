// A real browser against a listening service, for the console's browser tests: Debian's Chromium driven
// by playwright-core. A missing Chromium fails the tests (CI installs it); nothing is skipped.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { freePort } from '../support/processes.js';
import { startTestService, type TestService } from '../support/service.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { mailedLinkToken, requestLink } from './sessions.js';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = join(import.meta.dirname, '../../docs/screenshots');
const CONSOLE_ASSETS = join(import.meta.dirname, '../../src/console/assets');

// Without the background-networking switches Chromium keeps calling home, which a closed network refuses.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The widths every console rule is checked at, with the suffix of their screenshots. */
export const WIDTHS = [
  { label: 'desktop', suffix: '', viewport: { width: 1280, height: 860 } },
  { label: 'phone', suffix: '-phone', viewport: { width: 375, height: 812 } },
] as const;

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The console's browser tests need Chromium at ${CHROMIUM}: apt-get install chromium (.ci/run installs it)`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A service listening on loopback, whose PUBLIC_URL (and so its sign-in links) is its real address. */
export async function startListeningService(env: Record<string, string> = {}): Promise<{ t: TestService; baseUrl: string }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await startTestService({ PUBLIC_URL: baseUrl, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0', ...env });
  await t.service.app.listen({ port, host: '127.0.0.1' });
  await warmConsole(baseUrl);
  return { t, baseUrl };
}

/** A browser and a listening service for the test file: started before its tests, each told to `use`, closed after. */
export function useBrowserAndService(use: (world: { browser: Browser; t: TestService; baseUrl: string }) => void, env: Record<string, string> = {}): void {
  let browser: Browser | undefined;
  let t: TestService | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
    const service = await startListeningService(env);
    t = service.t;
    use({ browser, ...service });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
}

/**
 * Asks once for every console module, so that the service (run from source) has compiled them all before
 * a browser loads the console: a first page.goto on a loaded machine otherwise waits for the TypeScript
 * compiler to load and compile each module in turn, past its time-out.
 */
async function warmConsole(baseUrl: string): Promise<void> {
  const modules = readdirSync(CONSOLE_ASSETS).filter((name) => name.endsWith('.ts'));
  await Promise.all(
    modules.map(async (name) => {
      const response = await fetch(`${baseUrl}/console/assets/${name.replace(/\.ts$/, '.js')}`);
      expect(response.status, name).toBe(200);
      await response.arrayBuffer();
    }),
  );
}

export interface ConsoleWorld {
  browser: Browser;
  t: TestService;
  baseUrl: string;
  /** A webhook receiver on loopback for the world's endpoints. */
  receiver: Receiver;
  close(): Promise<void>;
}

/** Chromium, a listening service and a receiver, for a file of browser tests about webhooks. */
export async function startConsoleWorld(env: Record<string, string> = {}): Promise<ConsoleWorld> {
  const browser = await launchChromium();
  const { t, baseUrl } = await startListeningService(env);
  const receiver = await startReceiver();
  return {
    browser,
    t,
    baseUrl,
    receiver,
    close: async () => {
      await browser.close();
      await receiver.close();
      await t.close();
    },
  };
}

/** Signs `email` in, in this page, by the link mailed to them (asked for through the sign-in API); answers once signed in. */
export async function signInByLink(page: Page, t: TestService, baseUrl: string, email: string): Promise<void> {
  expect((await requestLink(t, email)).statusCode).toBe(202);
  await page.goto(`${baseUrl}/console/#/sign-in/${await mailedLinkToken(t, email)}`);
  // Signed in once the console has left the link's address for its first page: until then a test's own
  // navigation would race the console's (which would win, and the test would wait for the wrong page).
  // (A function, not a string: the console's CSP forbids the eval a string predicate needs.)
  await page.waitForFunction(() => !(globalThis as unknown as { location: { hash: string } }).location.hash.startsWith('#/sign-in'));
}

/** A page that fails the test on any script error or failed request of the console. */
export async function consolePage(browser: Browser, viewport = { width: 1280, height: 860 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  return page;
}

/** Saves the whole page as docs/screenshots/<name>.png; only what the window shows with `{ fullPage: false }` (a long reference page). */
export async function screenshot(page: Page, name: string, options = { fullPage: true }): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: options.fullPage });
}

/** The text of the alert the console shows, once one shows. */
export async function alertText(page: Page): Promise<string> {
  const alert = page.getByRole('alert').first();
  await alert.waitFor();
  const text = await alert.innerText();
  expect(text.length).toBeGreaterThan(0);
  return text;
}

export interface HeldReceiver {
  url: string;
  /** Resolves when the first request has come in (and is being held). */
  arrived: Promise<void>;
  /** Answers 200 to what is held and to everything after. */
  release(): void;
  close(): Promise<void>;
}

/** A webhook receiver that holds every request until released: deliveries stay in flight meanwhile. */
export async function startHeldReceiver(): Promise<HeldReceiver> {
  const held = new Set<ServerResponse>();
  let released = false;
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const answer = (response: ServerResponse) => response.writeHead(200).end();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (released) return answer(response);
      held.add(response);
      arrive();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/held`,
    arrived,
    release() {
      released = true;
      for (const response of held) answer(response);
      held.clear();
    },
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
