// The management API's bearer token: ADMIN_TOKEN when set, otherwise generated on first start and kept in
// the data directory (readable by its owner only) so that it survives restarts; and its comparison.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface AdminToken {
  token: string;
  generated: boolean;
}

export function resolveAdminToken(configured: string | null, dataDir: string): AdminToken {
  if (configured) return { token: configured, generated: false };
  const path = join(dataDir, 'admin-token');
  try {
    const stored = readFileSync(path, 'utf8').trim();
    if (stored) return { token: stored, generated: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = 'adm_' + randomBytes(24).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path, token + '\n', { mode: 0o600 });
  return { token, generated: true };
}

/** Whether a text is the admin token; comparing digests keeps it constant-time whatever the length. */
export function adminTokenCheck(adminToken: string): (given: string) => boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const expected = digest(adminToken);
  return (given) => timingSafeEqual(digest(given), expected);
}
