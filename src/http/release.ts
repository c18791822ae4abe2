// The release this build is (shared decisions §11 "Versioning"): the root package.json's version, which
// heads CHANGELOG.md and is the management API document's info.version. The v1 document keeps the
// specification's 1.0.0: /v1 changes only by adding. Read from the service's package.json, the nearest
// above this module (beside src/, dist/ or a test's build).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function releaseVersion(): string {
  for (let directory = dirname(fileURLToPath(import.meta.url)); ; directory = dirname(directory)) {
    const file = join(directory, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (manifest.name === 'guide-service') return manifest.version;
    }
    if (dirname(directory) === directory) throw new Error("the service's package.json is not above its code");
  }
}

export const RELEASE_VERSION: string = releaseVersion();

/** The licence of the service and its SDKs (LICENSE), as the OpenAPI documents name it. */
export const LICENSE = { name: 'MIT', identifier: 'MIT' };
