// An endpoint's signing key, as Stripe shows one: masked until "Reveal" (each reveal is in the audit log),
// then with a Copy button beside it and the same key as Standard Webhooks libraries take it, and "Hide";
// during a rotation's overlap the replaced key too, folded away, with when it stops signing. The rotation asks how long
// the old key keeps signing (24 hours unless another is chosen).
import { api } from './api.js';
import type { Answer, SigningKey } from './api-types.js';
import { act, confirmAction, copyField, fill, h, time } from './dom.js';

/** What stands for the key while it is hidden: its prefix, and nothing of the secret. */
export const MASKED_KEY = `whsec_${'•'.repeat(16)}`;

/**
 * The revealed key's two forms, each with a Copy button: what a receiver needs now. While a rotation's
 * overlap runs, the replaced key (which the receiver already has) is behind a disclosure that says until
 * when it signs, so that four secrets are never shown at once.
 */
function signingKeyFields(endpointId: string, key: SigningKey): HTMLElement[] {
  const fields = [
    copyField('Signing key (verifies X-Service-Signature)', key.signing_key, `signing-key-${endpointId}`),
    copyField('Standard Webhooks secret (verifies webhook-signature)', key.standard_webhooks_secret, `standard-webhooks-secret-${endpointId}`),
  ];
  if (!key.old_key) return fields;
  return [
    ...fields,
    h(
      'details',
      { class: 'old-key' },
      h('summary', {}, 'The old key still signs until ', time(key.old_key.ends_at)),
      h('p', { class: 'small muted' }, 'Your receiver has it already; keep it there until then. X-Service-Signature is made with it until then, and webhook-signature carries both.'),
      copyField('Old signing key (X-Service-Signature)', key.old_key.signing_key, `old-signing-key-${endpointId}`),
      copyField('Old Standard Webhooks secret (webhook-signature)', key.old_key.standard_webhooks_secret, `old-standard-webhooks-secret-${endpointId}`),
    ),
  ];
}

/** How long a rotation may keep the old key signing (the API takes 0–72 hours). */
const OVERLAPS: readonly [hours: number, label: string][] = [
  [0, 'No: the old key stops at once'],
  [1, '1 hour'],
  [24, '24 hours'],
  [72, '72 hours'],
];

/** Asks how long the old key keeps signing; null when the rotation is cancelled. */
export async function askRotation(): Promise<number | null> {
  const overlap = h(
    'select',
    { id: 'rotation-overlap' },
    OVERLAPS.map(([hours, label]) => h('option', { value: String(hours), selected: hours === 24 }, label)),
  );
  const sure = await confirmAction(
    'Rotate the signing key?',
    'Rotate key',
    [
      h('div', { class: 'field' }, h('label', { for: overlap.id }, 'Keep the old key signing for'), overlap),
      'Meanwhile X-Service-Signature stays on the old key and webhook-signature carries both, so your receiver can move to the new key without a failed delivery. With no overlap, deliveries that fail until it has the new key are retried.',
    ],
    'primary',
  );
  return sure ? Number(overlap.value) : null;
}

export interface SigningKeyPanel {
  element: HTMLElement;
  /** Reads the key and shows it (the reveal is recorded). */
  reveal(): Promise<void>;
  /** Shows a key just answered (by a rotation), under `heading`. */
  show(key: SigningKey, heading?: string): void;
}

export function signingKeyPanel(endpointId: string, errors: HTMLElement): SigningKeyPanel {
  const body = h('div');
  const element = h(
    'section',
    { class: 'card signing-key', 'aria-labelledby': 'signing-key-title' },
    h('h2', { id: 'signing-key-title' }, 'Signing key'),
    h('p', { class: 'muted small' }, 'Check every delivery with this key before trusting it: ', h('a', { href: '/docs/webhooks' }, 'how to verify a signature'), '.'),
    body,
  );

  function hidden(): void {
    const revealButton = h('button', { type: 'button', class: 'secondary small', 'aria-label': 'Reveal the signing key' }, 'Reveal');
    revealButton.addEventListener('click', () => act(revealButton, errors, async () => {
      await panel.reveal();
      body.querySelector('input')?.focus();
    }));
    fill(body, h('div', { class: 'row wrap' }, h('span', { class: 'visually-hidden' }, 'Signing key, hidden:'), h('code', { class: 'masked-key' }, MASKED_KEY), revealButton));
  }

  function shown(key: SigningKey, heading?: string): void {
    const hide = h('button', { type: 'button', class: 'secondary small' }, 'Hide');
    hide.addEventListener('click', () => {
      hidden();
      body.querySelector('button')?.focus();
    });
    fill(body, heading && h('p', {}, heading), signingKeyFields(endpointId, key), hide);
  }

  const panel: SigningKeyPanel = {
    element,
    async reveal() {
      shown((await api.get<Answer<SigningKey>>(`/webhook-endpoints/${endpointId}/signing-key`)).data);
    },
    show: shown,
  };
  hidden();
  return panel;
}
