// The markdown export (decisions §5, §3): `# title`, the description as paragraph(s), the steps as ONE
// ordered list with each screenshot as an image after its text, and for a preview or short cut the notice
// as the last paragraph. Plain text must never change the structure. Every assertion is made on the tree
// that a CommonMark parser builds from the output, not on the raw string.
import { type Node, Parser } from 'commonmark';
import { describe, expect, it } from 'vitest';
import { type ExportInput, type ExportStep, exportMarkdown } from '../../src/domain/markdown.js';
import { lockedNotice, previewNotice } from '../../src/domain/plans.js';

const parser = new Parser();

function parse(input: ExportInput): Node {
  return parser.parse(exportMarkdown(input));
}

function children(node: Node): Node[] {
  const out: Node[] = [];
  for (let child = node.firstChild; child; child = child.next) out.push(child);
  return out;
}

function descendants(node: Node): Node[] {
  const out: Node[] = [];
  const walker = node.walker();
  let event;
  while ((event = walker.next())) if (event.entering && event.node !== node) out.push(event.node);
  return out;
}

/** The text a reader sees: text literals, line breaks as "\n", images contribute nothing. */
function textOf(node: Node): string {
  let out = '';
  for (const child of children(node)) {
    if (child.type === 'text' || child.type === 'code') out += child.literal ?? '';
    else if (child.type === 'softbreak' || child.type === 'linebreak') out += '\n';
    else if (child.type === 'image') continue;
    else out += textOf(child);
  }
  return out;
}

/** The alt text of an image node: the plain text of its children. */
function altOf(image: Node): string {
  return textOf(image);
}

const INLINE_ALLOWED = new Set(['text', 'softbreak']);

/** No inline construct other than text and soft breaks (no emphasis, code, links, HTML, hard breaks). */
function expectPlainInline(block: Node): void {
  for (const node of children(block)) {
    expect(INLINE_ALLOWED.has(node.type), `unexpected inline node ${node.type} in ${block.type}`).toBe(true);
  }
}

interface Shape {
  heading: Node;
  paragraphs: Node[];
  list: Node | null;
  notice: Node | null;
}

/**
 * Checks the top-level structure: exactly one level-1 heading first, then only paragraphs (the
 * description), then at most one ordered list, then (when a notice is expected) one paragraph.
 */
function shape(doc: Node, opts: { steps: number; notice: boolean }): Shape {
  const top = children(doc);
  const heading = top[0];
  expect(heading?.type).toBe('heading');
  expect(heading!.level).toBe(1);
  expect(top.filter((n) => n.type === 'heading')).toHaveLength(1);
  let rest = top.slice(1);
  let notice: Node | null = null;
  if (opts.notice) {
    notice = rest.at(-1) ?? null;
    expect(notice?.type).toBe('paragraph');
    rest = rest.slice(0, -1);
  }
  let list: Node | null = null;
  if (opts.steps > 0) {
    list = rest.at(-1) ?? null;
    expect(list?.type).toBe('list');
    rest = rest.slice(0, -1);
  }
  for (const node of rest) expect(node.type, 'only description paragraphs between heading and list').toBe('paragraph');
  expect(top.filter((n) => n.type === 'list')).toHaveLength(opts.steps > 0 ? 1 : 0);
  if (list) {
    expect(list.listType).toBe('ordered');
    expect(list.listStart).toBe(1);
    expect(children(list)).toHaveLength(opts.steps);
    for (const item of children(list)) expect(item.type).toBe('item');
  }
  return { heading: heading!, paragraphs: rest, list, notice };
}

function step(text: string, image_url: string | null = null, image_alt: string | null = null): ExportStep {
  return { text, image_url, image_alt };
}

/** The single paragraph of a list item (a step's text and screenshot live in one paragraph). */
function itemParagraph(item: Node): Node {
  const blocks = children(item);
  expect(blocks, 'a step is one paragraph').toHaveLength(1);
  expect(blocks[0]!.type).toBe('paragraph');
  return blocks[0]!;
}

// Plain text that would be markdown syntax if it were not escaped.
const ADVERSARIAL: readonly string[] = [
  '# heading',
  '## two',
  '1. item',
  '1) item',
  '10. item',
  '- item',
  '+ item',
  '* item',
  '> quote',
  '***',
  '---',
  '___',
  '- - -',
  '===',
  '`code`',
  '```js',
  '~~~',
  '~~strike~~',
  '*em*',
  '**strong**',
  '_em_',
  '__strong__',
  'snake_case_name and 2*3*4',
  '[link](http://x)',
  '[ref]: http://x',
  '![img](x)',
  '<script>alert(1)</script>',
  '<http://autolink.example>',
  '<!-- comment -->',
  '&amp;',
  '&#38; &#x26; &copy;',
  '|table|',
  '| a | b |',
  'back\\slash \\* \\',
  'ends with backslash \\',
  'C:\\Users\\name',
  'Click “Save” — done ✅ 🎉',
  'مرحبا بالعالم',
  'שלום עולם',
  '中文标题 日本語',
  '\u202Eright-to-left override',
  '    indented code',
  '\tTab indented',
  '   # indented heading',
  '1.5 liters, 2) options',
  '%41 & < > " \'',
  'trailing spaces for a hard break   ',
];

describe('exportMarkdown: document shape (decisions §5)', () => {
  it('a full guide is one level-1 heading with the title, the description paragraph, then one ordered list of the steps in order (decisions §5)', () => {
    const doc = parse({
      title: 'Create an invoice',
      description: 'How to bill a customer.',
      steps: [step('Open the billing page'), step('Click New invoice'), step('Save it')],
      notice: null,
    });
    const { heading, paragraphs, list } = shape(doc, { steps: 3, notice: false });
    expect(textOf(heading)).toBe('Create an invoice');
    expect(paragraphs.map(textOf)).toEqual(['How to bill a customer.']);
    expect(children(list!).map((item) => textOf(itemParagraph(item)))).toEqual([
      'Open the billing page',
      'Click New invoice',
      'Save it',
    ]);
  });

  it("a step's screenshot is an image node after its text, with the step's URL as destination and its alt text (decisions §5)", () => {
    const doc = parse({
      title: 'T',
      description: null,
      steps: [
        step('First', 'https://cdn.example.com/s/1.png', 'The first screen'),
        step('Second'),
        step('Third', 'https://cdn.example.com/s/3.png', 'Third screen'),
      ],
      notice: null,
    });
    const { list } = shape(doc, { steps: 3, notice: false });
    const items = children(list!);
    const first = children(itemParagraph(items[0]!));
    expect(first.map((n) => n.type)).toEqual(['text', 'softbreak', 'image']);
    expect(first[0]!.literal).toBe('First');
    expect(first[2]!.destination).toBe('https://cdn.example.com/s/1.png');
    expect(altOf(first[2]!)).toBe('The first screen');
    expect(descendants(items[1]!).filter((n) => n.type === 'image')).toHaveLength(0);
    const third = children(itemParagraph(items[2]!));
    expect(third.at(-1)!.type).toBe('image');
    expect(third.at(-1)!.destination).toBe('https://cdn.example.com/s/3.png');
    expect(altOf(third.at(-1)!)).toBe('Third screen');
  });

  it('a screenshot without alt text is an image with empty alt (decisions §5)', () => {
    const doc = parse({ title: 'T', description: null, steps: [step('Do', 'https://x.example/a.png', null)], notice: null });
    const images = descendants(doc).filter((n) => n.type === 'image');
    expect(images).toHaveLength(1);
    expect(images[0]!.destination).toBe('https://x.example/a.png');
    expect(altOf(images[0]!)).toBe('');
  });

  it('a step with a screenshot but no text is an item holding only the image (decisions §5)', () => {
    const doc = parse({ title: 'T', description: null, steps: [step('', 'https://x.example/a.png', 'alt')], notice: null });
    const { list } = shape(doc, { steps: 1, notice: false });
    const inlines = children(itemParagraph(children(list!)[0]!));
    expect(inlines.map((n) => n.type)).toEqual(['image']);
  });

  it('a step with neither text nor screenshot still counts as a list item, so numbering stays in step order (decisions §5)', () => {
    const doc = parse({ title: 'T', description: null, steps: [step('one'), step(''), step('three')], notice: null });
    const { list } = shape(doc, { steps: 3, notice: false });
    const items = children(list!);
    expect(textOf(items[0]!)).toBe('one');
    expect(children(items[1]!)).toHaveLength(0);
    expect(textOf(items[2]!)).toBe('three');
  });

  it('a null title gives the heading "Untitled guide" (decisions §5)', () => {
    const { heading } = shape(parse({ title: null, description: null, steps: [], notice: null }), { steps: 0, notice: false });
    expect(textOf(heading)).toBe('Untitled guide');
  });

  it('an empty or blank title gives the heading "Untitled guide" (decisions §5)', () => {
    for (const title of ['', '   ', '\n\t']) {
      const { heading } = shape(parse({ title, description: null, steps: [], notice: null }), { steps: 0, notice: false });
      expect(textOf(heading)).toBe('Untitled guide');
    }
  });

  it('a guide without steps has no list (decisions §5)', () => {
    const doc = parse({ title: 'T', description: 'D', steps: [], notice: null });
    shape(doc, { steps: 0, notice: false });
    expect(descendants(doc).filter((n) => n.type === 'list' || n.type === 'item')).toHaveLength(0);
  });

  it('a null or empty description adds no paragraph (decisions §5)', () => {
    for (const description of [null, '', '  \n  ']) {
      const { paragraphs } = shape(parse({ title: 'T', description, steps: [step('a')], notice: null }), { steps: 1, notice: false });
      expect(paragraphs).toHaveLength(0);
    }
  });

  it('a description with blank lines gives several paragraphs, before the list (decisions §5)', () => {
    const doc = parse({ title: 'T', description: 'First part.\n\nSecond part.\r\n\r\nThird.', steps: [step('a')], notice: null });
    const { paragraphs } = shape(doc, { steps: 1, notice: false });
    expect(paragraphs.map(textOf)).toEqual(['First part.', 'Second part.', 'Third.']);
  });

  it('a preview ends with the notice as the last paragraph, after the list (decisions §3, §5)', () => {
    const notice = previewNotice('free', 3, 7);
    const doc = parse({ title: 'T', description: 'D', steps: [step('a'), step('b'), step('c')], notice });
    const { notice: last, list } = shape(doc, { steps: 3, notice: true });
    expect(textOf(last!)).toBe(notice);
    expect(last!.parent!.type).toBe('document');
    expect(children(doc).at(-1)).toBe(last);
    expect(children(doc).indexOf(list!)).toBe(children(doc).length - 2);
  });

  it('a short cut (locked guide: first step only) ends with the notice as the last paragraph (decisions §3, §5)', () => {
    const notice = lockedNotice('starter');
    const doc = parse({ title: 'T', description: 'D', steps: [step('only the first', 'https://x.example/1.png', 'one')], notice });
    const { notice: last, list } = shape(doc, { steps: 1, notice: true });
    expect(textOf(last!)).toBe(notice);
    expect(children(list!)).toHaveLength(1);
  });

  it('a preview of a guide without steps still ends with the notice, and has no list (decisions §3, §5)', () => {
    const notice = previewNotice('starter', 0, 0);
    const doc = parse({ title: 'T', description: null, steps: [], notice });
    const { notice: last } = shape(doc, { steps: 0, notice: true });
    expect(textOf(last!)).toBe(notice);
  });

  it('a full guide (notice null) has no trailing paragraph after the list (decisions §3)', () => {
    const doc = parse({ title: 'T', description: 'D', steps: [step('a')], notice: null });
    expect(children(doc).at(-1)!.type).toBe('list');
  });

  it('steps 10 and above with multi-line text stay inside their own list item (continuation indentation, decisions §5)', () => {
    const steps = Array.from({ length: 12 }, (_, i) =>
      step(`Step ${i + 1} first line\nsecond line of ${i + 1}\n\n    indented third line`, `https://x.example/${i + 1}.png`, `shot ${i + 1}`),
    );
    const doc = parse({ title: 'T', description: null, steps, notice: previewNotice('free', 12, 20) });
    const { list } = shape(doc, { steps: 12, notice: true });
    children(list!).forEach((item, i) => {
      const paragraph = itemParagraph(item);
      expect(textOf(paragraph)).toBe(`Step ${i + 1} first line\nsecond line of ${i + 1}\nindented third line\n`);
      const image = children(paragraph).at(-1)!;
      expect(image.type).toBe('image');
      expect(image.destination).toBe(`https://x.example/${i + 1}.png`);
      expect(altOf(image)).toBe(`shot ${i + 1}`);
    });
    expect(descendants(doc).filter((n) => n.type === 'code_block')).toHaveLength(0);
  });

  it('100 steps give one list of 100 items in order (decisions §5)', () => {
    const steps = Array.from({ length: 100 }, (_, i) => step(`s${i + 1}`));
    const { list } = shape(parse({ title: 'T', description: null, steps, notice: null }), { steps: 100, notice: false });
    expect(children(list!).map(textOf)).toEqual(steps.map((s) => s.text));
  });
});

describe('exportMarkdown: plain text cannot change the structure (decisions §5)', () => {
  for (const text of ADVERSARIAL) {
    const expected = text.trim();

    it(`a title ${JSON.stringify(text)} stays the heading's plain text (decisions §5)`, () => {
      const doc = parse({ title: text, description: null, steps: [], notice: null });
      const { heading, paragraphs } = shape(doc, { steps: 0, notice: false });
      expect(paragraphs).toHaveLength(0);
      expectPlainInline(heading);
      expect(textOf(heading)).toBe(expected);
    });

    it(`a description ${JSON.stringify(text)} stays one plain paragraph (decisions §5)`, () => {
      const doc = parse({ title: 'T', description: text, steps: [step('a')], notice: null });
      const { paragraphs } = shape(doc, { steps: 1, notice: false });
      expect(paragraphs).toHaveLength(1);
      expectPlainInline(paragraphs[0]!);
      expect(textOf(paragraphs[0]!)).toBe(expected);
    });

    it(`a step text ${JSON.stringify(text)} stays the plain text of its own list item (decisions §5)`, () => {
      const doc = parse({ title: 'T', description: null, steps: [step('before'), step(text), step('after')], notice: null });
      const { list } = shape(doc, { steps: 3, notice: false });
      const items = children(list!);
      const paragraph = itemParagraph(items[1]!);
      expectPlainInline(paragraph);
      expect(textOf(paragraph)).toBe(expected);
      expect(textOf(items[0]!)).toBe('before');
      expect(textOf(items[2]!)).toBe('after');
    });

    it(`a screenshot alt text ${JSON.stringify(text)} stays the image's plain alt text (decisions §5)`, () => {
      const doc = parse({ title: 'T', description: null, steps: [step('s', 'https://x.example/a.png', text)], notice: null });
      const { list } = shape(doc, { steps: 1, notice: false });
      const inlines = children(itemParagraph(children(list!)[0]!));
      expect(inlines.map((n) => n.type)).toEqual(['text', 'softbreak', 'image']);
      const image = inlines[2]!;
      expect(image.destination).toBe('https://x.example/a.png');
      expectPlainInline(image);
      expect(altOf(image)).toBe(expected);
    });
  }

  it('a title ending in a run of # keeps it: "Rank #" is not an ATX closing sequence (decisions §5)', () => {
    for (const title of ['Rank #', 'Use C# ##', 'Tags ###']) {
      const { heading } = shape(parse({ title, description: null, steps: [], notice: null }), { steps: 0, notice: false });
      expect(textOf(heading)).toBe(title);
    }
  });

  it('a multi-line title stays one heading with its words on one line (decisions §5)', () => {
    const doc = parse({ title: 'First line\n# second\r\n\r\n1. third', description: 'D', steps: [], notice: null });
    const { heading, paragraphs } = shape(doc, { steps: 0, notice: false });
    expect(textOf(heading)).toBe('First line # second 1. third');
    expect(paragraphs.map(textOf)).toEqual(['D']);
  });

  it('a multi-line description of markdown-looking lines stays paragraphs of plain text, losing no character (decisions §5)', () => {
    const description = ADVERSARIAL.join('\n');
    const doc = parse({ title: 'T', description, steps: [step('a')], notice: null });
    const { paragraphs } = shape(doc, { steps: 1, notice: false });
    expect(paragraphs).toHaveLength(1);
    expectPlainInline(paragraphs[0]!);
    expect(textOf(paragraphs[0]!).split('\n')).toEqual(ADVERSARIAL.map((line) => line.trim()));
  });

  it('a multi-line step text of markdown-looking lines and blank lines stays one item of plain text (decisions §5)', () => {
    const text = ADVERSARIAL.join('\n\n');
    const doc = parse({ title: 'T', description: null, steps: [step(text, 'https://x.example/a.png', 'alt'), step('next')], notice: null });
    const { list } = shape(doc, { steps: 2, notice: false });
    const paragraph = itemParagraph(children(list!)[0]!);
    expect(children(paragraph).map((n) => n.type).filter((t) => t !== 'text' && t !== 'softbreak')).toEqual(['image']);
    expect(textOf(paragraph).replace(/\n$/, '').split('\n')).toEqual(ADVERSARIAL.map((line) => line.trim()));
    expect(textOf(children(list!)[1]!)).toBe('next');
  });

  it('CRLF and lone CR line endings in a step text are line breaks inside the item, not new blocks (decisions §5)', () => {
    const doc = parse({ title: 'T', description: 'a\r\n# b\rc', steps: [step('x\r\n- y\r\n\r\n> z')], notice: null });
    const { paragraphs, list } = shape(doc, { steps: 1, notice: false });
    expect(paragraphs.map(textOf)).toEqual(['a\n# b\nc']);
    expect(textOf(itemParagraph(children(list!)[0]!))).toBe('x\n- y\n> z');
  });

  it('blank lines inside a step text do not split the list (decisions §5)', () => {
    const doc = parse({ title: 'T', description: null, steps: [step('a\n\n\n\nb'), step('c\n \n\t\nd')], notice: null });
    const { list } = shape(doc, { steps: 2, notice: false });
    expect(children(list!).map((item) => textOf(itemParagraph(item)))).toEqual(['a\nb', 'c\nd']);
  });

  it('a description line "---" or "===" under text does not turn the text into a setext heading (decisions §5)', () => {
    const doc = parse({ title: 'T', description: 'Looks like a heading\n---\nAnd another\n===', steps: [], notice: null });
    const { paragraphs } = shape(doc, { steps: 0, notice: false });
    expect(paragraphs.map(textOf)).toEqual(['Looks like a heading\n---\nAnd another\n===']);
  });

  it('markdown-looking notice text stays the last plain paragraph (decisions §5)', () => {
    const notice = '# Upgrade\n1. now\n> please';
    const doc = parse({ title: 'T', description: null, steps: [step('a')], notice });
    const { notice: last } = shape(doc, { steps: 1, notice: true });
    expectPlainInline(last!);
    expect(textOf(last!)).toBe(notice);
  });

  it('the whole export of adversarial input holds no HTML, code, emphasis, link or quote nodes (decisions §5)', () => {
    const all = ADVERSARIAL.join('\n');
    const doc = parse({
      title: all,
      description: all,
      steps: ADVERSARIAL.map((text) => step(text, 'https://x.example/a.png', text)),
      notice: all,
    });
    shape(doc, { steps: ADVERSARIAL.length, notice: true });
    const forbidden = ['html_block', 'html_inline', 'code', 'code_block', 'emph', 'strong', 'link', 'block_quote', 'thematic_break', 'linebreak'];
    expect(descendants(doc).filter((n) => forbidden.includes(n.type)).map((n) => n.type)).toEqual([]);
    expect(descendants(doc).filter((n) => n.type === 'image')).toHaveLength(ADVERSARIAL.length);
    expect(descendants(doc).filter((n) => n.type === 'list')).toHaveLength(1);
  });
});

describe('exportMarkdown: screenshot URLs (decisions §5)', () => {
  const cases: [string, string][] = [
    ['https://x.example/my shot.png', 'https://x.example/my%20shot.png'],
    ['https://x.example/shot (1).png', 'https://x.example/shot%20%281%29.png'],
    ['https://x.example/a)b.png', 'https://x.example/a%29b.png'],
    ['https://x.example/a(b.png', 'https://x.example/a%28b.png'],
    ['https://x.example/<a>.png', 'https://x.example/%3Ca%3E.png'],
    ['https://x.example/a\\b.png', 'https://x.example/a%5Cb.png'],
    ['https://x.example/a.png "title"', 'https://x.example/a.png%20%22title%22'],
    ['https://x.example/a.png?x=1&y=2#frag', 'https://x.example/a.png?x=1&y=2#frag'],
    ['https://x.example/a.png?s=1&amp;t=2', 'https://x.example/a.png?s=1&amp;t=2'],
    ['https://x.example/[x].png', 'https://x.example/%5Bx%5D.png'],
  ];

  for (const [url, normalized] of cases) {
    it(`a screenshot URL ${JSON.stringify(url)} is one image whose destination is that URL (decisions §5)`, () => {
      const doc = parse({ title: 'T', description: null, steps: [step('s', url, 'alt'), step('next')], notice: null });
      const { list } = shape(doc, { steps: 2, notice: false });
      const inlines = children(itemParagraph(children(list!)[0]!));
      expect(inlines.map((n) => n.type)).toEqual(['text', 'softbreak', 'image']);
      const image = inlines[2]!;
      expect(altOf(image)).toBe('alt');
      // CommonMark percent-encodes a destination; the same URL, encoded, is what a reader follows.
      expect(image.destination).toBe(normalized);
      expect(textOf(children(list!)[1]!)).toBe('next');
    });
  }
});
