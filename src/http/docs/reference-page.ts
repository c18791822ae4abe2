// The human-readable API reference served at /docs, rendered from the same OpenAPI document the routes
// generate, plus the error catalogue: every problem `type` link lands on its entry (#error-<code>).
import type { FastifyReply } from 'fastify';
import { ERROR_CATALOGUE, ERROR_CODES } from '../error-catalogue.js';

type Json = Record<string, any>;

export const escapeHtml = (text: unknown) =>
  String(text).replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** A block of code to copy, shown as it is. */
export const codeBlock = (text: string) => `<pre><code>${escapeHtml(text)}</code></pre>`;

/** Inline `code` spans in descriptions, on escaped text. */
const prose = (text: unknown) => escapeHtml(text ?? '').replace(/`([^`]+)`/g, '<code>$1</code>');

function typeOf(schema: Json | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return `<a href="#schema-${escapeHtml(schema.$ref.split('/').pop())}">${escapeHtml(schema.$ref.split('/').pop())}</a>`;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const shown = types.map((type: string) => (type === 'array' ? `array of ${typeOf(schema.items)}` : escapeHtml(type ?? 'any')));
  const enumText = schema.enum ? ` (${schema.enum.filter((v: unknown) => v !== null).map(escapeHtml).join(', ')})` : '';
  return shown.join(' or ') + enumText;
}

function rules(schema: Json | undefined): string {
  if (!schema) return '';
  const parts: string[] = [];
  if (schema.format) parts.push(schema.format);
  if (schema.minLength !== undefined) parts.push(`at least ${schema.minLength} characters`);
  if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  if (schema.minimum !== undefined) parts.push(`from ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`to ${schema.maximum}`);
  if (schema.default !== undefined) parts.push(`default ${schema.default}`);
  return escapeHtml(parts.join(', '));
}

function fieldsTable(schema: Json): string {
  const properties: Json = schema.properties ?? {};
  const rows = Object.entries(properties)
    .map(([name, field]) => `<tr><td><code>${escapeHtml(name)}</code></td><td>${typeOf(field)}</td><td>${prose(field.description ?? '')}</td></tr>`)
    .join('');
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Notes</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** A curl command for the operation: its path parameters as placeholders, its body's required fields. */
function curlSample(method: string, baseUrl: string, path: string, operation: Json, credential: string): string {
  const url = `${baseUrl}${path}`;
  const query = (operation.parameters ?? [])
    .filter((p: Json) => p.in === 'query' && p.required)
    .map((p: Json) => `${p.name}=<${p.name}>`)
    .join('&');
  const body = operation.requestBody?.content?.['application/json']?.schema;
  const fields = body?.required?.length ? `{${body.required.map((name: string) => `"${name}": …`).join(', ')}}` : null;
  // A request recorded from a real run (its real ids and body) is shown as it was made.
  const recorded = operation['x-request-example'] as { path: string; body?: unknown } | undefined;
  const target = recorded ? `${baseUrl}${recorded.path}` : `${url.replace(/\{(\w+)\}/g, '<$1>')}${query ? `?${query}` : ''}`;
  const lines = [`curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "${target}"`, `  -H "Authorization: Bearer ${credential}"`];
  const sent = recorded ? (recorded.body === undefined ? null : JSON.stringify(recorded.body)) : fields;
  if (sent) lines.push(`  -H 'content-type: application/json' -d '${sent}'`);
  return lines.join(' \\\n');
}

/** The answer recorded from a real run for the operation, if there is one. */
function exampleAnswer(operation: Json): string {
  const recorded = operation['x-request-example'] as { status: number } | undefined;
  if (!recorded) return '';
  const example = operation.responses?.[recorded.status]?.content?.['application/json']?.example;
  if (example === undefined) return `<p>Answer: ${escapeHtml(recorded.status)}, no body (from a real run).</p>`;
  return `<p>Answer (${escapeHtml(recorded.status)}, from a real run):</p><pre><code>${escapeHtml(JSON.stringify(example, null, 2))}</code></pre>`;
}

function bodyTable(operation: Json): string {
  const body = operation.requestBody?.content?.['application/json']?.schema;
  if (!body?.properties) return '';
  const required = new Set<string>(body.required ?? []);
  const rows = Object.entries<Json>(body.properties)
    .map(([name, field]) => `<tr><td><code>${escapeHtml(name)}</code></td><td>${typeOf(field)}</td><td>${required.has(name) ? 'required' : 'optional'}</td><td>${rules(field)} ${prose(field.description ?? '')}</td></tr>`)
    .join('');
  return `<table><thead><tr><th>Body field</th><th>Type</th><th></th><th>Rules</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function operationSection(method: string, path: string, operation: Json, page: PageOptions): string {
  const parameters: Json[] = operation.parameters ?? [];
  const parameterRows = parameters
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${typeOf(p.schema)}</td><td>${p.required ? 'required' : 'optional'}</td><td>${rules(p.schema)} ${prose(p.description ?? p.schema?.description ?? '')}</td></tr>`,
    )
    .join('');
  const responses = Object.entries(operation.responses ?? {})
    .map(([status, response]: [string, any]) => {
      const media = response.content ? Object.keys(response.content)[0] : undefined;
      return `<li><strong>${escapeHtml(status)}</strong> ${prose(response.description)}${media ? ` <code>${escapeHtml(media)}</code>` : ''}</li>`;
    })
    .join('');
  return `<section class="operation" id="op-${escapeHtml(operation.operationId)}">
<h3><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${prose(operation.summary)}</p><p>${prose(operation.description ?? '')}</p>
${parameters.length ? `<table><thead><tr><th>Parameter</th><th>In</th><th>Type</th><th></th><th>Rules</th></tr></thead><tbody>${parameterRows}</tbody></table>` : '<p>No parameters.</p>'}
${bodyTable(operation)}
<pre><code>${escapeHtml(curlSample(method, page.baseUrl, path, operation, page.credential))}</code></pre>
${exampleAnswer(operation)}
<ul class="responses">${responses}</ul></section>`;
}

/** The webhooks section: for each event, when it is sent and an example of its body. */
function webhookSection(type: string, item: Json): string {
  const post = item.post ?? {};
  const example = post.requestBody?.content?.['application/json']?.example;
  return `<section class="operation" id="event-${escapeHtml(type)}"><h3><code>${escapeHtml(type)}</code></h3><p>${prose(post.description ?? '')}</p>
${example ? `<pre><code>${escapeHtml(JSON.stringify(example, null, 2))}</code></pre>` : ''}</section>`;
}

export interface PageOptions {
  /** Where the operations' paths start, e.g. https://api.example.com/v1. */
  baseUrl: string;
  /** What the curl samples send as the bearer, e.g. $KEY. */
  credential: string;
  /** Sections before the endpoints (HTML): authentication, limits, paging, as the interface has them. */
  guide: string;
  /** What comes before the webhook events, if the document has any (HTML). */
  webhooksIntro?: string;
}

export function renderReferencePage(document: Json, publicUrl: string, page: PageOptions): string {
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]: [string, any]) =>
    Object.entries(item).map(([method, operation]) => operationSection(method, path, operation as Json, page)),
  );
  const webhooks = Object.entries<Json>(document.webhooks ?? {}).map(([type, item]) => webhookSection(type, item));
  const schemas = Object.entries(document.components?.schemas ?? {})
    .map(([name, schema]) => `<section id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${fieldsTable(schema as Json)}</section>`)
    .join('');
  const errors = ERROR_CODES.map((code) => {
    const entry = ERROR_CATALOGUE[code];
    return `<tr id="error-${code}"><td><code>${code}</code></td><td>${entry.status}</td><td>${escapeHtml(entry.title)}</td><td>${prose(entry.meaning)}</td></tr>`;
  }).join('');
  return htmlPage(
    `${document.info?.title} reference`,
    `<h1>${escapeHtml(document.info?.title)} <small>v${escapeHtml(document.info?.version)}</small></h1>
<p>${prose(document.info?.description)}</p>
<p>Base URL: <code>${escapeHtml(page.baseUrl)}</code>. The machine-readable document is
<a href="${escapeHtml(page.baseUrl)}/openapi.json">openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)}).</p>
${page.guide}
<h2 id="endpoints">Endpoints</h2>${operations.join('\n')}
${webhooks.length ? `<h2 id="webhooks">Webhooks</h2>${page.webhooksIntro ?? ''}${webhooks.join('\n')}` : ''}
<h2 id="schemas">Resources</h2>${schemas}
<h2 id="errors">Errors</h2>
<p>Every refusal is an RFC 9457 problem (<code>application/problem+json</code>, also on <a href="${escapeHtml(publicUrl)}/docs#errors">every interface</a>) with <code>type</code>, <code>title</code>,
<code>status</code>, <code>detail</code>, <code>code</code> and <code>request_id</code>. Switch on <code>code</code>.</p>
<table><thead><tr><th>code</th><th>Status</th><th>Title</th><th>Meaning</th></tr></thead><tbody>${errors}</tbody></table>`,
  );
}

/** A whole page of the reference: its title, the one stylesheet every page shares, and `body` (HTML). */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1b1b1b}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}
code{background:#f3f3f3;padding:0 .2rem;border-radius:3px}.method{background:#0b5;color:#fff;padding:0 .4rem;border-radius:3px}
tr:target{background:#fff6c7}section.operation{border-top:1px solid #ddd;margin-top:1.5rem}
pre{background:#f6f6f6;padding:.6rem;overflow-x:auto}
</style></head><body>
${body}
</body></html>`;
}

/** A route handler answering the page that `render` makes, rendered on the first request and kept. */
export function referencePageHandler(render: () => string) {
  let page: string | null = null;
  return async (_request: unknown, reply: FastifyReply) => reply.type('text/html; charset=utf-8').send((page ??= render()));
}
