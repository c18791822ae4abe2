// The markdown export of a guide (decisions §5): `# title`, the description as a paragraph, the steps as
// a numbered list with each screenshot as an image link after its text, and for previews and short cuts
// the notice as the last paragraph. Every plain field is escaped so that it cannot change the structure.

export interface ExportStep {
  text: string;
  image_url: string | null;
  image_alt: string | null;
}

export interface ExportInput {
  title: string | null;
  description: string | null;
  steps: readonly ExportStep[];
  notice: string | null;
}

// Characters that start inline constructs anywhere in a line: emphasis, code, links, HTML, tables,
// strikethrough, and the escape character itself.
const INLINE_SPECIAL = /[\\`*_[\]<>|~]/g;
// An entity reference (`&amp;`, `&#38;`) would be decoded; escaping its ampersand keeps it literal.
const ENTITY_START = /&(?=#?[0-9A-Za-z]+;)/g;
// Constructs that only count at the start of a line: headings, quotes, list items, thematic breaks,
// setext underlines, fenced code.
const LINE_START_SPECIAL = /^([#>+=-])/;
const ORDERED_MARKER = /^(\d{1,9})([.)])/;

function escapeInline(text: string): string {
  return text.replace(INLINE_SPECIAL, '\\$&').replace(ENTITY_START, '\\&');
}

function escapeLine(line: string): string {
  const escaped = escapeInline(line.trim());
  return escaped.replace(LINE_START_SPECIAL, '\\$1').replace(ORDERED_MARKER, '$1\\$2');
}

/** Plain text as the lines of one paragraph: no blank lines, every line escaped. */
function paragraphLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map(escapeLine)
    .filter((line) => line.length > 0);
}

/** Plain text as several paragraphs, keeping the author's blank lines between them. */
function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((block) => paragraphLines(block).join('\n'))
    .filter((block) => block.length > 0);
}

function singleLine(text: string): string {
  return escapeLine(text.replace(/\s+/g, ' '));
}

/** A link destination that cannot close the link early or break the line. */
function destination(url: string): string {
  return url
    .replace(/[\s()<>\\]/g, (ch) => '%' + ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'))
    .replace(ENTITY_START, '\\&');
}

function stepItem(step: ExportStep, number: number): string {
  const marker = `${number}. `;
  const indent = ' '.repeat(marker.length);
  const lines = paragraphLines(step.text);
  if (step.image_url) {
    const alt = singleLine(step.image_alt ?? '');
    lines.push(`![${alt}](${destination(step.image_url)})`);
  }
  if (lines.length === 0) return marker.trimEnd();
  return marker + lines.join('\n' + indent);
}

export function exportMarkdown(input: ExportInput): string {
  // A run of # at the end of a heading would be read as its closing sequence and dropped.
  const title = input.title?.trim() ? singleLine(input.title).replace(/ (#+)$/, ' \\$1') : 'Untitled guide';
  const blocks = [`# ${title}`];
  if (input.description) blocks.push(...paragraphs(input.description));
  if (input.steps.length > 0) blocks.push(input.steps.map((step, i) => stepItem(step, i + 1)).join('\n'));
  if (input.notice) blocks.push(...paragraphs(input.notice));
  return blocks.join('\n\n') + '\n';
}
