import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTokenCodec } from '../../../src/list/index.js';
import { WepqlError } from '../../../src/index.js';
import type { DataTokenPayload } from '../../../src/list/index.js';

const ROUTE = '/api/public/clients/1/employees';
const SECRET = 'test secret of at least sixteen bytes';
const payload: DataTokenPayload = {
  route: ROUTE,
  filter: "LastName.StartsWith('O''Br');Or(Gender.Equal(1);Salary.GreaterThan(1000))",
  sort: 'LastName=Asc;Id=Desc',
  includeDeleted: true,
  limit: 25,
  page: 3,
  totalRecords: 230,
  totalPages: 10,
};

function clock(start = 1_700_000_000_000): { now: () => number; advance(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

function flip(token: string, index: number): string {
  const c = token[index] === 'A' ? 'B' : 'A';
  return token.slice(0, index) + c + token.slice(index + 1);
}

describe('createTokenCodec', () => {
  it('round-trips every field and stamps a 60 s lifetime', async () => {
    const c = clock();
    const codec = createTokenCodec({ secret: SECRET, now: c.now });
    const token = await codec.issue(payload);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const checked = await codec.verify(token, ROUTE);
    expect(checked).toEqual({ ok: true, payload: { ...payload, issuedAt: c.now(), expiresAt: c.now() + 60_000 } });
  });

  it('never carries the secret', async () => {
    const codec = createTokenCodec({ secret: SECRET });
    const token = await codec.issue(payload);
    const body = Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8');
    expect(body).not.toContain(SECRET);
    expect(token).not.toContain(Buffer.from(SECRET).toString('base64url').slice(0, 12));
  });

  it('accepts a token until 60 s after issue and refuses it from then on', async () => {
    const c = clock();
    const codec = createTokenCodec({ secret: SECRET, now: c.now });
    const token = await codec.issue(payload);
    c.advance(59_999);
    expect((await codec.verify(token, ROUTE)).ok).toBe(true);
    c.advance(1);
    const late = await codec.verify(token, ROUTE);
    expect(late).toMatchObject({ ok: false, reason: 'expired' });
    expect(late.ok === false && late.message).toMatch(/expired at 2023-11-14T22:14:20\.000Z \(tokens live 60 s\)/);
  });

  it('honours ttlSeconds', async () => {
    const c = clock();
    const codec = createTokenCodec({ secret: SECRET, now: c.now, ttlSeconds: 5 });
    const token = await codec.issue(payload);
    c.advance(5_000);
    expect(await codec.verify(token, ROUTE)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('refuses a future-dated token', async () => {
    const c = clock();
    const issuer = createTokenCodec({ secret: SECRET, now: () => c.now() + 10_000 });
    const verifier = createTokenCodec({ secret: SECRET, now: c.now });
    const checked = await verifier.verify(await issuer.issue(payload), ROUTE);
    expect(checked).toMatchObject({ ok: false, reason: 'future' });
  });

  it('tolerates clockSkewMs of future dating', async () => {
    const c = clock();
    const issuer = createTokenCodec({ secret: SECRET, now: () => c.now() + 2_000 });
    const verifier = createTokenCodec({ secret: SECRET, now: c.now, clockSkewMs: 5_000 });
    expect((await verifier.verify(await issuer.issue(payload), ROUTE)).ok).toBe(true);
  });

  it('is bound to its route', async () => {
    const codec = createTokenCodec({ secret: SECRET });
    const token = await codec.issue(payload);
    const checked = await codec.verify(token, '/api/public/clients/2/employees');
    expect(checked).toMatchObject({ ok: false, reason: 'wrong-route' });
  });

  it('refuses a token signed with another secret', async () => {
    const other = createTokenCodec({ secret: 'another secret, also long enough' });
    const codec = createTokenCodec({ secret: SECRET });
    expect(await codec.verify(await other.issue(payload), ROUTE)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('accepts tokens of a previous secret after rotation, and issues with the new one', async () => {
    const old = createTokenCodec({ secret: SECRET });
    const rotated = createTokenCodec({ secret: 'the new secret after rotation', previousSecrets: [SECRET] });
    expect((await rotated.verify(await old.issue(payload), ROUTE)).ok).toBe(true);
    const fresh = await rotated.issue(payload);
    expect(await old.verify(fresh, ROUTE)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('checks the length before anything else', async () => {
    const codec = createTokenCodec({ secret: SECRET });
    const checked = await codec.verify('x'.repeat(8193), ROUTE);
    expect(checked).toEqual({
      ok: false,
      reason: 'oversized',
      message: 'the data token is 8193 characters long; at most 8192 are accepted',
    });
    expect(await codec.verify('@'.repeat(8192), ROUTE)).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it.each([
    ['', 'empty'],
    ['abc', 'no dot'],
    ['.abc', 'no payload'],
    ['abc.def', 'short MAC'],
    ['ab$c.' + 'A'.repeat(43), 'payload outside base64url'],
    ['abc.' + 'A'.repeat(42) + '=', 'MAC with padding'],
    ['a.b.' + 'A'.repeat(43), 'two dots'],
  ])('refuses %j as malformed (%s)', async (token) => {
    const codec = createTokenCodec({ secret: SECRET });
    expect(await codec.verify(token, ROUTE)).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('refuses a validly signed payload that is not a paging state', async () => {
    // Sign something else with the real key: the MAC passes, the shape check must not.
    const codec = createTokenCodec({ secret: SECRET });
    const token = await codec.issue({ ...payload, limit: 0 });
    expect(await codec.verify(token, ROUTE)).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('refuses every single-character alteration', async () => {
    const codec = createTokenCodec({ secret: SECRET });
    const token = await codec.issue(payload);
    for (let i = 0; i < token.length; i++) {
      if (token[i] === '.') continue;
      const checked = await codec.verify(flip(token, i), ROUTE);
      expect(checked.ok, `altered at ${i}`).toBe(false);
      if (!checked.ok) expect(['bad-signature', 'malformed']).toContain(checked.reason);
    }
  });

  it("refuses the other spellings of the MAC's last character (its two spare bits)", async () => {
    const codec = createTokenCodec({ secret: SECRET });
    const token = await codec.issue(payload);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(token.at(-1)!);
    for (const spare of [1, 2, 3]) {
      const altered = token.slice(0, -1) + alphabet[last ^ spare];
      expect(await codec.verify(altered, ROUTE)).toMatchObject({ ok: false, reason: 'bad-signature' });
    }
  });

  it('never throws and never accepts arbitrary text', async () => {
    const codec = createTokenCodec({ secret: SECRET });
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
        const checked = await codec.verify(text, ROUTE);
        expect(checked.ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips any payload', async () => {
    const codec = createTokenCodec({ secret: SECRET });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          route: fc.string(),
          filter: fc.string({ unit: 'grapheme' }),
          sort: fc.string(),
          includeDeleted: fc.boolean(),
          limit: fc.integer({ min: 1, max: 1000 }),
          page: fc.integer({ min: 1, max: 1e6 }),
          totalRecords: fc.nat(),
          totalPages: fc.nat(),
          // An estimated total is a flag bit of the token: present only when true.
          totalEstimated: fc.option(fc.constant(true as const), { nil: undefined }),
        }),
        async (p) => {
          const checked = await codec.verify(await codec.issue(p), p.route);
          expect(checked.ok && { ...checked.payload, issuedAt: 0, expiresAt: 0 }).toEqual({ ...p, issuedAt: 0, expiresAt: 0 });
        },
      ),
      { numRuns: 100 },
    );
  });

  it.each([
    [{ secret: 'short' }, /secret is 5 bytes long; a data token secret needs at least 16/],
    [{ secret: SECRET, previousSecrets: ['tiny'] }, /previousSecrets\[0\] is 4 bytes long/],
    [{ secret: SECRET, ttlSeconds: 0 }, /ttlSeconds must be a positive number/],
  ])('refuses options %j', (options, message) => {
    expect(() => createTokenCodec(options)).toThrow(WepqlError);
    expect(() => createTokenCodec(options)).toThrow(message);
  });

  describe('token-codec-options-unchecked', () => {
    // Each of these was accepted, and the codec's own verify then refused every token it issued.
    it.each([
      [{ clockSkewMs: -1 }, /^clockSkewMs must be a whole number of milliseconds, 0 or more, got -1$/],
      [{ clockSkewMs: 0.5 }, /^clockSkewMs must be .* got 0\.5$/],
      [{ clockSkewMs: Number.NaN }, /^clockSkewMs must be .* got NaN$/],
      [
        { ttlSeconds: 0.0001 },
        /^ttlSeconds must be a positive number of seconds from 0\.001 \(1 ms\) to 3153600000 \(100 years\), got 0\.0001$/,
      ],
      [{ ttlSeconds: 1e13 }, /^ttlSeconds must be .* got 10000000000000$/],
      [{ ttlSeconds: Infinity }, /^ttlSeconds must be .* got Infinity$/],
      [{ ttlSeconds: Number.NaN }, /^ttlSeconds must be .* got NaN$/],
      [{ maxLength: 0 }, /^maxLength must be a positive whole number of characters, got 0$/],
      [{ maxLength: Number.NaN }, /^maxLength must be .* got NaN$/],
      [{ maxLength: 100.5 }, /^maxLength must be .* got 100\.5$/],
    ])('refuses %j at creation', (options, message) => {
      expect(() => createTokenCodec({ secret: SECRET, ...options })).toThrow(WepqlError);
      expect(() => createTokenCodec({ secret: SECRET, ...options })).toThrow(message);
    });

    it.each([[{ ttlSeconds: 0.001 }], [{ ttlSeconds: 3_153_600_000 }], [{ clockSkewMs: 0 }], [{ clockSkewMs: 5000 }]])(
      'verifies what it issues at the edges of what it accepts: %j',
      (options) => {
        const at = 1_700_000_000_000;
        const codec = createTokenCodec({ secret: SECRET, now: () => at, ...options });
        const token = codec.issue({
          route: '/r',
          filter: '',
          sort: '',
          includeDeleted: false,
          limit: 5,
          page: 1,
          totalRecords: 9,
          totalPages: 2,
        });
        expect(codec.verify(token, '/r').ok).toBe(true);
      },
    );
  });

  it('accepts a Uint8Array secret', async () => {
    const codec = createTokenCodec({ secret: new Uint8Array(32).fill(7) });
    expect((await codec.verify(await codec.issue(payload), ROUTE)).ok).toBe(true);
  });
});

describe('token keys and rotation', () => {
  const NEW = 'the new secret after rotation!!';
  it('issues and verifies synchronously', () => {
    const codec = createTokenCodec({ secret: SECRET });
    const token = codec.issue(payload);
    expect(typeof token).toBe('string');
    expect(codec.verify(token, ROUTE).ok).toBe(true);
  });

  it('names the signing key in the token: a verifier tries only that key', () => {
    const a = createTokenCodec({ secret: SECRET });
    const b = createTokenCodec({ secret: NEW, previousSecrets: [SECRET] });
    const fromA = a.issue(payload);
    const fromB = b.issue(payload);
    // Same payload, same second: the tokens differ in the key id (bytes 2-5 of the payload).
    expect(fromA.slice(0, 2)).toBe(fromB.slice(0, 2));
    expect(fromA.slice(2, 8)).not.toBe(fromB.slice(2, 8));
    expect(b.verify(fromA, ROUTE).ok).toBe(true);
    expect(a.verify(fromB, ROUTE)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('switches the signing key at signsFrom and refuses the old one after verifiesUntil', () => {
    const c = clock();
    const switchAt = c.now() + 30_000;
    const ring = {
      keys: [
        { secret: SECRET, verifiesUntil: switchAt + 60_000 },
        { secret: NEW, signsFrom: switchAt },
      ],
      now: c.now,
    };
    const codec = createTokenCodec(ring);
    const oldOnly = createTokenCodec({ secret: SECRET, now: c.now });
    const newOnly = createTokenCodec({ secret: NEW, now: c.now });
    const before = codec.issue(payload);
    expect(oldOnly.verify(before, ROUTE).ok).toBe(true);
    c.advance(30_000);
    const after = codec.issue(payload);
    expect(newOnly.verify(after, ROUTE).ok).toBe(true);
    expect(oldOnly.verify(after, ROUTE).ok).toBe(false);
    // A token of the old key, issued just before the switch, still verifies while it lives.
    c.advance(-1);
    const late = codec.issue(payload);
    c.advance(20_000);
    expect(codec.verify(late, ROUTE).ok).toBe(true);
    // After the old key retires, its tokens are refused even by a codec with a long ttl.
    const longLived = createTokenCodec({ ...ring, ttlSeconds: 3600 });
    c.advance(-20_000);
    const lingering = longLived.issue(payload);
    c.advance(61_000);
    expect(longLived.verify(lingering, ROUTE)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('refuses to be created without a key, and with a schedule where no key signs yet it throws on issue', () => {
    expect(() => createTokenCodec({})).toThrow(/at least one secret/);
    const codec = createTokenCodec({ keys: [{ secret: SECRET, signsFrom: Date.now() + 3_600_000 }] });
    expect(() => codec.issue(payload)).toThrow(/no data token key signs at this time/);
  });

  it('finding 5: issues a token only when verify accepts it (inflated size as well as length)', () => {
    const codec = createTokenCodec({ secret: SECRET });
    // 70,000 × x compresses to a short token whose payload inflates past 64 KiB.
    const sort = 'x'.repeat(70_000);
    const issued = codec.tryIssue({ ...payload, sort });
    expect(issued).toMatchObject({ ok: false, reason: 'oversized' });
    expect(() => codec.issue({ ...payload, sort })).toThrow(/65536 are accepted/);
    const keys = { first: ['x'.repeat(70_000), 1], last: ['y', 2] };
    expect(codec.tryIssue({ ...payload, keys })).toMatchObject({ ok: false, reason: 'oversized' });
    // Whatever tryIssue hands out, verify accepts; whatever it refuses is over a limit verify enforces.
    for (let n = 7_000; n < 9_000; n += 37) {
      const p = { ...payload, filter: Array.from({ length: n }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join('') };
      const t = codec.tryIssue(p);
      if (t.ok) expect(codec.verify(t.token, ROUTE).ok).toBe(true);
      else expect(t.message).toMatch(/at most 8192 are accepted/);
    }
  });

  it('carries one-sided keys (an empty page keeps the key it sought from)', () => {
    const codec = createTokenCodec({ secret: SECRET });
    const checked = codec.verify(codec.issue({ ...payload, keys: { last: ['Smith', 7] } }), ROUTE);
    expect(checked.ok && checked.payload.keys).toEqual({ last: ['Smith', 7] });
  });
});

describe('token MACs', () => {
  it("are the same bytes with Node's HMAC and with @noble/hashes (so browsers and servers agree)", async () => {
    const { hmac } = await import('@noble/hashes/hmac.js');
    const { sha256 } = await import('@noble/hashes/sha2.js');
    const codec = createTokenCodec({ secret: SECRET });
    const token = codec.issue(payload);
    const [payloadText, macText] = token.split('.') as [string, string];
    const expected = hmac(sha256, new TextEncoder().encode(SECRET), new TextEncoder().encode(`wepql-data-token-v2.${payloadText}`));
    expect(Buffer.from(expected).toString('base64url')).toBe(macText);
  });
});
