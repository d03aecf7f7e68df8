import { randomBytes } from 'node:crypto';
import { SpoolforgeError } from '../shared/spoolforge-error.js';

/** 16 random bytes in base64url: 22 characters, 128 bits. */
const idPattern = /^[A-Za-z0-9_-]{22}$/;

/**
 * A new random artifact id: 22 URL-safe characters (128 bits from the system's CSPRNG), safe in
 * a file name and a URL path segment as it is.
 *
 * @example
 * ```ts
 * const id = newArtifactId(); // 'q3Vx0cTQ9m1Fh2kYd8a7Lw'
 * ```
 */
export function newArtifactId(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * True when `value` has the shape of an artifact id. Every store entry point checks this before
 * a value goes anywhere near a path, so `../x` can only ever be a name.
 *
 * @example
 * ```ts
 * isArtifactId('q3Vx0cTQ9m1Fh2kYd8a7Lw'); // true
 * isArtifactId('../../etc/passwd'); // false
 * ```
 */
export function isArtifactId(value: string): boolean {
  return idPattern.test(value);
}

/**
 * `id` itself when it has the shape of an artifact id (see {@link isArtifactId}), else
 * `E_INVALID_ARGUMENT`: for the entry points that take ids only, never names.
 *
 * @example
 * ```ts
 * checkArtifactId('q3Vx0cTQ9m1Fh2kYd8a7Lw'); // 'q3Vx0cTQ9m1Fh2kYd8a7Lw'
 * checkArtifactId('../../etc/passwd'); // throws E_INVALID_ARGUMENT
 * ```
 */
export function checkArtifactId(id: string): string {
  if (!isArtifactId(id)) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', `Not an artifact id: ${JSON.stringify(id)}`);
  }
  return id;
}
