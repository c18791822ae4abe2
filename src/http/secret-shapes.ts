// What a credential looks like in text, wherever a client put it (decisions §10): API keys and generated
// admin tokens by their prefixes, an API key without its prefix by its checksum, the console's tokens
// (43 base64url characters, sign-in links and sessions), and the bearer tokens of other systems that
// clients paste by habit (JWTs). The request log
// replaces such text (logged-request.ts), a client's X-Request-Id of such a shape is not kept
// (request-id.ts), and every log line passes through scrubSecrets on its way out (service.ts).
import { KEY_PREFIX, keyBodiesIn } from '../domain/api-key-secret.js';

const SHAPES = [
  `${KEY_PREFIX}[0-9A-Za-z_-]+`,
  'adm_[0-9A-Za-z_-]+',
  '(?<![0-9A-Za-z_-])[0-9A-Za-z_-]{43}(?![0-9A-Za-z_-])',
  // Three dot-separated parts: the service's own cursors (base64url JSON, a dot, a MAC) have two.
  'eyJ[0-9A-Za-z_-]{4,}\\.[0-9A-Za-z_-]{4,}\\.[0-9A-Za-z_-]*',
];
const ANY_SHAPE = new RegExp(SHAPES.join('|'));
const EVERY_SHAPE = new RegExp(SHAPES.join('|'), 'g');
/** Prefixed secrets only: a console token's bare shape is left to the places that know a URL or header. */
const PREFIXED = new RegExp(SHAPES.slice(0, 2).join('|'), 'g');

export const REDACTED = '[redacted]';

/** Percent-decoding gives up at this depth: a client that encodes a key three times still has it found. */
const DECODE_DEPTH = 3;

/** The text and what it decodes to, percent-encoding (and `+` for a space) undone up to DECODE_DEPTH times. */
function decodings(text: string): string[] {
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

/**
 * A serialized log line with every prefixed key or token, every key without its prefix and every `literal` (the configured admin
 * token, JSON-escaped as the line holds it) replaced: the net under every log line, whatever wrote it.
 */
export function scrubSecrets(line: string, literals: readonly string[]): string {
  let scrubbed = withoutKeyBodies(line.replace(PREFIXED, REDACTED));
  for (const literal of literals) if (scrubbed.includes(literal)) scrubbed = scrubbed.replaceAll(literal, REDACTED);
  return scrubbed;
}
