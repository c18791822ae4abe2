// The pause e-mail goes out through SMTP when SMTP_URL is set, and stays in the outbox either way
// (decisions §1, §6); a committed event wakes the worker instead of waiting for its next poll, and a
// commit that leaves the upkeep work (a coalescing window, mail) wakes the upkeep, in any process.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainContext } from '../../src/domain/context.js';
import { createGuide as createGuideRow, updateGuide } from '../../src/domain/guides/guide-writes.js';
import { requestLink } from '../console/sessions.js';
import { createUser } from '../http/admin/helpers.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { createGuide, soloTeam, startTestService, type TestService } from '../support/service.js';
import { testDatabase, usingPostgres } from '../support/test-database.js';
import { eventually, sleep } from '../support/waiting.js';

interface Mail {
  from: string;
  to: string[];
  data: string;
}

let smtp: SMTPServer;
let smtpPort: number;
const mails: Mail[] = [];
let receiver: Receiver;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('pause e-mail over SMTP (decisions §1, §6)', () => {
  let t: TestService;
  afterAll(() => t.close());

  it('is sent once through SMTP_URL to the team admins and listed as sent in GET /mail', async () => {
    t = await startTestService({
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_COALESCE_MS: '0',
      WEBHOOK_RETRY_DELAYS: '50ms,50ms,50ms,50ms,50ms,50ms',
      WEBHOOK_PAUSE_AFTER_MS: '150',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'Guide service <hooks@service.test>',
    });
    receiver.answer = { status: 503 };
    const { team } = await soloTeam(t);
    const admin = await createUser(t, { email: 'admin@team.test' });
    await t.admin('PUT', `/teams/${team.id}/members/${admin.id}`, { role: 'ADMIN' });
    const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: receiver.url, events: ['guide.created'] });
    await createGuide(t, team.id);

    const [sentMail] = await eventually('the pause e-mail to be listed as sent', async () => {
      const list = await t.admin('GET', '/mail');
      return list.length > 0 && list[0].sent_at ? list : null;
    });
    expect(sentMail.to).toEqual(['admin@team.test']);
    expect(sentMail.subject).toContain(receiver.url);
    const delivered = await eventually('the pause e-mail to reach the SMTP server', async () => (mails.length > 0 ? mails : null));
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.from).toBe('hooks@service.test');
    expect(delivered[0]!.to).toEqual(['admin@team.test']);
    expect(delivered[0]!.data).toContain(`Subject: Webhook endpoint paused`);
    expect((await t.admin('GET', `/webhook-endpoints/${endpoint.id}`)).paused_reason).toBe('failing');
  });
});

describe('wake-up (issue: delivery speed)', () => {
  it('an event committed while the worker idles is delivered at once, not at the next poll a minute later', async () => {
    const t = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0' });
    try {
      receiver.answer = { status: 200 };
      receiver.received.length = 0;
      const { team } = await soloTeam(t);
      await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: receiver.url, events: ['guide.created'] });
      await receiver.waitFor(1);
      // Nothing is due now, so the worker sleeps for up to a minute; only the wake-up can bring it back.
      await sleep(300);
      await createGuide(t, team.id);
      const [, created] = await receiver.waitFor(2, 10_000);
      expect(created!.headers['x-service-event']).toBe('guide.created');
    } finally {
      await t.close();
    }
  });
});

describe('which loops a commit wakes', () => {
  it('delivery work wakes the senders alone; a commit that opens a coalescing window wakes the upkeep too', async () => {
    const t = await startTestService({ WEBHOOK_COALESCE_MS: '60000' });
    try {
      const woken: string[] = [];
      const ctx: DomainContext = { ...t.service.ctx, outbox: { wake: () => woken.push('senders and upkeep'), wakeSenders: () => woken.push('senders') } };
      const { team } = await soloTeam(t);
      const guide = await createGuideRow(ctx, { team_id: team.id, title: 'First' });
      await updateGuide(ctx, guide.id, { title: 'Second' }); // opens the guide's window
      await updateGuide(ctx, guide.id, { title: 'Third' }); // joins the open window
      expect(woken).toEqual(['senders', 'senders and upkeep', 'senders']);
    } finally {
      await t.close();
    }
  });

  it.runIf(usingPostgres)('a sign-in link asked for through an API process goes out through a worker process at once, not at its next look a minute later (PostgreSQL)', async () => {
    const database = await testDatabase();
    const shared = { DATABASE_URL: database.env.DATABASE_URL! };
    const api = await startTestService({ ...shared, ROLE: 'api' });
    const worker = await startTestService({ ...shared, ROLE: 'worker', SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: 'console@service.test' });
    try {
      const user = await createUser(api, {});
      // The worker has looked once as it started listening; now only a notification can bring it back.
      await sleep(500);
      expect((await requestLink(api, user.email)).statusCode).toBe(202);
      const mail = await eventually('the sign-in mail to reach the SMTP server', () => mails.find((sent) => sent.to.includes(user.email)) ?? null);
      expect(mail.data).toContain('Subject: Your sign-in link');
    } finally {
      await worker.close();
      await api.close();
      await database.drop();
    }
  });
});
