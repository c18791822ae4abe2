// METRICS_TOKEN (docs/monitoring.md): unset by default; a value too short to be a secret, or one that
// cannot travel in a bearer header, stops the start with a message naming the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('METRICS_TOKEN', () => {
  it('is unset by default, and kept as given', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: '  ' }).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-token-123' }).metricsToken).toBe('a-long-enough-token-123');
  });

  it('is refused when shorter than 16 characters or with a space inside', () => {
    for (const value of ['short', 'fifteen-chars-x', 'a token with spaces inside']) {
      let error: unknown;
      try {
        loadConfig({ METRICS_TOKEN: value });
      } catch (caught) {
        error = caught;
      }
      expect(error, value).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe('METRICS_TOKEN');
      expect((error as ConfigError).message).not.toContain(value);
    }
  });
});
