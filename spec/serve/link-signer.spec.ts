import { createHmac } from 'node:crypto';
import { createLinkSigner, SpoolforgeError } from 'spoolforge';
import { describe, expect, it } from 'vitest';

const key = 'k'.repeat(32);
const otherKey = Buffer.alloc(32, 7);
const start = Date.parse('2026-01-01T00:00:00Z');

/** A signer whose clock the test moves. */
function signerAt(options: { keys?: (string | Uint8Array)[]; ttl?: number } = {}) {
  const clock = { now: start };
  const signer = createLinkSigner({
    ...(options.keys === undefined ? { key } : { keys: options.keys }),
    ...(options.ttl === undefined ? {} : { ttl: options.ttl }),
    now: () => clock.now,
  });
  return { signer, clock };
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return SpoolforgeError.isInstance(error) ? error.code : 'not a SpoolforgeError';
  }
  return undefined;
}

describe('createLinkSigner', () => {
  it('adds expires (epoch seconds) and an HMAC-SHA256 signature over the path and the expiry', () => {
    const { signer } = signerAt();
    const link = signer.sign('/artifacts/AbC?op=grep&pattern=ERROR', { expiresIn: 90_000 });
    const url = new URL(link, 'http://localhost');
    expect(url.pathname).toBe('/artifacts/AbC');
    expect(url.searchParams.get('op')).toBe('grep');
    expect(url.searchParams.get('pattern')).toBe('ERROR');
    expect(url.searchParams.get('expires')).toBe(String(start / 1000 + 90));
    const expected = createHmac('sha256', key)
      .update(`spoolforge-link-v1\n/artifacts/AbC\n${start / 1000 + 90}`)
      .digest('base64url');
    expect(url.searchParams.get('signature')).toBe(expected);
    expect(link.startsWith('/artifacts/AbC?')).toBe(true);
    expect(signer.verify(link)).toEqual({
      valid: true,
      scope: '/artifacts/AbC',
      expiresAt: (start / 1000 + 90) * 1000,
    });
  });

  it('keeps an absolute URL absolute, and does not sign the other query parameters', () => {
    const { signer } = signerAt();
    const link = signer.sign('https://agent.example/artifacts/AbC/view?op=read');
    expect(link).toMatch(
      /^https:\/\/agent\.example\/artifacts\/AbC\/view\?op=read&expires=\d+&signature=/,
    );
    const changedQuery = new URL(link);
    changedQuery.searchParams.set('op', 'grep');
    changedQuery.searchParams.set('pattern', 'x');
    expect(signer.verify(changedQuery).valid).toBe(true);
    // The default ttl is an hour.
    expect(Number(changedQuery.searchParams.get('expires'))).toBe(start / 1000 + 3600);
  });

  it('refuses a changed path, expiry or signature, and says why', () => {
    const { signer } = signerAt();
    const link = new URL(signer.sign('/artifacts/AbC', { expiresIn: 60_000 }), 'http://localhost');
    const variant = (change: (url: URL) => void) => {
      const copy = new URL(link.href);
      change(copy);
      return signer.verify(copy);
    };
    expect(
      variant((url) => {
        url.pathname = '/artifacts/AbD';
      }),
    ).toEqual({ valid: false, reason: 'invalid' });
    expect(
      variant((url) => {
        url.pathname = '/artifacts/AbC/view';
      }),
    ).toEqual({ valid: false, reason: 'invalid' });
    expect(
      variant((url) => {
        url.searchParams.set('expires', String(start / 1000 + 61));
      }),
    ).toEqual({
      valid: false,
      reason: 'invalid',
    });
    const signature = link.searchParams.get('signature') ?? '';
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(
      variant((url) => {
        url.searchParams.set('signature', flipped);
      }),
    ).toEqual({
      valid: false,
      reason: 'invalid',
    });
    // The last character's unused bits: a second spelling of the same bytes is not accepted.
    const last = signature.at(-1) ?? 'A';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1] ?? 'A';
    expect(
      variant((url) => {
        url.searchParams.set('signature', signature.slice(0, -1) + sibling);
      }),
    ).toEqual({
      valid: false,
      reason: 'malformed',
    });
    expect(
      variant((url) => {
        url.searchParams.delete('signature');
      }),
    ).toEqual({ valid: false, reason: 'malformed' });
    expect(
      variant((url) => {
        url.searchParams.append('expires', '9999999999');
      }),
    ).toEqual({
      valid: false,
      reason: 'malformed',
    });
    expect(
      variant((url) => {
        url.searchParams.set('expires', `0${url.searchParams.get('expires')}`);
      }),
    ).toEqual({
      valid: false,
      reason: 'malformed',
    });
    expect(signer.verify('/artifacts/AbC')).toEqual({ valid: false, reason: 'missing' });
    expect(createLinkSigner({ key: otherKey }).verify(link)).toEqual({
      valid: false,
      reason: 'invalid',
    });
  });

  it('expires at its second, by the injected clock', () => {
    const { signer, clock } = signerAt({ ttl: 5_000 });
    const link = signer.sign('/artifacts/AbC');
    clock.now = start + 4_999;
    expect(signer.verify(link).valid).toBe(true);
    clock.now = start + 5_000;
    expect(signer.verify(link)).toEqual({ valid: false, reason: 'expired' });
    // A time given outright is rounded up to the second.
    const at = signer.sign('/x', { expiresAt: new Date(start + 10_500) });
    expect(new URL(at, 'http://localhost').searchParams.get('expires')).toBe(
      String(start / 1000 + 11),
    );
  });

  it('signs with the first of its keys and verifies with any of them, so keys can rotate', () => {
    const old = signerAt({ keys: [otherKey] }).signer;
    const rotated = signerAt({ keys: [key, otherKey] }).signer;
    const oldLink = old.sign('/artifacts/AbC');
    const newLink = rotated.sign('/artifacts/AbC');
    expect(rotated.verify(oldLink).valid).toBe(true);
    expect(rotated.verify(newLink).valid).toBe(true);
    expect(signerAt().signer.verify(newLink).valid).toBe(true);
    expect(old.verify(newLink)).toEqual({ valid: false, reason: 'invalid' });
  });

  it('signs a scope other than the link path, and compares paths canonically', () => {
    const { signer } = signerAt();
    const view = signer.sign('/artifacts/build%20log/view?op=read', {
      scope: '/artifacts/build log/',
    });
    expect(signer.verify(view).valid).toBe(false);
    expect(signer.verify(view, { scope: '/artifacts/build%20log' })).toMatchObject({
      valid: true,
      scope: '/artifacts/build%20log',
    });
    const index = signer.sign('/artifacts/');
    expect(signer.verify(index.replace('/artifacts/', '/artifacts')).valid).toBe(true);
    // An encoded slash stays inside its segment.
    const slash = signer.sign('/artifacts/a%2Fb');
    expect(signer.verify(slash.replace('a%2Fb', 'a/b')).valid).toBe(false);
    expect(signer.verify(slash.replace('/artifacts/a%2Fb', '/x/../artifacts/a%2Fb')).valid).toBe(
      true,
    );
  });

  it('refuses short keys, mixed options and bad expiries with E_INVALID_ARGUMENT', () => {
    expect(codeOf(() => createLinkSigner({ key: 'k'.repeat(31) }))).toBe('E_INVALID_ARGUMENT');
    expect(codeOf(() => createLinkSigner({ keys: [key, new Uint8Array(16)] }))).toBe(
      'E_INVALID_ARGUMENT',
    );
    expect(codeOf(() => createLinkSigner({ keys: [] }))).toBe('E_INVALID_ARGUMENT');
    expect(codeOf(() => createLinkSigner({}))).toBe('E_INVALID_ARGUMENT');
    expect(codeOf(() => createLinkSigner({ key, keys: [key] }))).toBe('E_INVALID_ARGUMENT');
    expect(codeOf(() => createLinkSigner({ key, ttl: 0 }))).toBe('E_INVALID_ARGUMENT');
    expect(codeOf(() => createLinkSigner({ key, ttl: Number.POSITIVE_INFINITY }))).toBe(
      'E_INVALID_ARGUMENT',
    );
    const { signer } = signerAt();
    expect(codeOf(() => signer.sign('/x', { expiresIn: -1 }))).toBe('E_INVALID_ARGUMENT');
    expect(codeOf(() => signer.sign('/x', { expiresIn: 1, expiresAt: start + 1 }))).toBe(
      'E_INVALID_ARGUMENT',
    );
    expect(codeOf(() => signer.sign('/x', { expiresAt: new Date(Number.NaN) }))).toBe(
      'E_INVALID_ARGUMENT',
    );
    expect(codeOf(() => signer.sign('artifacts/x'))).toBe('E_INVALID_ARGUMENT');
    // Past what a Date holds, an expiry could not be written back: refused rather than a dead link.
    expect(codeOf(() => signer.sign('/x', { expiresIn: 1e20 }))).toBe('E_INVALID_ARGUMENT');
    expect(signer.verify(signer.sign('/x', { expiresAt: new Date(8.64e15) })).valid).toBe(true);
    // The key is copied: zeroing the caller's buffer later changes nothing.
    const bytes = Buffer.alloc(32, 9);
    const copied = createLinkSigner({ key: bytes });
    const link = copied.sign('/x');
    bytes.fill(0);
    expect(copied.verify(link).valid).toBe(true);
  });
});
