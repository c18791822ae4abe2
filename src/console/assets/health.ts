// An endpoint's health at a glance (GET /webhook-endpoints/{id}/health): a badge that tells an active
// endpoint that keeps failing from a healthy one, the facts (last delivery, or "Sending…" while one is on
// its way; success rate over the last 24 hours, failures in a row, next retry), and deliveries per hour
// drawn as an inline SVG bar chart with a labelled scale, its labels in HTML so that they stay readable
// however narrow the chart is drawn.
import { api, query } from './api.js';
import type { Answer, Attempt, Endpoint, EndpointHealth, Page, PausedReason } from './api-types.js';
import { act, type Child, h, time } from './dom.js';

export const PAUSE_REASONS: Record<PausedReason, string> = {
  gone: 'the receiver answered 410 Gone',
  failing: 'nothing but failures for about a day',
  manual: 'an admin paused it',
};

/**
 * Paused (and why); or active, and then green only if its last attempt did not fail: an active endpoint
 * whose attempts keep failing says "Active" in amber, beside how many failed in a row.
 */
export function statusBadge(endpoint: Endpoint, health: EndpointHealth | null): HTMLElement {
  if (endpoint.status === 'paused') {
    return h('span', { class: 'badge paused' }, endpoint.paused_reason ? `Paused: ${PAUSE_REASONS[endpoint.paused_reason]}` : 'Paused');
  }
  const failures = health?.consecutive_failures ?? 0;
  if (failures === 0) return h('span', { class: 'badge ok' }, 'Active');
  return h(
    'span',
    { class: 'badges' },
    h('span', { class: 'badge warn' }, 'Active'),
    ' ',
    h('span', { class: 'badge failing' }, `Failing: ${failures} ${failures === 1 ? 'failure' : 'failures'} in a row`),
  );
}

/** Why a paused endpoint was paused, and what to do about it, in a sentence each. */
const PAUSED_BECAUSE: Record<PausedReason, string> = {
  gone: 'The receiver answered 410 Gone, which says this URL is gone for good. Check the URL (Actions, Edit…) before you resume it.',
  failing: 'Every attempt failed for about a day. Check that the receiver is up and answers 2xx before you resume it.',
  manual: 'An admin paused it.',
};

/** The banner of a paused endpoint's page: since when, why, what is kept meanwhile, and a Resume button. */
export function pausedBanner(endpoint: Endpoint, resume: () => Promise<void>, errors: HTMLElement): HTMLElement {
  const button = h('button', { type: 'button', class: 'primary', 'data-focus-key': 'resume' }, 'Resume…');
  button.addEventListener('click', () => act(button, errors, resume));
  return h(
    'section',
    { class: 'alert warning paused-banner', 'aria-labelledby': 'paused-title' },
    h('h2', { id: 'paused-title' }, 'Paused ', time(endpoint.paused_at)),
    h('p', {}, endpoint.paused_reason ? PAUSED_BECAUSE[endpoint.paused_reason] : null, ' New events are kept as missed until it is resumed; you choose then whether to redeliver them.'),
    button,
  );
}

function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10} %`;
}

/** An endpoint's health, and whether an attempt is being sent to it now. */
export interface HealthView {
  health: EndpointHealth;
  sending: boolean;
}

export async function loadHealth(endpointId: string): Promise<HealthView> {
  const [health, sending] = await Promise.all([
    api.get<Answer<EndpointHealth>>(`/webhook-endpoints/${endpointId}/health`),
    api.get<Page<Attempt>>(`/webhook-endpoints/${endpointId}/deliveries?${query({ status: 'sending', limit: 1 })}`),
  ]);
  return { health: health.data, sending: sending.data.length > 0 };
}

/** The last delivery in words: "Sending…" while one is on its way (after the last sent, if any). */
export function lastDelivery({ health, sending }: HealthView): Child {
  const last = health.last_attempt;
  const sent = last && [h('strong', { class: `outcome ${last.status}` }, last.status), ' ', time(last.sent_at)];
  if (sending) return [h('strong', { class: 'outcome sending' }, 'Sending…'), sent && [h('span', { class: 'muted' }, ' · before that '), sent]];
  return sent || 'None sent yet';
}

/** The success rate over the last 24 hours, with the events it counts (a retried event delivered in the end is one success). */
export function successRate(health: EndpointHealth): string {
  const sent = health.events_sent;
  return health.success_rate === null ? 'Nothing sent' : `${percent(health.success_rate)} (${health.events_delivered} of ${sent} ${sent === 1 ? 'event' : 'events'} delivered)`;
}

/** The health figures as a list of facts. */
export function healthFacts(endpoint: Endpoint, view: HealthView): HTMLElement {
  const { health } = view;
  return h(
    'dl',
    { class: 'facts health', 'aria-label': `Health of ${endpoint.url}` },
    h('dt', {}, 'Last delivery'),
    h('dd', { 'data-fact': 'last' }, lastDelivery(view)),
    h('dt', {}, 'Success rate, last 24 hours'),
    h('dd', { 'data-fact': 'rate' }, successRate(health)),
    h('dt', {}, 'Failures in a row'),
    h('dd', { 'data-fact': 'failures' }, String(health.consecutive_failures)),
    h('dt', {}, 'Next retry'),
    h(
      'dd',
      { 'data-fact': 'next-retry' },
      endpoint.status === 'paused'
        ? `None while paused (${endpoint.paused_reason ? PAUSE_REASONS[endpoint.paused_reason] : 'paused'})`
        : health.next_retry_at
          ? time(health.next_retry_at)
          : 'None waiting',
    ),
  );
}

const SVG = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>, ...children: (Node | string)[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** Hours as the reader's clock shows them: "14:00". */
function hourLabel(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/** The scale's values, from 0 to at least `top` in even steps of 1, 2 or 5 times a power of ten (at most 5 lines). */
export function scaleSteps(top: number): number[] {
  const raw = Math.max(1, top) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= raw) ?? 10 * power);
  const lines = Math.ceil(Math.max(1, top) / step);
  return Array.from({ length: lines + 1 }, (_, i) => i * step);
}

/**
 * Delivered (bottom) and failed (on top) attempts per hour, oldest hour on the left, against a scale of a
 * few labelled gridlines. Each hour is a group with its own title (the tooltip, and what a screen reader
 * finds); the figure is labelled with totals. The drawing stretches to the width it is given; its labels
 * are HTML beside and under it, so they keep their size.
 */
export function healthChart(health: EndpointHealth): HTMLElement {
  const width = 480;
  const height = 100;
  const slot = width / health.hours.length;
  const steps = scaleSteps(Math.max(...health.hours.map((hour) => hour.delivered + hour.failed)));
  const max = steps[steps.length - 1]!;
  const scale = (n: number) => (n / max) * height;
  const grid = steps.map((value) =>
    svg('line', { class: value === 0 ? 'axis' : 'grid', 'data-value': value, x1: 0, x2: width, y1: height - scale(value), y2: height - scale(value), 'vector-effect': 'non-scaling-stroke' }),
  );
  const bars = health.hours.map((hour, i) => {
    const x = i * slot + 2;
    const w = slot - 4;
    const okHeight = scale(hour.delivered);
    const badHeight = scale(hour.failed);
    return svg(
      'g',
      { class: 'hour', 'data-start': hour.start, 'data-delivered': hour.delivered, 'data-failed': hour.failed },
      svg('title', {}, `${hourLabel(hour.start)}: ${hour.delivered} delivered, ${hour.failed} failed`),
      // A transparent column, so that the whole hour shows its title.
      svg('rect', { class: 'slot', x, y: 0, width: w, height }),
      svg('rect', { class: 'delivered', x, y: height - okHeight, width: w, height: okHeight }),
      svg('rect', { class: 'failed', x, y: height - okHeight - badHeight, width: w, height: badHeight }),
    );
  });
  // Every sixth hour, and the current one (on a phone every twelfth): a cell per hour, most of them empty,
  // so that each label sits under its bar.
  const last = health.hours.length - 1;
  const labelled = new Set([0, 6, 12, 18, last]);
  const hourLabels = health.hours.map((hour, i) =>
    h(
      'span',
      { class: ['tick', i === 0 && 'first', i === last && 'last', i % 12 === 6 && 'minor'].filter(Boolean).join(' ') },
      labelled.has(i) ? h('span', {}, hourLabel(hour.start)) : null,
    ),
  );
  const summary = `Deliveries per hour over the last 24 hours: ${health.delivered} delivered, ${health.failed} failed`;
  return h(
    'figure',
    { class: 'chart' },
    h(
      'div',
      { class: 'chart-body' },
      // Top first: the scale reads downwards, each label level with its gridline.
      h('div', { class: 'scale', 'aria-hidden': 'true' }, [...steps].reverse().map((value) => h('span', { class: 'scale-label' }, String(value)))),
      h(
        'div',
        { class: 'plot' },
        svg('svg', { viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': summary }, ...grid, ...bars),
        h('div', { class: 'hours', 'aria-hidden': 'true' }, hourLabels),
      ),
    ),
    h(
      'figcaption',
      { class: 'muted small' },
      h('span', { class: 'key delivered' }, `${health.delivered} delivered`),
      ' · ',
      h('span', { class: 'key failed' }, `${health.failed} failed`),
      ' per hour over the last 24 hours',
    ),
  );
}
