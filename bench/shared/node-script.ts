import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import ts from 'typescript';

/**
 * Transpiles a self-contained TypeScript script (one that imports only Node built-ins, or
 * loads the library by path at run time) to an `.mjs` file in `outputDirectory`, and returns
 * its path. The benchmark runs such scripts with plain `node`: under `tsx` a child would carry
 * the loader's ~40 MiB and ~150 ms, which would be charged to the code being measured.
 *
 * @example
 * ```ts
 * const script = await compileNodeScript('bench/cli/children/naive-count.ts', temporaryDirectory);
 * await runCommand({ argv: [process.execPath, script, logPath, 'ERROR'] }, options);
 * ```
 */
export async function compileNodeScript(
  sourcePath: string,
  outputDirectory: string,
): Promise<string> {
  const source = await readFile(sourcePath, 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    fileName: sourcePath,
  });
  const outputPath = join(outputDirectory, basename(sourcePath).replace(/\.ts$/, '.mjs'));
  await writeFile(outputPath, outputText);
  return outputPath;
}
