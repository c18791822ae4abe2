// The verifiers /docs/webhooks shows (docs/examples/, issue 34), run on real deliveries of a running service:
// each accepts a delivery signed with the endpoint's standard_webhooks_secret and one made during a
// rotation's overlap given both keys, and refuses a changed body, a key that did not sign, and a delivery
// signed correctly but sent more than five minutes from now (a replay); given signing_key (the
// X-Service-Signature key) instead, it says so in words. The Python one runs in python3,
// which CI installs (.ci/run): without it this test fails rather than skips. The page shows both files as
// they are, so that what runs here is what readers copy.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFIERS } from '../../src/http/docs/webhooks-page.js';
import { projectRoot } from '../support/build.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { createGuide, soloTeam, useTestService } from '../support/service.js';

const EXAMPLES = join(projectRoot, 'docs/examples');
const t = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_COALESCE_MS: '0' });

interface Delivery {
  body: string;
  headers: Record<string, string>;
}

interface Case {
  name: string;
  delivery: Delivery;
  secrets: string[];
  /** The event id the verifier answers, or null when it must refuse. */
  accepts: string | null;
  /** What its refusal must say. */
  says?: string;
}

/** What a verifier answered for a case: the event's id, or null and why it refused. */
interface Answer {
  name: string;
  accepts: string | null;
  refusal?: string;
}

/** The headers as a receiver got them, strings only. */
const received = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])));

/** The delivery signed again for another `webhook-timestamp`, correctly, with `secret` (as the service signs). */
function sentAt(delivery: Delivery, secret: string, seconds: number): Delivery {
  const id = delivery.headers['webhook-id']!;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${seconds}.${delivery.body}`).digest('base64');
  return { body: delivery.body, headers: { ...delivery.headers, 'webhook-timestamp': String(seconds), 'webhook-signature': `v1,${signature}` } };
}

let receiver: Receiver;
let cases: Case[];

beforeAll(async () => {
  receiver = await startReceiver();
  const { team } = await soloTeam(t);
  const endpoint = await t.admin('POST', '/webhook-endpoints', { home: { type: 'team', id: team.id }, url: receiver.url, events: ['guide.created'] });
  await receiver.waitFor(1); // its ping
  const before = await t.admin('GET', `/webhook-endpoints/${endpoint.id}/signing-key`);
  await createGuide(t, team.id, { title: 'Signed by one key' });
  const normal = (await receiver.waitFor(2))[1]!;
  const rotated = await t.admin('POST', `/webhook-endpoints/${endpoint.id}/signing-key/rotate`, { keep_old_for_hours: 24 });
  await createGuide(t, team.id, { title: 'Signed by both keys' });
  const overlapping = (await receiver.waitFor(3))[2]!;
  expect(String(overlapping.headers['webhook-signature']).split(' ')).toHaveLength(2);
  expect(rotated.old_key.standard_webhooks_secret).toBe(before.standard_webhooks_secret);

  const one = { body: normal.body, headers: received(normal.headers) };
  const both = { body: overlapping.body, headers: received(overlapping.headers) };
  const oldSecret = before.standard_webhooks_secret as string;
  const newSecret = rotated.standard_webhooks_secret as string;
  const now = Math.floor(Date.now() / 1000);
  const oneId = JSON.parse(one.body).id as string;
  const bothId = JSON.parse(both.body).id as string;
  cases = [
    { name: 'a delivery, with its key', delivery: one, secrets: [oldSecret], accepts: oneId },
    { name: 'a delivery in the overlap, with both keys', delivery: both, secrets: [newSecret, oldSecret], accepts: bothId },
    { name: 'a delivery in the overlap, with the new key', delivery: both, secrets: [newSecret], accepts: bothId },
    { name: 'a delivery in the overlap, with the old key', delivery: both, secrets: [oldSecret], accepts: bothId },
    { name: 'a delivery signed before the rotation, with the new key only', delivery: one, secrets: [newSecret], accepts: null },
    { name: 'a changed body', delivery: { ...both, body: both.body.replace('Signed by both keys', 'Signed by both keys!') }, secrets: [newSecret, oldSecret], accepts: null },
    { name: 'a delivery signed again now (the control)', delivery: sentAt(one, oldSecret, now), secrets: [oldSecret], accepts: oneId },
    { name: 'a delivery sent six minutes ago', delivery: sentAt(one, oldSecret, now - 6 * 60), secrets: [oldSecret], accepts: null },
    { name: 'a delivery sent six minutes ahead', delivery: sentAt(one, oldSecret, now + 6 * 60), secrets: [oldSecret], accepts: null },
    {
      name: 'a delivery, given signing_key instead of standard_webhooks_secret',
      delivery: one,
      secrets: [before.signing_key],
      accepts: null,
      says: 'this looks like the X-Service-Signature key (signing_key); Standard Webhooks needs standard_webhooks_secret (whsec_…)',
    },
    {
      name: 'a delivery in the overlap, given the new secret and the old signing_key',
      delivery: both,
      secrets: [newSecret, before.signing_key],
      accepts: null,
      says: 'this looks like the X-Service-Signature key (signing_key)',
    },
    {
      name: 'a delivery with X-Service-Signature alone',
      delivery: { body: one.body, headers: { 'content-type': 'application/json', 'x-service-signature': one.headers['x-service-signature']! } },
      secrets: [oldSecret],
      accepts: null,
    },
  ];
});

afterAll(() => receiver?.close());

/** Checks what a verifier answered for each case: the event's id, or null for a refusal that says what the case asks. */
function expectAnswers(answers: Answer[]): void {
  expect(answers.map(({ name, accepts }) => ({ name, accepts }))).toEqual(cases.map((c) => ({ name: c.name, accepts: c.accepts })));
  for (const [index, c] of cases.entries()) if (c.says) expect(answers[index]!.refusal, c.name).toContain(c.says);
}

describe('the webhook verifiers of /docs/webhooks', () => {
  it('the page shows each verifier file as it is', async () => {
    const page = (await t.service.app.inject({ url: '/docs/webhooks' })).body;
    const blocks = [...page.matchAll(/<pre[^>]*><code>([\s\S]*?)<\/code><\/pre>/g)].map((match) =>
      match[1]!.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&'),
    );
    for (const file of Object.values(VERIFIERS)) expect(blocks, file).toContain(readFileSync(join(EXAMPLES, file), 'utf8'));
  });

  it(`Node.js (${VERIFIERS.node}): accepts real deliveries, during an overlap with both keys; refuses a changed body, a wrong key and a replay; says when given signing_key, the X-Service-Signature key`, async () => {
    const { verifyWebhook } = await import(pathToFileURL(join(EXAMPLES, VERIFIERS.node)).href);
    const answers = cases.map((c): Answer => {
      try {
        return { name: c.name, accepts: verifyWebhook(Buffer.from(c.delivery.body), c.delivery.headers, c.secrets).id as string };
      } catch (error) {
        return { name: c.name, accepts: null, refusal: (error as Error).message };
      }
    });
    expectAnswers(answers);
  });

  it(`Python (${VERIFIERS.python}): the same, in python3 with the standard library`, async () => {
    expectAnswers(await runPython(cases));
  });
});

/** Feeds the cases to verify_webhook in python3; answers the event id it returned for each, or null and the message where it raised ValueError. */
const PYTHON_DRIVER = `
import json, sys
sys.path.insert(0, sys.argv[1])
from verify_webhook import verify_webhook
answers = []
for case in json.load(sys.stdin):
    try:
        answers.append({"name": case["name"], "accepts": verify_webhook(case["delivery"]["body"].encode(), case["delivery"]["headers"], case["secrets"])["id"]})
    except ValueError as error:
        answers.append({"name": case["name"], "accepts": None, "refusal": str(error)})
print(json.dumps(answers))
`;

function runPython(input: Case[]): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    // -B: no __pycache__ left in docs/examples/.
    const child = spawn('python3', ['-B', '-c', PYTHON_DRIVER, EXAMPLES], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', (error) => reject(new Error(`python3 could not start (CI installs it: .ci/run): ${error.message}`)));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`python3 exited with ${code}:\n${err}`))));
    child.stdin.end(JSON.stringify(input));
  });
}
