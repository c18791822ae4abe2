// An endpoint's health at a glance (GET /webhook-endpoints/{id}/health): a badge that tells an active
// endpoint that keeps failing from a healthy one, the facts (last delivery, success rate over the last 24
// hours, failures in a row, next retry), and deliveries per hour drawn as an inline SVG bar chart.
import type { Endpoint, EndpointHealth, PausedReason } from './api-types.js';
import { h, time } from './dom.js';

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

function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10} %`;
}

/** The health figures as a list of facts. */
export function healthFacts(endpoint: Endpoint, health: EndpointHealth): HTMLElement {
  const last = health.last_attempt;
  const sent = health.delivered + health.failed;
  return h(
    'dl',
    { class: 'facts health', 'aria-label': `Health of ${endpoint.url}` },
    h('dt', {}, 'Last delivery'),
    h('dd', { 'data-fact': 'last' }, last ? [h('strong', { class: `outcome ${last.status}` }, last.status), ' ', time(last.sent_at)] : 'None sent yet'),
    h('dt', {}, 'Success rate, last 24 hours'),
    h(
      'dd',
      { 'data-fact': 'rate' },
      health.success_rate === null ? 'Nothing sent' : `${percent(health.success_rate)} (${health.delivered} of ${sent} delivered)`,
    ),
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

/**
 * Delivered (bottom) and failed (on top) attempts per hour, oldest hour on the left. Each hour is a group
 * with its own title (the tooltip, and what a screen reader finds); the figure is labelled with totals.
 */
export function healthChart(health: EndpointHealth): HTMLElement {
  const width = 480;
  const height = 120;
  const axis = 16;
  const slot = width / health.hours.length;
  const top = Math.max(1, ...health.hours.map((hour) => hour.delivered + hour.failed));
  const scale = (n: number) => (n / top) * (height - axis - 4);
  const bars = health.hours.map((hour, i) => {
    const x = i * slot + 2;
    const w = slot - 4;
    const okHeight = scale(hour.delivered);
    const badHeight = scale(hour.failed);
    const base = height - axis;
    return svg(
      'g',
      { class: 'hour', 'data-start': hour.start, 'data-delivered': hour.delivered, 'data-failed': hour.failed },
      svg('title', {}, `${hourLabel(hour.start)}: ${hour.delivered} delivered, ${hour.failed} failed`),
      // A transparent column, so that the whole hour shows its title.
      svg('rect', { class: 'slot', x, y: 0, width: w, height: base }),
      svg('rect', { class: 'delivered', x, y: base - okHeight, width: w, height: okHeight }),
      svg('rect', { class: 'failed', x, y: base - okHeight - badHeight, width: w, height: badHeight }),
    );
  });
  // Every sixth hour, and the current one; the first and last keep inside the drawing.
  const last = health.hours.length - 1;
  const labels = [0, 6, 12, 18, last].map((i) =>
    svg(
      'text',
      { class: 'tick', x: i === 0 ? 2 : i === last ? width - 2 : i * slot + slot / 2, y: height - 3, 'text-anchor': i === 0 ? 'start' : i === last ? 'end' : 'middle' },
      hourLabel(health.hours[i]!.start),
    ),
  );
  const summary = `Deliveries per hour over the last 24 hours: ${health.delivered} delivered, ${health.failed} failed`;
  return h(
    'figure',
    { class: 'chart' },
    svg(
      'svg',
      { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': summary },
      svg('line', { class: 'axis', x1: 0, y1: height - axis, x2: width, y2: height - axis }),
      ...bars,
      ...labels,
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
