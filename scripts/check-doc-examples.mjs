// Type-checks the TSDoc examples, so an example that no longer compiles fails `npm test`. It
// starts from the package's `exports` entries (read from package.json, so a new entry is checked
// without touching this script) and takes every ```ts block under an @example in the modules they
// reach. Each becomes the body of an async function in a virtual module that imports the names
// it mentions: public ones from their entry, else from the example's own module. The other free
// names an example uses (`artifact`, `client`…) are declared in scripts/doc-examples/: NAME.ts
// for the examples in a directory NAME, deepest first (openai.ts: `client` is an OpenAI client
// in src/providers/openai/), then common.ts; a helper of another module is imported from it.
//   node scripts/check-doc-examples.mjs [--list]
import { readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
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

/** Whether an entry re-exports a symbol with `export type` (so it cannot be used as a value). */
function isTypeOnlyExport(exported) {
  return (exported.declarations ?? []).some(
    (declaration) =>
      ts.isExportSpecifier(declaration) &&
      (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly),
  );
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
  const typeOnly = new Set();
  for (const entry of entries) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry));
    for (const exported of checker.getExportsOfModule(module)) {
      // A name one entry exports as a type and another as a value is imported as the value.
      if (!names.has(exported.name) || typeOnly.has(exported.name)) {
        names.set(exported.name, entry);
        if (isTypeOnlyExport(exported)) typeOnly.add(exported.name);
        else typeOnly.delete(exported.name);
      }
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
  // Then those of every module the entries reach: internal helpers are documented too.
  const walk = (node) => {
    visit(node);
    ts.forEachChild(node, walk);
  };
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
 * The preambles for an example in `file`: one named after each directory it is in, deepest
 * first (openai.ts for src/providers/openai/), then the common one; the first wins a name.
 */
function preamblesFor(file) {
  const directories = relative(join(root, 'src'), dirname(file)).split(sep).filter(Boolean);
  return [...directories.reverse(), 'common'].map((name) => join(preambles, `${name}.ts`));
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
  const ownImports = example.code.filter(isImport).map((line) =>
    line.replace(/from '([^']+)'/, (whole, specifier) => {
      const entry = entrySources.get(specifier);
      return entry ? `from '${specifierOf(entry)}'` : whole;
    }),
  );
  const body = example.code.map((line) => (isImport(line) ? '' : line));
  const identifiers = (lines) => new Set(lines.join('\n').match(/[A-Za-z_$][\w$]*/g));
  const imported = identifiers(ownImports);
  const words = [...identifiers(body)].filter((word) => !imported.has(word));
  const header = [];
  const declared = new Set();
  const importFrom = (module, imports) => {
    if (imports.length > 0)
      header.push(`import { ${imports.join(', ')} } from '${specifierOf(module)}';`);
    for (const name of imports) declared.add(name);
  };
  const wanted = () => words.filter((word) => !declared.has(word));
  for (const entry of new Set(names.values()))
    importFrom(
      entry,
      wanted().filter((word) => names.get(word) === entry),
    );
  // An internal helper's example imports it from its own module.
  const own = new Set((exportsOf.get(example.file) ?? []).map(({ name }) => name));
  importFrom(
    example.file,
    wanted().filter((word) => own.has(word)),
  );
  for (const [at, preamble] of preamblesFor(example.file).entries()) {
    const used = preambleNames(preamble).filter(({ name }) => wanted().includes(name));
    importFrom(
      preamble,
      used.filter(({ variable }) => !variable).map(({ name }) => name),
    );
    const variables = used.filter(({ variable }) => variable).map(({ name }) => name);
    if (variables.length === 0) continue;
    header.push(`import * as preamble${at} from '${specifierOf(preamble)}';`);
    for (const name of variables) header.push(`let ${name} = preamble${at}.${name};`);
    for (const name of variables) declared.add(name);
  }
  // Last, another module's helper it calls.
  for (const word of wanted()) {
    const module = [...exportsOf.keys()].find((file) =>
      exportsOf.get(file)?.some(({ name }) => name === word),
    );
    if (module) importFrom(module, [word]);
  }
  header.push(...ownImports, 'export async function example() {');
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
