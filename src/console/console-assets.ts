// The console's files (HTML, one stylesheet, JavaScript modules), served by the service itself: nothing
// comes from the internet. They are read from `assets/` beside this module (the build copies the page and
// the stylesheet into dist/ and compiles the modules there) and kept in memory once read.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileModule } from './compile-module.js';

export const ASSETS_DIR = fileURLToPath(new URL('./assets/', import.meta.url));

/** Run from source, this module is console-assets.ts, and beside it each `<name>.js` is `<name>.ts`. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Plain names only: nothing that could leave the directory. */
const ASSET_NAME = /^[a-z0-9][a-z0-9-]*\.(html|js|css|svg)$/;

export interface Asset {
  body: Buffer;
  type: string;
}

export class ConsoleAssets {
  private readonly cache = new Map<string, Asset>();

  constructor(private readonly dir = ASSETS_DIR) {}

  available(): boolean {
    return existsSync(join(this.dir, 'index.html'));
  }

  async read(name: string): Promise<Asset | null> {
    if (!ASSET_NAME.test(name)) return null;
    const cached = this.cache.get(name);
    if (cached) return cached;
    try {
      const asset = { body: await this.body(name), type: TYPES[extname(name)]! };
      this.cache.set(name, asset);
      return asset;
    } catch {
      return null;
    }
  }

  private body(name: string): Promise<Buffer> {
    if (FROM_SOURCE && name.endsWith('.js')) return compileModule(join(this.dir, `${name.slice(0, -'.js'.length)}.ts`));
    return readFile(join(this.dir, name));
  }
}
