import { describe, expect, it } from 'vitest';
import { compactJsonBytes } from '../../src/artifact/json/compact-json-bytes.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** Integers below `below`, drawn from a seeded generator so a failure can be replayed. */
function random(seed: number) {
  const next = seededRandom(seed);
  return (below: number) => Math.floor(next() * below) % below;
}

/** Characters JSON.stringify treats each its own way, and some it keeps. */
const characters = ['a', '"', '\\', '\n', '\t', '\b', '\f', '\r', '\u000b', '\u0000', '\u001f'];
characters.push('\u007f', 'é', '€', '\u2028', '😀', '\ud800', '\udfff', '\udc00\ud800', '/');
const numbers = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 123_456_789_012, 2 ** 53 + 2, 1.5e300, -5e-324];
numbers.push(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY); // JSON.parse of 1e400, -1e400

function randomValue(next: (below: number) => number, depth: number): unknown {
  const pick = next(depth > 4 ? 5 : 7);
  if (pick === 0) return null;
  if (pick === 1) return next(2) === 0;
  if (pick === 2) return numbers[next(numbers.length)];
  if (pick === 3 || pick === 4) {
    return Array.from({ length: next(6) }, () => characters[next(characters.length)]).join('');
  }
  if (pick === 5) return Array.from({ length: next(5) }, () => randomValue(next, depth + 1));
  const object: Record<string, unknown> = {};
  for (let member = next(5); member > 0; member--) {
    const key = ['id', '__proto__', 'k"', 'é', '', '\n'][next(6)] as string;
    Object.defineProperty(object, key, {
      value: randomValue(next, depth + 1),
      enumerable: true,
      configurable: true,
      writable: true,
    });
  }
  return object;
}

describe('compactJsonBytes', () => {
  it("equals JSON.stringify's UTF-8 bytes on random values of every kind", () => {
    const next = random(7);
    const values = Array.from({ length: 5_000 }, () => randomValue(next, 0));
    expect(values.map((value) => compactJsonBytes(value))).toEqual(
      values.map((value) => Buffer.byteLength(JSON.stringify(value))),
    );
  });

  it('counts what JSON.parse made of a text, escapes and big numbers included', () => {
    const text = `{"a":[1e400,1E3,0.50,-0.0,"\\u00e9\\/\\ud83d\\ude00\\udc00",{"a":1,"a":2}],"\\u0041":null}`;
    const value = JSON.parse(text);
    expect(compactJsonBytes(value)).toBe(Buffer.byteLength(JSON.stringify(value)));
  });

  it('is exact up to the limit and over it past, stopping early', () => {
    const rows = Array.from({ length: 100_000 }, (_, id) => ({ id, name: `row ${id}` }));
    const whole = Buffer.byteLength(JSON.stringify(rows));
    expect(compactJsonBytes(rows, whole)).toBe(whole);
    const cut = compactJsonBytes(rows, 200_000);
    expect(cut).toBeGreaterThan(200_000);
    expect(cut).toBeLessThan(200_100);
    expect(compactJsonBytes('x'.repeat(5000), 10)).toBe(5002);
  });

  it('walks a nesting deeper than JSON.stringify can', () => {
    const depth = 1_000_000;
    const nested = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    expect(() => JSON.stringify(nested)).toThrow(RangeError);
    expect(compactJsonBytes(nested)).toBe(2 * depth);
    expect(compactJsonBytes(nested, 100)).toBeLessThan(200);
  });
});
