import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesUnder, repositoryRoot } from '../helpers/repository-files.js';

/**
 * What points a reader outside the repository: a contract document kept elsewhere, a tracker's
 * ticket number, a section sign that is not an RFC's. Rules are stated where they apply instead.
 * The patterns are assembled from pieces, so that this file names none of what it forbids.
 */
const outsideCitations: { what: string; pattern: RegExp }[] = [
  {
    what: 'a contract document kept outside the repository',
    pattern: new RegExp(`\\b${['DES', 'IGN'].join('')}\\b`),
  },
  { what: "a tracker's ticket number", pattern: new RegExp(`\\b${'iss'}ues?\\s+#?\\d+`, 'i') },
  { what: 'a section of a document that is not an RFC', pattern: /(?<!RFC \d+ )§/ },
  {
    what: 'a folder outside the repository',
    pattern: new RegExp(`/work/${'sha'}red\\b|${'sha'}red folder next to`, 'i'),
  },
];

const self = fileURLToPath(import.meta.url);
const files = [
  ...['src', 'spec', 'bench', 'examples', 'scripts', 'docs'].flatMap((folder) =>
    filesUnder(join(repositoryRoot, folder)),
  ),
  join(repositoryRoot, 'README.md'),
].filter((file) => file !== self); // this file names the patterns it looks for

describe('the repository explains itself', () => {
  it('cites no document outside it and no ticket number', () => {
    const citations: string[] = [];
    for (const file of files) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const { what, pattern } of outsideCitations) {
            if (pattern.test(line)) {
              citations.push(
                `${relative(repositoryRoot, file)}:${index + 1}: ${what}: ${line.trim()}`,
              );
            }
          }
        });
    }
    expect(citations).toEqual([]);
  });
});
