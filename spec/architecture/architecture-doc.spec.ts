import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder, relativeImports, repositoryRoot } from '../helpers/repository-files.js';

const src = join(repositoryRoot, 'src');

/** The layer of a file: its first folder below src/ (none for the entries in src/ itself). */
function layerOf(file: string): string | undefined {
  const path = relative(src, file);
  return path.includes('/') ? path.split('/')[0] : undefined;
}

/** docs/architecture.md's layer table: each layer with the layers it says it imports today. */
function documentedLayers(): Map<string, string[]> {
  const text = readFileSync(join(repositoryRoot, 'docs', 'architecture.md'), 'utf8');
  const section = text.slice(text.indexOf('## Layers'), text.indexOf('## Entries'));
  const rows = [...section.matchAll(/^\| ([a-z]+) \| `src\/\1\/` \|.*\| ([^|]+) \|$/gm)];
  return new Map(
    rows.map((row) => [
      row[1] ?? '',
      (row[2] ?? '')
        .trim()
        .split(', ')
        .filter((layer) => layer !== 'no layer' && layer !== 'shared'),
    ]),
  );
}

describe('docs/architecture.md', () => {
  it('lists every layer of src/ with the other layers it imports today', () => {
    const actual = new Map<string, Set<string>>();
    for (const file of filesUnder(src, '.ts')) {
      const layer = layerOf(file);
      if (layer === undefined) continue;
      const imported = actual.get(layer) ?? new Set<string>();
      actual.set(layer, imported);
      for (const target of relativeImports(file)) {
        const other = layerOf(target);
        if (other !== undefined && other !== layer && other !== 'shared') imported.add(other);
      }
    }
    const documented = documentedLayers();
    expect([...documented.keys()].sort()).toEqual([...actual.keys()].sort());
    for (const [layer, imported] of actual) {
      expect({ layer, imports: [...imported].sort() }).toEqual({
        layer,
        imports: [...(documented.get(layer) ?? [])].sort(),
      });
    }
  });
});
