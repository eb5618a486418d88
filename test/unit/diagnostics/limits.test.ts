import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, parseFilter } from '../../../src/index.js';
import { resolveLimits } from '../../../src/diagnostics/limits.js';

describe('resolveLimits', () => {
  it('fills unset and undefined fields with the defaults', () => {
    expect(resolveLimits()).toEqual(DEFAULT_LIMITS);
    expect(resolveLimits({ maxDepth: 8, maxLength: undefined })).toEqual({ ...DEFAULT_LIMITS, maxDepth: 8 });
  });

  it('accepts Infinity to lift a bound and 0', () => {
    expect(resolveLimits({ maxLength: Infinity, maxErrors: 0 })).toMatchObject({ maxLength: Infinity, maxErrors: 0 });
  });

  it.each([[NaN], [-1], [1.5], ['10' as unknown as number], [-Infinity], [null as unknown as number]])(
    'takes the default for %j instead of disabling the bound',
    (value) => {
      expect(resolveLimits({ maxLength: value }).maxLength).toBe(DEFAULT_LIMITS.maxLength);
    },
  );

  it('an undefined maxLength keeps the length check', () => {
    const long = 'A.Equal(1);'.repeat(1000);
    expect(parseFilter(long, { limits: { maxLength: undefined } }).diagnostics.map((d) => d.code)).toContain('text-too-long');
  });
});
