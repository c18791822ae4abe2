// GET /docs/webhooks: how a receiver checks that a delivery came from this service (spec §5 rule 8, shared
// decisions §9 and §10): both signature headers, which key checks which, the five-minute tolerance, rotation
// with an overlap, and verifiers for Node.js and Python that test/docs/webhook-verifiers.test.ts runs
// against real deliveries. The facts follow src/webhooks/signing.ts and delivery-request.ts.
import { exampleFile } from './example-files.js';
import { PROCESSING_GUIDES } from './reference-guides.js';
import { codeBlock as code, htmlPage } from './reference-page.js';

/** The verifiers the page shows, by the heading they stand under; each a file of docs/examples/. */
export const VERIFIERS = { node: 'verify-webhook.mjs', python: 'verify_webhook.py' } as const;

export function webhooksPage(publicUrl: string): string {
  const admin = `${publicUrl}/admin/v1`;
  return htmlPage(
    'Verifying webhooks',
    `<h1>Verifying webhooks</h1>
<p>Each delivery is a <code>POST</code> of the event as JSON to the endpoint's URL. Anyone who knows that URL can post to it, so
a receiver checks the signature before it trusts a delivery, over the <strong>raw body bytes</strong> as they arrived (a body
parsed and serialized again does not match), and compares in constant time. Every delivery carries two signatures over the
same bytes: the specification's <code>X-Service-Signature</code>, and the <a href="https://www.standardwebhooks.com">Standard
Webhooks</a> headers, which also sign the time of sending. Verify the Standard Webhooks ones: they stop replays.</p>

<h2 id="headers">The signature headers</h2>
<table><thead><tr><th>Header</th><th>Value</th></tr></thead><tbody>
<tr><td><code>X-Service-Signature</code></td><td><code>sha256=</code> and the lowercase hex HMAC-SHA256 of the raw body, keyed with the
UTF-8 bytes of the endpoint's <code>signing_key</code>. It signs no time, so it cannot tell a replay.</td></tr>
<tr><td><code>webhook-id</code></td><td>The event id (<code>id</code> in the body): the same on every attempt, retry and resend. Dedupe on it.</td></tr>
<tr><td><code>webhook-timestamp</code></td><td>When this attempt was sent, in whole seconds since the Unix epoch.</td></tr>
<tr><td><code>webhook-signature</code></td><td><code>v1,</code> and the base64 HMAC-SHA256 of <code>{webhook-id}.{webhook-timestamp}.{raw body}</code>,
keyed with the same key bytes, which the endpoint's <code>standard_webhooks_secret</code> encodes; during a rotation's overlap two of
them, separated by a space (<code>v1,&lt;new&gt; v1,&lt;old&gt;</code>).</td></tr>
</tbody></table>
<p>The other headers: <code>Content-Type: application/json</code>, <code>User-Agent: Service-Webhooks/1</code>,
<code>X-Service-Event</code> (the event's <code>type</code>) and <code>X-Service-Delivery</code> (new for every attempt); and on
every attempt of a test event (a ping, or a test event of any type an admin sent) <code>X-Service-Test: true</code>, which
real events never carry.</p>

<h2 id="keys">The keys</h2>
<p>Each endpoint has one signing key, answered with the endpoint when it is registered and revealed to the admins of its team or
organization (the console's Webhooks page, Actions, Reveal signing key; or the management API) in two forms:</p>
<ul>
<li><code>standard_webhooks_secret</code> (<code>whsec_</code> and the base64 of the key's bytes): the key for
<code>webhook-signature</code>, the form Standard Webhooks libraries and the verifiers below take; they base64-decode what follows
<code>whsec_</code>.</li>
<li><code>signing_key</code> (<code>whsec_…</code>, not base64): the key for <code>X-Service-Signature</code>, whose HMAC its UTF-8 bytes key.</li>
</ul>
<p>Both start with <code>whsec_</code>. Given <code>signing_key</code>, a Standard Webhooks library finds no matching signature; the
verifiers below and the SDK say instead that it looks like the <code>X-Service-Signature</code> key.</p>
${code(`curl -H "Authorization: Bearer $ADMIN" ${admin}/webhook-endpoints/<id>/signing-key
# {"data":{"signing_key":"whsec_…","standard_webhooks_secret":"whsec_…","old_key":null}}`)}
<p>The ping sent when an endpoint is registered may arrive before whoever registered it has stored the key from the answer: a
receiver that refuses what it cannot verify gets it again at the first retry, about ten seconds later, signed with the same key.</p>

<h2 id="replays">Replay protection</h2>
<p>Refuse a delivery whose <code>webhook-timestamp</code> is more than <strong>5 minutes</strong> older or newer than your clock:
a delivery captured on the way could otherwise be posted to you again later, and its signatures would still match. Each
attempt is signed when it leaves, so a retry hours later carries a fresh timestamp and verifies. Keep your clock synchronized
(NTP). Within the five minutes, dedupe on <code>webhook-id</code>: a retry or a resend of an event you handled carries the same id.</p>

<h2 id="rotation">Rotating the key</h2>
${code(`curl -X POST ${admin}/webhook-endpoints/<id>/signing-key/rotate -H "Authorization: Bearer $ADMIN" \\
  -H 'content-type: application/json' -d '{"keep_old_for_hours":24}'
# {"data":{"signing_key":"whsec_…","standard_webhooks_secret":"whsec_…",
#          "old_key":{"signing_key":"whsec_…","standard_webhooks_secret":"whsec_…","ends_at":"…"}}}`)}
<p><code>keep_old_for_hours</code> (0 to 72; the body may be left out) keeps the replaced key signing for that long. During that
window <code>X-Service-Signature</code> stays on the <strong>old</strong> key, so a receiver of it changes keys when it is ready,
and <code>webhook-signature</code> carries both signatures, <code>v1,&lt;new&gt; v1,&lt;old&gt;</code>. When the window ends
(<code>old_key.ends_at</code>) the new key signs both headers. So: give your receiver both keys any time during the window and
accept a delivery that either verifies; after <code>ends_at</code>, only the new one. With 0 (the default) the old key stops at
once, and deliveries that fail verification until your receiver has the new key are retried.</p>

<h2 id="node">Node.js</h2>
<p><code>docs/examples/${VERIFIERS.node}</code>, on <code>node:crypto</code> alone:</p>
${code(exampleFile(VERIFIERS.node))}
${code(`// in a node:http handler, once the whole body is read into rawBody (a Buffer):
const event = verifyWebhook(rawBody, request.headers, [process.env.STANDARD_WEBHOOKS_SECRET]);
// during a rotation's overlap: [newSecret, oldSecret]`)}
<p>The TypeScript SDK (<code>@guide-service/sdk</code>) has the same check as <code>verifyWebhook(rawBody, headers, secrets)</code>, with
typed events and a typed reason for each refusal. <code>examples/receiver.mjs</code> in the service's repository is a whole receiver
on the <code>standardwebhooks</code> package: it also handles each <code>webhook-id</code> once.</p>

<h2 id="python">Python</h2>
<p><code>docs/examples/${VERIFIERS.python}</code>, on the standard library alone (Python 3.9 or later):</p>
${code(exampleFile(VERIFIERS.python))}
${code(`# Flask: the raw bytes are request.get_data(), before request.json
event = verify_webhook(request.get_data(), request.headers, [os.environ["STANDARD_WEBHOOKS_SECRET"]])
# during a rotation's overlap: [new_secret, old_secret]`)}

<h2 id="libraries">Other languages</h2>
<p>Standard Webhooks libraries (JavaScript, Python, Go, Ruby, PHP, Java, Rust, C#, …) verify these headers with the same
five-minute tolerance: give them <code>standard_webhooks_secret</code>. They accept a delivery when any of its signatures
verifies, so one set up with the new key accepts deliveries during the overlap too.</p>

<h2 id="answering">Answering</h2>
<p>Answer any 2xx within 10 seconds once the delivery verifies, and do slow work afterwards; answer 4xx to one that does not (it
is retried, and shows as failed in the Deliveries list). A 429 or 503 with <code>Retry-After</code> puts the next attempt off
that long; 410 pauses the endpoint.</p>

<h2 id="events">Events of guides still processing</h2>
${PROCESSING_GUIDES}`,
    { root: publicUrl },
  );
}
