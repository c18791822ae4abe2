// What `q` of GET /v1/guides and MCP's search_guides each match (issue 43, item 5): `q` is a piece of the
// title as written, case aside (decisions §4, as the specification says); search_guides takes words
// (docs/decisions.md "MCP"). /docs and /docs/mcp show these examples side by side, and
// test/docs/search-examples.test.ts asks each of them of the service, both ways.
import { escapeHtml } from './reference-page.js';

/** The titles the examples search among. */
export const SEARCHED_TITLES = ['Reset a password', 'Régler l’écran', 'What to do after a breach'] as const;

type Title = (typeof SEARCHED_TITLES)[number];

export interface SearchExample {
  /** The text asked: `q`, and search_guides's `query`. */
  asked: string;
  /** The titles `q` finds. */
  q: readonly Title[];
  /** The titles search_guides finds, or `refused` (400 invalid_request: no word to search for). */
  words: readonly Title[] | 'refused';
  /** Why (HTML). */
  why: string;
}

export const SEARCH_EXAMPLES: readonly SearchExample[] = [
  { asked: 'pass', q: ['Reset a password'], words: ['Reset a password'], why: 'Both find text inside a word.' },
  {
    asked: 'reset password',
    q: [],
    words: ['Reset a password'],
    why: '<code>q</code> is one piece of text, and the title has “a” between the two words; search_guides looks for each word.',
  },
  { asked: 'password reset', q: [], words: ['Reset a password'], why: 'search_guides takes the words in any order.' },
  { asked: 'reset invoice', q: [], words: ['Reset a password'], why: 'For search_guides one word is enough; titles with more of the words come first.' },
  { asked: 'ecran', q: [], words: ['Régler l’écran'], why: '<code>q</code> tells é from e; search_guides leaves accents out.' },
  { asked: 'ÉCRAN', q: ['Régler l’écran'], words: ['Régler l’écran'], why: 'Both ignore case.' },
  {
    asked: 'what to do',
    q: ['What to do after a breach'],
    words: 'refused',
    why: 'search_guides leaves common English words out (what, to, do, how, the, …) and refuses a query of nothing else.',
  },
];

const found = (titles: readonly Title[] | 'refused') =>
  titles === 'refused' ? 'refused (400 <code>invalid_request</code>)' : titles.length === 0 ? 'nothing' : titles.map((title) => `“${escapeHtml(title)}”`).join(', ');

/** The examples as a table: what each finds among SEARCHED_TITLES, and why. */
export function searchExamplesTable(): string {
  const rows = SEARCH_EXAMPLES.map(
    (example) => `<tr><td><code>${escapeHtml(example.asked)}</code></td><td>${found(example.q)}</td><td>${found(example.words)}</td><td>${example.why}</td></tr>`,
  ).join('\n');
  return `<p>Among guides titled ${SEARCHED_TITLES.map((title) => `“${escapeHtml(title)}”`).join(', ')}:</p>
<table><thead><tr><th>Asked</th><th><code>q</code> of <code>GET /v1/guides</code></th><th>MCP's <code>search_guides</code></th><th>Why</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}
