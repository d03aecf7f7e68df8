// Type-checks the TSDoc examples of the public API, so an example that no longer compiles fails
// `npm test`. The public API is what the package's `exports` entries export (read from
// package.json, so a new entry is checked without touching this script); each ```ts block under
// an @example of such a declaration, or of a member of an exported class or interface, becomes
// the body of an async function in a virtual module that imports the public names it mentions.
// The other free names an example uses (`artifact`, `client`…) are declared in
// scripts/doc-examples/: common.ts for every example, and NAME.ts for the examples under the
// directory of the entry NAME/index.ts (openai.ts: `client` is an OpenAI client there).
// --all also checks the examples of internal modules (not yet clean), --list prints the examples.
//   node scripts/check-doc-examples.mjs [--all] [--list]
import { readFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const preambles = join(root, 'scripts', 'doc-examples');
const virtualDirectory = join(root, 'doc-examples');

/** The package's entries: each `exports` subpath with types, as imported, and its source file. */
function publicEntries() {
  const { name, exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.entries(exports)
    .filter(([, target]) => typeof target?.types === 'string')
    .filter(([, { types }]) => types.startsWith('./dist/'))
    .map(([subpath, { types }]) => ({
      specifier: `${name}${subpath.slice(1)}`,
      file: join(root, 'src', types.slice('./dist/'.length).replace(/\.d\.ts$/, '.ts')),
    }));
}

const { config } = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
const { options: baseOptions } = ts.parseJsonConfigFileContent(config, ts.sys, root);
// An example imports names without `type`, as a user who mixes values and types would.
const options = { ...baseOptions, noEmit: true, verbatimModuleSyntax: false };

/** Every ```ts block under an @example in a JSDoc comment, with the line its code starts on. */
function examplesIn(sourceFile, jsDoc) {
  const text = sourceFile.text.slice(jsDoc.pos, jsDoc.end);
  const firstLine = sourceFile.getLineAndCharacterOfPosition(jsDoc.pos).line;
  const lines = text.split('\n').map((line) => line.replace(/^\s*(\/\*\*|\*\/|\*) ?/, ''));
  const blocks = [];
  for (let index = 0; index < lines.length; index++) {
    if (!lines[index]?.startsWith('@example')) continue;
    const open = lines.findIndex((line, at) => at > index && /^```ts\s*$/.test(line));
    const close = lines.findIndex((line, at) => at > open && /^```\s*$/.test(line));
    if (open < 0 || close < 0) continue;
    blocks.push({ line: firstLine + open + 1, code: lines.slice(open + 1, close) });
    index = close;
  }
  return blocks;
}

/** The public names (name → entry file) and the examples of the declarations behind them. */
function collectExamples(entries) {
  const program = ts.createProgram(entries, options);
  const checker = program.getTypeChecker();
  const names = new Map();
  const seen = new Set();
  const examples = [];
  const visit = (node) => {
    for (const jsDoc of node.jsDoc ?? []) {
      const sourceFile = node.getSourceFile();
      const key = `${sourceFile.fileName}:${jsDoc.pos}`;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const block of examplesIn(sourceFile, jsDoc))
        examples.push({ file: sourceFile.fileName, ...block });
    }
  };
  const exportsOf = new Map();
  for (const sourceFile of program.getSourceFiles()) {
    if (!sourceFile.fileName.startsWith(join(root, 'src') + sep)) continue;
    const module = checker.getSymbolAtLocation(sourceFile);
    exportsOf.set(sourceFile.fileName, module ? checker.getExportsOfModule(module) : []);
  }
  for (const entry of entries) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry));
    for (const exported of checker.getExportsOfModule(module)) {
      if (!names.has(exported.name)) names.set(exported.name, entry);
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      for (const declaration of symbol.declarations ?? []) {
        // A `const x = …` carries its comment on the statement, two parents up.
        visit(ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration);
        if (ts.isClassDeclaration(declaration) || ts.isInterfaceDeclaration(declaration))
          for (const member of declaration.members) visit(member);
      }
    }
  }
  // With --all, the examples of every module the entries reach: internal helpers' too.
  const walk = (node) => {
    visit(node);
    ts.forEachChild(node, walk);
  };
  if (process.argv.includes('--all'))
    for (const fileName of exportsOf.keys()) walk(program.getSourceFile(fileName));
  return { program, names, examples, exportsOf };
}

/**
 * The names a preamble module exports (none if it is absent), each with whether it is a
 * variable the example gets a copy of, which it may assign, rather than an import.
 */
function preambleNames(fileName) {
  const text = ts.sys.readFile(fileName);
  if (text === undefined) return [];
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest);
  return file.statements.flatMap((statement) => {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause && ts.isNamespaceExport(clause)) return [{ name: clause.name.text }];
      return (clause?.elements ?? []).map((element) => ({ name: element.name.text }));
    }
    if (!(ts.getCombinedModifierFlags(statement) & ts.ModifierFlags.Export)) return [];
    if (ts.isVariableStatement(statement))
      return statement.declarationList.declarations.map((declaration) => ({
        name: declaration.name.getText(file),
        variable: true,
      }));
    return statement.name ? [{ name: statement.name.text }] : [];
  });
}

/**
 * The preambles for an example in `file`: that of the most specific entry whose directory
 * holds the file, then the common one; an earlier one wins a name both declare.
 */
function preamblesFor(file, entries) {
  const entry = entries
    .filter((candidate) => dirname(candidate) !== join(root, 'src'))
    .filter((candidate) => file.startsWith(dirname(candidate) + sep))
    .sort((first, second) => second.length - first.length)[0];
  return [entry && basename(dirname(entry)), 'common']
    .filter((name) => name !== undefined)
    .map((name) => join(preambles, `${name}.ts`));
}

/** A module specifier from the virtual directory to `fileName`. */
const specifierOf = (fileName) => relative(virtualDirectory, fileName).replace(/\.ts$/, '.js');

/**
 * The virtual module of one example: imports of the public names it mentions, then of the
 * preamble names it mentions (a preamble variable as a `let` copy, so an example may assign
 * it), its own imports, then its code in an async function.
 */
function moduleOf(example, { names, exportsOf }, index) {
  const fileName = join(virtualDirectory, `example-${index}.ts`);
  const isImport = (line) => /^import\s/.test(line);
  // An example's own `import … from 'spoolforge'` reads the sources, as the others do.
  const own = example.code.filter(isImport).map((line) =>
    line.replace(/from '([^']+)'/, (whole, specifier) => {
      const entry = entrySources.get(specifier);
      return entry ? `from '${specifierOf(entry)}'` : whole;
    }),
  );
  const body = example.code.map((line) => (isImport(line) ? '' : line));
  const identifiers = (lines) => new Set(lines.join('\n').match(/[A-Za-z_$][\w$]*/g));
  const imported = identifiers(own);
  const words = [...identifiers(body)].filter((word) => !imported.has(word));
  const header = [];
  const byEntry = new Map();
  for (const word of words.filter((candidate) => names.has(candidate))) {
    const entry = names.get(word);
    byEntry.set(entry, [...(byEntry.get(entry) ?? []), word]);
  }
  for (const [entry, imports] of byEntry)
    header.push(`import { ${imports.join(', ')} } from '${specifierOf(entry)}';`);
  // An internal helper's example calls it from its own module.
  const local = (exportsOf.get(example.file) ?? [])
    .map(({ name }) => name)
    .filter((name) => words.includes(name) && !names.has(name));
  if (local.length > 0)
    header.push(`import { ${local.join(', ')} } from '${specifierOf(example.file)}';`);
  const declared = new Set([...names.keys(), ...local]);
  for (const [at, preamble] of preamblesFor(example.file, [...new Set(names.values())]).entries()) {
    const namespace = `preamble${at}`;
    const used = preambleNames(preamble).filter(
      ({ name }) => words.includes(name) && !declared.has(name),
    );
    const imports = used.filter(({ variable }) => !variable).map(({ name }) => name);
    if (imports.length > 0)
      header.push(`import { ${imports.join(', ')} } from '${specifierOf(preamble)}';`);
    const variables = used.filter(({ variable }) => variable);
    if (variables.length > 0)
      header.push(`import * as ${namespace} from '${specifierOf(preamble)}';`);
    for (const { name } of variables) header.push(`let ${name} = ${namespace}.${name};`);
    for (const { name } of used) declared.add(name);
  }
  header.push(...own, 'export async function example() {');
  return { fileName, text: [...header, ...body, '}', ''].join('\n'), offset: header.length };
}

const entries = publicEntries();
const entrySources = new Map(entries.map(({ specifier, file }) => [specifier, file]));
const collected = collectExamples(entries.map(({ file }) => file));
const { examples } = collected;
if (process.argv.includes('--list')) {
  for (const { file, line, code } of examples)
    console.log(`${relative(root, file)}:${line + 1}\n  ${code.join('\n  ')}`);
}
const modules = examples.map((example, index) => ({
  example,
  ...moduleOf(example, collected, index),
}));
const byName = new Map(modules.map((module) => [module.fileName, module]));
const host = ts.createCompilerHost(options);
const { getSourceFile, fileExists, readFile } = host;
host.fileExists = (fileName) => byName.has(fileName) || fileExists.call(host, fileName);
host.readFile = (fileName) => byName.get(fileName)?.text ?? readFile.call(host, fileName);
host.getSourceFile = (fileName, language, ...rest) => {
  const module = byName.get(fileName);
  return module
    ? ts.createSourceFile(fileName, module.text, language, true)
    : getSourceFile.call(host, fileName, language, ...rest);
};
const program = ts.createProgram({
  rootNames: [...byName.keys()],
  options,
  host,
  oldProgram: collected.program,
});
const failures = [];
for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  const module = diagnostic.file && byName.get(diagnostic.file.fileName);
  if (!module) {
    const where = diagnostic.file ? `${relative(root, diagnostic.file.fileName)}: ` : '';
    failures.push(`${where}${message}`);
    continue;
  }
  const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
  const source = module.example.line + line - module.offset + 1;
  failures.push(`${relative(root, module.example.file)}:${source}: ${message}`);
}
for (const failure of failures) console.log(failure);
console.log(
  `doc examples: ${examples.length} type-checked, ${failures.length} error${failures.length === 1 ? '' : 's'}`,
);
process.exit(failures.length === 0 ? 0 : 1);
