// Issue 45: one HAProxy configuration. deploy/haproxy.cfg is what docs/deploy.md shows ("Behind a load
// balancer: HAProxy"), what compose.yaml mounts, and what the balancer tests run (test/support/haproxy.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/build.js';
import { documentedHaproxyConfig, HAPROXY_CONFIG, HAPROXY_GLOBAL_CONFIG, haproxyBlockOfDeployDoc } from '../support/haproxy.js';

describe('the documented HAProxy configuration is one file', () => {
  it('docs/deploy.md shows deploy/haproxy.cfg as it is', () => {
    expect(haproxyBlockOfDeployDoc()).toBe(documentedHaproxyConfig());
  });

  it('compose.yaml mounts that file and the packaged sections it is appended to', () => {
    const compose = readFileSync(join(projectRoot, 'compose.yaml'), 'utf8');
    expect(compose).toContain(`./${HAPROXY_CONFIG}:/usr/local/etc/haproxy/haproxy.cfg:ro`);
    expect(compose).toContain(`./${HAPROXY_GLOBAL_CONFIG}:/usr/local/etc/haproxy/haproxy-global.cfg:ro`);
  });
});
