// What a credential looks like in text, wherever a client put it (decisions §9, §10): API keys, generated
// admin tokens and webhook signing keys by their prefixes (the Standard Webhooks secret also without its
// own), an API key without its prefix by its checksum, 43 base64url characters (the console's sign-in
// links and sessions, a signing key without its prefix), and the bearer tokens of other systems that
// clients paste by habit (JWTs). The request log replaces such text (logged-request.ts), a client's
// X-Request-Id of such a shape is not kept (request-id.ts), and every log line passes through a
// secretScrubber on its way out (service.ts), which also knows the admin token itself.
import { KEY_PREFIX, keyBodiesIn } from '../domain/api-key-secret.js';

/**
 * A credential's body after its prefix: characters of its alphabet, or any character percent-encoded (a
 * client's partial encoding, `adm_abc%2Dxyz`, is the credential still).
 */
const body = (alphabet: string) => `(?:[${alphabet}]|%[0-9A-Fa-f]{2})+`;
/** Base64 padding, unless text follows it: `?whsec_…=1` keeps its `=1`. */
const PADDING = '(?:={1,2}(?![0-9A-Za-z]))?';

/** Credentials that carry a prefix: found by it in any text. */
const PREFIXED_SHAPES = [
  `${KEY_PREFIX}${body('0-9A-Za-z_-')}`,
  `adm_${body('0-9A-Za-z_-')}`,
  // A webhook signing key (base64url), and the Standard Webhooks secret (base64, with `+`, `/` and `=`).
  `whsec_${body('0-9A-Za-z_+/-')}${PADDING}`,
  // The Standard Webhooks secret without its prefix: the base64 of a key that starts with `whsec_`.
  `d2hzZWNf${body('0-9A-Za-z+/')}${PADDING}`,
];
const SHAPES = [
  ...PREFIXED_SHAPES,
  '(?<![0-9A-Za-z_-])[0-9A-Za-z_-]{43}(?![0-9A-Za-z_-])',
  // Three dot-separated parts: the service's own cursors (base64url JSON, a dot, a MAC) have two.
  'eyJ[0-9A-Za-z_-]{4,}\\.[0-9A-Za-z_-]{4,}\\.[0-9A-Za-z_-]*',
];
const ANY_SHAPE = new RegExp(SHAPES.join('|'));
const EVERY_SHAPE = new RegExp(SHAPES.join('|'), 'g');
/** Prefixed secrets only: a console token's bare shape is left to the places that know a URL or header. */
const PREFIXED = new RegExp(PREFIXED_SHAPES.join('|'), 'g');

/** The prefixes a client may leave off a credential: what follows one is the credential still. */
const CREDENTIAL_PREFIXES = [KEY_PREFIX, 'adm_', 'whsec_'];

export const REDACTED = '[redacted]';

/** Percent-decoding gives up at this depth: a client that encodes a key three times still has it found. */
const DECODE_DEPTH = 3;

/** The text and what it decodes to, percent-encoding (and `+` for a space) undone up to DECODE_DEPTH times. */
export function decodings(text: string): string[] {
  const forms = [text];
  let current = text;
  for (let depth = 0; depth < DECODE_DEPTH && current.includes('%'); depth++) {
    try {
      current = decodeURIComponent(current.replaceAll('+', ' '));
    } catch {
      break;
    }
    forms.push(current);
  }
  return forms;
}

/** Whether the text, or what it decodes to, holds a credential's shape. */
export function hasSecretShape(text: string): boolean {
  return decodings(text).some((form) => ANY_SHAPE.test(form) || keyBodiesIn(form).length > 0);
}

function withoutKeyBodies(text: string): string {
  let scrubbed = text;
  for (const body of keyBodiesIn(text)) scrubbed = scrubbed.replaceAll(body, REDACTED);
  return scrubbed;
}

/** The text with every credential-shaped run replaced (not decoded: for text that is not a URL part). */
export function withoutSecretShapes(text: string): string {
  return withoutKeyBodies(text.replace(EVERY_SHAPE, REDACTED));
}

/** A character written as a regular expression's code point escape, so that no character needs escaping. */
const codePoint = (char: string) => `\\u{${char.codePointAt(0)!.toString(16)}}`;

/** A hexadecimal digit in either letter case. */
const hexDigit = (digit: string) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit);

/** A byte percent-encoded once or more (`%2F`, `%252f`): the `%` itself may be encoded again and again. */
const percentEncoded = (byte: number) => `%(?:25)*${[...byte.toString(16).padStart(2, '0')].map(hexDigit).join('')}`;

/**
 * One character of a literal as a log line may hold it: itself (JSON-escaped, as the line is JSON) or its
 * UTF-8 bytes percent-encoded, once or more; `+` and a space stand for each other, as in a query string.
 */
function characterPattern(char: string): string {
  if (char === '+' || char === ' ') return `(?:[+ ]|${percentEncoded(0x2b)}|${percentEncoded(0x20)})`;
  const itself = [...JSON.stringify(char).slice(1, -1)].map(codePoint).join('');
  return `(?:${itself}|${[...Buffer.from(char, 'utf8')].map(percentEncoded).join('')})`;
}

/**
 * A function that replaces, in a serialized log line, every prefixed key or token, every key without its
 * prefix and every `literal` (the admin token) in any form a client can send it: raw, percent-encoded
 * once or more, with `+` for a space, and for a prefixed one without its prefix. The net under every log
 * line, whatever wrote it.
 */
export function secretScrubber(literals: readonly string[]): (line: string) => string {
  const patterns = literals.map((literal) => {
    // A prefixed literal is looked for by what follows its prefix: found so with the prefix and without.
    const prefix = CREDENTIAL_PREFIXES.find((candidate) => literal.startsWith(candidate)) ?? '';
    return new RegExp([...literal.slice(prefix.length)].map(characterPattern).join(''), 'gu');
  });
  return (line) => {
    let scrubbed = withoutKeyBodies(line.replace(PREFIXED, REDACTED));
    for (const pattern of patterns) scrubbed = scrubbed.replace(pattern, REDACTED);
    return scrubbed;
  };
}
