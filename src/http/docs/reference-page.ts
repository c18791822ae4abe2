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
  const characters = (n: number) => `${n} ${n === 1 ? 'character' : 'characters'}`;
  if (schema.minLength !== undefined) parts.push(`at least ${characters(schema.minLength)}`);
  if (schema.maxLength !== undefined) parts.push(`at most ${characters(schema.maxLength)}`);
  if (schema.minimum !== undefined) parts.push(`from ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`to ${schema.maximum}`);
  if (schema.default !== undefined) parts.push(`default ${schema.default}`);
  return escapeHtml(parts.join(', '));
}

const fieldRow = (path: string, type: string, notes: string) => `<tr><td><code>${escapeHtml(path)}</code></td><td>${type}</td><td>${notes}</td></tr>`;

/** A row per field, and the fields of an object written in place after it, by their path (`guide.id`), as the specification's tables do. */
function fieldRows(properties: Json, prefix = ''): string[] {
  return Object.entries<Json>(properties).flatMap(([name, field]) => [
    fieldRow(`${prefix}${name}`, typeOf(field), prose(field.description ?? '')),
    ...(field.properties ? fieldRows(field.properties, `${prefix}${name}.`) : []),
  ]);
}

/** The one value a field takes in one alternative of a union (`type` of an event envelope), if it is fixed. */
const fixedValue = (field: Json | undefined): unknown => field?.const ?? (field?.enum?.length === 1 ? field.enum[0] : undefined);

/**
 * The fields of a union of objects (the Event envelope, one alternative per type) in one table: each field
 * once; the field that tells the alternatives apart with all its values; a field whose type differs
 * between them with each type and the values it goes with.
 */
function unionRows(alternatives: Json[]): string[] {
  const names = [...new Set(alternatives.flatMap((alternative) => Object.keys(alternative.properties ?? {})))];
  const key = names.find((name) => alternatives.every((alternative) => fixedValue(alternative.properties?.[name]) !== undefined));
  return names.map((name) => {
    const present = alternatives.filter((alternative) => alternative.properties?.[name]);
    const description = prose(present.find((alternative) => alternative.properties[name].description)?.properties[name].description ?? '');
    if (name === key) {
      const values = present.map((alternative) => escapeHtml(fixedValue(alternative.properties[name])));
      return fieldRow(name, `${escapeHtml(present[0]!.properties[name].type ?? 'any')} (${values.join(', ')})`, description);
    }
    const byType = new Map<string, unknown[]>();
    for (const alternative of present) {
      const shown = typeOf(alternative.properties[name]);
      byType.set(shown, [...(byType.get(shown) ?? []), key === undefined ? undefined : fixedValue(alternative.properties[key])]);
    }
    if (byType.size === 1 || key === undefined) return fieldRow(name, [...byType.keys()].join(' or '), description);
    const which = [...byType].map(([shown, values]) => `${values.map((value) => `<code>${escapeHtml(value)}</code>`).join(', ')}: ${shown}`);
    return fieldRow(name, [...byType.keys()].join(' or '), `${description}${description ? ' ' : ''}By <code>${escapeHtml(key)}</code>: ${which.join('; ')}.`);
  });
}

function fieldsTable(schema: Json): string {
  const alternatives: Json[] | undefined = schema.anyOf ?? schema.oneOf;
  const rows = schema.properties ? fieldRows(schema.properties) : alternatives?.every((alternative) => alternative.properties) ? unionRows(alternatives) : [];
  const about = schema.description ? `<p>${prose(schema.description)}</p>` : '';
  // A schema that is a value of its own (an enum) is told by its type.
  if (rows.length === 0) return `${about}<p>${typeOf(schema)}</p>`;
  return `${about}<table><thead><tr><th>Field</th><th>Type</th><th>Notes</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
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
  if (example === undefined) return `<p class="sample">Sample answer: ${escapeHtml(recorded.status)}, no body (recorded from a real run).</p>`;
  return `<p class="sample">Sample answer (${escapeHtml(recorded.status)}, recorded from a real run; your ids and times differ):</p><pre><code>${escapeHtml(JSON.stringify(example, null, 2))}</code></pre>`;
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
<h3><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code>${operation.deprecated ? ' <span class="deprecated">Deprecated</span>' : ''}</h3>
<p>${prose(operation.summary)}</p><p>${prose(operation.description ?? '')}</p>
${parameters.length ? `<table><thead><tr><th>Parameter</th><th>In</th><th>Type</th><th></th><th>Rules</th></tr></thead><tbody>${parameterRows}</tbody></table>` : '<p>No parameters.</p>'}
${bodyTable(operation)}
<p class="sample">Sample request:</p><pre><code>${escapeHtml(curlSample(method, page.baseUrl, path, operation, page.credential))}</code></pre>
${exampleAnswer(operation)}
<ul class="responses">${responses}</ul></section>`;
}

/** The webhooks section: for each event, when it is sent and an example of its body. */
function webhookSection(type: string, item: Json): string {
  const post = item.post ?? {};
  const example = post.requestBody?.content?.['application/json']?.example;
  return `<section class="operation" id="event-${escapeHtml(type)}"><h3><code>${escapeHtml(type)}</code></h3><p>${prose(post.description ?? '')}</p>
${example ? `<p class="sample">Sample body:</p><pre><code>${escapeHtml(JSON.stringify(example, null, 2))}</code></pre>` : ''}</section>`;
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
  const entries = Object.entries(document.paths ?? {}).flatMap(([path, item]: [string, any]) =>
    Object.entries<Json>(item).map(([method, operation]) => ({ method, path, operation })),
  );
  const operations = entries.map(({ method, path, operation }) => operationSection(method, path, operation, page));
  const webhooks = Object.entries<Json>(document.webhooks ?? {}).map(([type, item]) => webhookSection(type, item));
  const schemas = Object.entries(document.components?.schemas ?? {})
    .map(([name, schema]) => `<section id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${fieldsTable(schema as Json)}</section>`)
    .join('');
  const errors = ERROR_CODES.map((code) => {
    const entry = ERROR_CATALOGUE[code];
    return `<tr id="error-${code}"><td><code>${code}</code></td><td>${entry.status}</td><td>${escapeHtml(entry.title)}</td><td>${prose(entry.meaning)}</td></tr>`;
  }).join('');
  const contents: ContentsEntry[] = [
    ...[...page.guide.matchAll(/<h2 id="([^"]+)">([\s\S]*?)<\/h2>/g)].map(([, id, label]) => ({ id: id!, label: label!.replace(/<[^>]+>/g, '') })),
    {
      id: 'endpoints',
      label: 'Endpoints',
      children: entries.map(({ method, path, operation }) => ({ id: `op-${operation.operationId}`, label: `${method.toUpperCase()} ${path}: ${operation.summary ?? ''}` })),
    },
    ...(Object.keys(document.webhooks ?? {}).length
      ? [{ id: 'webhooks', label: 'Webhooks', children: Object.keys(document.webhooks).map((type) => ({ id: `event-${type}`, label: type })) }]
      : []),
    { id: 'schemas', label: 'Resources', children: Object.keys(document.components?.schemas ?? {}).map((name) => ({ id: `schema-${name}`, label: name })) },
    { id: 'errors', label: 'Errors' },
  ];
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
    { root: publicUrl, contents },
  );
}

/** One link of a page's contents: a section, or an operation or resource within one. */
export interface ContentsEntry {
  id: string;
  /** Plain text. */
  label: string;
  children?: ContentsEntry[];
}

/** The sections of `body` as its `<h2 id>` headings name them: the contents of a page without sub-entries. */
function sectionsOf(body: string): ContentsEntry[] {
  return [...body.matchAll(/<h2 id="([^"]+)">([\s\S]*?)<\/h2>/g)].map(([, id, label]) => ({ id: id!, label: label!.replace(/<[^>]+>/g, '') }));
}

function contentsList(entries: ContentsEntry[]): string {
  const items = entries.map(
    (entry) => `<li><a href="#${escapeHtml(entry.id)}">${escapeHtml(entry.label)}</a>${entry.children?.length ? contentsList(entry.children) : ''}</li>`,
  );
  return `<ul>${items.join('')}</ul>`;
}

// The search box narrows the contents to the links whose text holds every word typed; a section whose own
// link does not match stays shown while one of its entries does. Below them, "In the text" lists the
// entries whose own part of the page holds every word (an error code, "signature", "retry"), each with the
// words around the first, so that what a reader remembers from the body is found too. Without script the
// whole list is shown, unfolded.
const CONTENTS_SEARCH = `(() => {
  const box = document.getElementById('contents-search');
  const count = document.getElementById('contents-count');
  const found = document.getElementById('text-matches');
  const items = [...document.querySelectorAll('#contents li')];
  const list = document.querySelector('#contents details');
  // On a phone the contents start folded, above the page; searching unfolds them.
  if (!matchMedia('(min-width: 64rem)').matches) list.open = false;
  box.hidden = false;
  box.labels.forEach((label) => (label.hidden = false));
  // Each entry's own part of the page: the text from its target to the next entry's target, in the page's
  // order; text nodes are joined with spaces, so that a table's cells do not run together.
  const entries = [...document.querySelectorAll('#contents a')]
    .map((link) => ({ link, target: document.getElementById(link.getAttribute('href').slice(1)), parts: [] }))
    .filter((entry) => entry.target)
    .sort((a, b) => (a.target.compareDocumentPosition(b.target) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  const walker = document.createTreeWalker(document.getElementById('main'), NodeFilter.SHOW_TEXT);
  let current = -1;
  const reached = (entry, node) => entry.target.contains(node) || entry.target.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    while (current + 1 < entries.length && reached(entries[current + 1], node)) current++;
    if (current >= 0) entries[current].parts.push(node.data);
  }
  for (const entry of entries) {
    entry.text = entry.parts.join(' ').replace(/\\s+/g, ' ').trim();
    entry.lower = entry.text.toLowerCase();
  }
  const around = (entry, word) => {
    const at = entry.lower.indexOf(word);
    const from = Math.max(0, entry.text.lastIndexOf(' ', Math.max(0, at - 40)));
    const to = entry.text.indexOf(' ', Math.min(entry.text.length, at + word.length + 60));
    return (from > 0 ? '… ' : '') + entry.text.slice(from, to < 0 ? undefined : to).trim() + (to < 0 ? '' : ' …');
  };
  box.addEventListener('input', () => {
    list.open = true;
    const words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
    let shown = 0;
    const named = new Set();
    for (const item of items.slice().reverse()) {
      const link = item.querySelector('a');
      const own = words.every((word) => link.textContent.toLowerCase().includes(word));
      if (own) named.add(link);
      const inner = [...item.querySelectorAll(':scope > ul > li')].some((child) => !child.hidden);
      item.hidden = !(own || inner);
      if (!item.hidden && !item.querySelector('ul')) shown++;
    }
    const inText = words.length
      ? entries.filter((entry) => !named.has(entry.link) && words.every((word) => entry.lower.includes(word)))
      : [];
    found.replaceChildren(...inText.map((entry) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = entry.link.getAttribute('href');
      link.textContent = entry.link.textContent;
      const context = document.createElement('span');
      context.className = 'around';
      context.textContent = around(entry, words[0]);
      item.append(link, context);
      return item;
    }));
    found.parentElement.hidden = inText.length === 0;
    const counts = [shown && shown + ' in the contents', inText.length && inText.length + ' in the text'].filter(Boolean);
    count.textContent = !words.length ? '' : counts.length ? 'Found ' + counts.join(', ') : 'No matches';
  });
})();`;

// Each code block gets a Copy button (with script: it needs the clipboard). Where the clipboard is refused,
// the block's text is selected, for the reader's own copy keys.
const COPY_BUTTONS = `(() => {
  const said = document.getElementById('copy-status');
  for (const block of document.querySelectorAll('main pre')) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    button.addEventListener('click', () => {
      const text = block.textContent;
      navigator.clipboard.writeText(text).then(
        () => { said.textContent = 'Copied ' + text.split('\\n').length + (text.includes('\\n') ? ' lines' : ' line'); },
        () => {
          getSelection().selectAllChildren(block);
          said.textContent = 'Selected: copy it with your copy keys';
        },
      );
    });
    const bar = document.createElement('div');
    bar.className = 'copy-bar';
    bar.append(button);
    block.before(bar);
  }
})();`;

/** The contents beside the page, with the search box that script shows. */
function contentsNav(contents: ContentsEntry[]): string {
  return `<nav aria-label="Contents" id="contents">
<label for="contents-search" hidden>Search the contents and the text</label>
<input type="search" id="contents-search" hidden autocomplete="off"><span id="contents-count" role="status" class="sample"></span>
<div hidden><p class="found-heading">In the text</p><ul id="text-matches"></ul></div>
<details open><summary>Contents</summary>${contentsList(contents)}</details>
</nav>`;
}

/**
 * A whole page of the reference: its title, the one stylesheet every page shares, a header linking the
 * pages, the contents (given, or the body's sections) with a search box, and `body` (HTML) as the page's
 * one main region. Every table and code block scrolls inside itself and takes focus, so that no page
 * scrolls sideways on a phone and a keyboard reaches what is hidden.
 */
export function htmlPage(title: string, body: string, options: { root: string; contents?: ContentsEntry[] }): string {
  const root = escapeHtml(options.root);
  const contents = options.contents ?? sectionsOf(body);
  const scrollable = body
    .replaceAll('<pre>', '<pre tabindex="0">')
    .replaceAll('<table>', '<div class="scroll" tabindex="0"><table>')
    .replaceAll('</table>', '</table></div>');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
*{box-sizing:border-box}
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b}
header{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center;padding:.6rem 1rem;border-bottom:1px solid #ddd;background:#fafafa}
header .brand{font-weight:600;margin-right:auto}
.layout{display:grid;grid-template-columns:minmax(0,1fr);max-width:80rem;margin:0 auto}
nav{padding:.5rem 1rem;border-bottom:1px solid #eee}
nav ul{list-style:none;margin:0;padding-left:0}nav ul ul{padding-left:1rem;font-size:.9rem}
nav li{margin:.15rem 0}nav details summary{cursor:pointer;font-weight:600}
nav label{display:block;font-weight:600}nav input{width:100%;font:inherit;padding:.3rem;margin:.2rem 0 .5rem}
main{padding:1rem;min-width:0}
@media (min-width:64rem){.layout{grid-template-columns:18rem minmax(0,1fr)}.layout.single{grid-template-columns:minmax(0,1fr)}
nav{position:sticky;top:0;align-self:start;max-height:100vh;overflow-y:auto;border-bottom:0;border-right:1px solid #eee}}
.scroll{overflow-x:auto;margin:.5rem 0}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}
code{background:#f3f3f3;padding:0 .2rem;border-radius:3px;overflow-wrap:anywhere}
pre code{overflow-wrap:normal}
.method{background:#0a6b30;color:#fff;padding:0 .4rem;border-radius:3px}
.deprecated{background:#8a1c1c;color:#fff;padding:0 .4rem;border-radius:3px;font-size:.8em}
tr:target{background:#fff6c7}section.operation{border-top:1px solid #ddd;margin-top:1.5rem}
pre{background:#f6f6f6;padding:.6rem;overflow-x:auto}
:focus-visible{outline:2px solid #1d4ed8;outline-offset:2px}
.sample{font-size:.9rem;color:#4a4a4a;margin-bottom:0}
.skip{position:absolute;left:-100rem}.skip:focus{left:1rem;top:.5rem;background:#fff;padding:.3rem .6rem;z-index:1}
.copy-bar{display:flex;justify-content:flex-end;margin:.5rem 0 -.5rem}
.copy{font:inherit;font-size:.85rem;min-height:1.75rem;min-width:3.5rem;padding:.1rem .6rem;border:1px solid #888;border-radius:3px;background:#fff;cursor:pointer}
#text-matches li{margin:.4rem 0}#text-matches .around{display:block;font-size:.85rem;color:#4a4a4a;overflow-wrap:anywhere}
.found-heading{font-weight:600;margin:.5rem 0 0}
.ways li{margin:.4rem 0}.single{max-width:56rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
</style></head><body>
<a href="#main" class="skip">Skip to the content</a>
<header><span class="brand">Guide service</span>
<a href="${root}/docs">API reference</a><a href="${root}/docs/webhooks">Verifying webhooks</a><a href="${root}/docs/mcp">MCP</a><a href="${root}/docs/versioning">Versioning</a><a href="${root}/console/">Console</a></header>
<div class="layout${contents.length ? '' : ' single'}">
${contents.length ? contentsNav(contents) : ''}
<main id="main" tabindex="-1">
${scrollable}
</main>
</div>
<p id="copy-status" role="status" class="sr-only"></p>
<script>${contents.length ? CONTENTS_SEARCH : ''}${COPY_BUTTONS}</script>
</body></html>`;
}

/** A route handler answering the page that `render` makes, rendered on the first request and kept. */
export function referencePageHandler(render: () => string) {
  let page: string | null = null;
  return async (_request: unknown, reply: FastifyReply) => reply.type('text/html; charset=utf-8').send((page ??= render()));
}
