import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

/** The layers from the bottom up, as docs/architecture.md draws them: each imports only below. */
const layers = [
  'shared',
  'spool',
  'grep',
  'tools',
  'artifact',
  'store',
  'serve',
  'executor',
  'context',
  'providers',
  'mcp',
  'cli',
];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

interface ModuleImport {
  /** The imported module, as a path below src/. */
  target: string;
  /** A static import or re-export (type-only ones too), not a dynamic `import()`. */
  isStatic: boolean;
}

/** The modules a file imports (static, dynamic and type-only), comments left out. */
function importsOf(file: string): ModuleImport[] {
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const found = code.matchAll(
    /\b(import|export)\b[^;'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]/g,
  );
  return [...found].map((match) => ({
    target: relative(src, resolve(dirname(file), match[2] ?? match[3] ?? '')).replace(
      /\.js$/,
      '.ts',
    ),
    isStatic: match[2] !== undefined,
  }));
}

/** The layer of a path below src/; `undefined` for the package entry (src/index.ts). */
function layerOf(path: string): string | undefined {
  const [top] = path.split('/');
  return path.includes('/') ? top : undefined;
}

const modules = new Map(
  sourceFiles(src).map((file) => [relative(src, file), importsOf(file)] as const),
);

describe('the source layers', () => {
  it('holds every module in a known layer', () => {
    const unknown = [...modules.keys()].filter((path) => {
      const layer = layerOf(path);
      return layer !== undefined && !layers.includes(layer);
    });
    expect(unknown).toEqual([]);
  });

  it('imports only downward: no module imports a layer above its own', () => {
    const upward: string[] = [];
    for (const [path, imports] of modules) {
      const layer = layerOf(path);
      if (layer === undefined) continue;
      for (const { target } of imports) {
        const targetLayer = layerOf(target);
        if (targetLayer === undefined || layers.indexOf(targetLayer) > layers.indexOf(layer)) {
          upward.push(`${path} -> ${target}`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no import cycle among static imports, type-only ones included', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const trail: string[] = [];
    const visit = (path: string): void => {
      if (state.get(path) === 'done') return;
      if (state.get(path) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(path)), path].join(' -> '));
        return;
      }
      state.set(path, 'open');
      trail.push(path);
      for (const { target, isStatic } of modules.get(path) ?? []) if (isStatic) visit(target);
      trail.pop();
      state.set(path, 'done');
    };
    for (const path of modules.keys()) visit(path);
    expect(cycles).toEqual([]);
  });
});
