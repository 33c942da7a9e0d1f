/**
 * The import rules of the hexagon, checked by reading source files.
 *
 * Files are parsed with the TypeScript compiler (not matched with regexes), so a comment or a
 * string that mentions `Date.now()` or `'../adapters/x.js'` never trips a rule. The checker is
 * pure: it takes `{ path, source }` pairs, which lets the tests feed it deliberate bad samples.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, posix } from 'node:path';
import ts from 'typescript';

export interface SourceFile {
  /** Relative to the repo root, forward slashes: `domain/users/user.ts`. */
  path: string;
  source: string;
}

export interface Violation {
  path: string;
  line: number;
  rule: string;
  detail: string;
}

/** Folders that hold source. `tests/` is left out: tests are entry points and may import anything. */
const SOURCE_FOLDERS = ['domain', 'application', 'ports', 'adapters', 'composition', 'bin', 'bench', 'examples'];

/** The only places allowed to wire the app together (import `composition/`). */
const ENTRY_POINTS = new Set(['bin', 'tests', 'bench', 'composition']);

/** The framework's public API (`import … from 'fw'`): the one file of composition/ an example may import. */
const PUBLIC_API = 'composition/index.ts';

/** Driving adapters call the use cases; every other adapter group is driven (called by them). */
const DRIVING_ADAPTERS = new Set(['http', 'cli']);

/** Crypto functions that produce randomness; the domain gets random bytes through a port. */
const RANDOM_FUNCTIONS = new Set([
  'randomBytes',
  'randomUUID',
  'randomInt',
  'randomFill',
  'randomFillSync',
  'getRandomValues',
  'generateKeyPair',
  'generateKeyPairSync',
  'generateKey',
  'generateKeySync',
]);

/** Objects whose methods above are randomness: `crypto.randomUUID()`, `crypto.subtle.generateKey()`. */
const CRYPTO_OBJECTS = new Set(['crypto', 'webcrypto', 'subtle']);

/** One module specifier found in a file. */
interface ImportRef {
  specifier: string;
  /** True only when the whole statement is erased at runtime (`import type`, `export type`). */
  typeOnly: boolean;
  node: ts.Node;
}

/** Where a specifier lands. */
type Target =
  | { kind: 'file'; layer: string; group: string | undefined }
  | { kind: 'node'; name: string }
  | { kind: 'package'; name: string };

/** Reads every `.ts` file under the source folders, skipping build output and declarations. */
export function readSourceTree(root: string): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      const child = posix.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(child);
      } else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        files.push({ path: child, source: readFileSync(join(root, child), 'utf8') });
      }
    }
  };
  for (const folder of SOURCE_FOLDERS) {
    if (existsSync(join(root, folder))) walk(folder);
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

export function checkArchitecture(files: SourceFile[]): Violation[] {
  return [...files.flatMap(checkFile), ...checkKernelWithoutHapi(files)];
}

/** The transport-neutral kernel: nothing in it may reach hapi, directly or through other files. */
const KERNEL_FOLDER = 'adapters/http/kernel/';

/**
 * The kernel runs behind hapi and behind the fetch handler, so no file in it may import an
 * `@hapi/*` package, nor a file that does (however many files lie between): a type import
 * counts too, since it ties the kernel's shapes to hapi's.
 */
function checkKernelWithoutHapi(files: SourceFile[]): Violation[] {
  const parsed = new Map(files.map((file) => [file.path, ts.createSourceFile(file.path, file.source, ts.ScriptTarget.Latest, true)]));
  const imports = new Map<string, ImportRef[]>();
  for (const [path, sourceFile] of parsed) imports.set(path, collectImports(sourceFile));

  // For each file, the first import by which it reaches hapi (null: it does not); memoised.
  const reaches = new Map<string, string | null>();
  const reachOf = (path: string, visiting: Set<string>): string | null => {
    const known = reaches.get(path);
    if (known !== undefined) return known;
    if (visiting.has(path)) return null; // an import cycle: decided where it started
    visiting.add(path);
    let found: string | null = null;
    for (const ref of imports.get(path) ?? []) {
      if (ref.specifier.startsWith('@hapi/')) {
        found = ref.specifier;
        break;
      }
      const local = localFile(path, ref.specifier);
      if (local !== undefined && parsed.has(local) && reachOf(local, visiting) !== null) {
        found = local;
        break;
      }
    }
    visiting.delete(path);
    reaches.set(path, found);
    return found;
  };

  const violations: Violation[] = [];
  for (const [path, sourceFile] of parsed) {
    if (!path.startsWith(KERNEL_FOLDER)) continue;
    for (const ref of imports.get(path) ?? []) {
      const local = localFile(path, ref.specifier);
      const hapi = ref.specifier.startsWith('@hapi/');
      if (!hapi && (local === undefined || !parsed.has(local) || reachOf(local, new Set()) === null)) continue;
      const { line } = sourceFile.getLineAndCharacterOfPosition(ref.node.getStart(sourceFile));
      // The chain from the imported file to the package: `a.ts → b.ts → @hapi/hapi`.
      const chain: string[] = [];
      for (let step: string | null | undefined = hapi ? null : local; step !== null && step !== undefined; step = reaches.get(step)) chain.push(step);
      const detail = hapi ? `'${ref.specifier}'` : `'${ref.specifier}' reaches hapi: ${chain.join(' → ')}`;
      violations.push({ path, line: line + 1, rule: 'kernel-without-hapi', detail: `${detail}: the kernel is transport-neutral; hapi code belongs in adapters/http/hapi/` });
    }
  }
  return violations;
}

/** The repository file a relative specifier names (`./x.js` is `x.ts`), or undefined for a package. */
function localFile(fromPath: string, specifier: string): string | undefined {
  return specifier.startsWith('.') ? resolvedPath(fromPath, specifier) : undefined;
}

type Report = (node: ts.Node, rule: string, detail: string) => void;

/** A broken rule and why, for one import. */
interface Problem {
  rule: string;
  why: string;
}

function checkFile(file: SourceFile): Violation[] {
  // setParentNodes: the purity checks look at a node's parent.
  const sourceFile = ts.createSourceFile(file.path, file.source, ts.ScriptTarget.Latest, true);
  const violations: Violation[] = [];
  const report: Report = (node, rule, detail) => {
    const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
    violations.push({ path: file.path, line: line + 1, rule, detail });
  };

  const layer = segments(file.path)[0] ?? '';
  for (const ref of collectImports(sourceFile)) {
    const problem = importProblem(file.path, layer, ref);
    if (problem) report(ref.node, problem.rule, `'${ref.specifier}': ${problem.why}`);
  }
  if (layer === 'domain') {
    checkDomainPurity(sourceFile, report);
    checkDomainGlobals(sourceFile, report);
  }
  // Use cases get time and randomness through ports as well: a test then controls both.
  if (layer === 'application') checkClockAndRandomness(sourceFile, report, 'application-purity', 'application/');
  const group = groupRule(file.path);
  if (group) {
    for (const ref of collectImports(sourceFile)) {
      const local = localFile(file.path, ref.specifier);
      const forbidden = local === undefined ? undefined : group.forbidden.find((prefix) => local.startsWith(prefix));
      if (forbidden !== undefined) report(ref.node, 'adapter-groups', `'${ref.specifier}': ${group.why} (${forbidden})`);
    }
  }
  if (layer === 'domain' || layer === 'application') {
    // Decorators tie the core to a container or an ORM (and to a compiler mode); wiring
    // belongs in composition/ and mapping in adapters/.
    visit(sourceFile, (node) => {
      if (!ts.isDecorator(node)) return;
      report(node, 'no-decorators', `${node.getText(sourceFile)}: no decorators in ${layer}/`);
    });
  }
  return violations;
}

/** Returns the broken rule for one import, or undefined when the import is allowed. */
function importProblem(path: string, layer: string, ref: ImportRef): Problem | undefined {
  const target = resolve(path, ref.specifier);
  const targetLayer = target.kind === 'file' ? target.layer : undefined;
  const what = describeTarget(target);

  // Checked first and for every file, so an import of composition/ reports this rule only.
  // An example is a host of its own that uses fw as a user does: through its public API.
  const publicApi = layer === 'examples' && target.kind === 'file' && resolvedPath(path, ref.specifier) === PUBLIC_API;
  if (targetLayer === 'composition' && !ENTRY_POINTS.has(layer) && !publicApi) {
    return { rule: 'composition-entry-only', why: 'only bin/, tests/, bench/ and composition/ may import it' };
  }

  switch (layer) {
    case 'domain':
      if (targetLayer === 'domain' || (target.kind === 'node' && target.name === 'crypto')) return undefined;
      return { rule: 'domain-imports', why: `domain/ may import only domain/ and node:crypto, not ${what}` };
    case 'ports':
      if (targetLayer === 'ports' || targetLayer === 'domain') return undefined;
      return { rule: 'ports-imports', why: `ports/ may import only ports/ and domain/, not ${what}` };
    case 'application':
      if (targetLayer === 'application' || targetLayer === 'domain' || targetLayer === 'ports') return undefined;
      return {
        rule: 'application-imports',
        why: `application/ may import only application/, domain/ and ports/, not ${what}`,
      };
    case 'adapters':
      return adapterProblem(path, ref, target);
    case 'examples':
      // An example shows the core in another host: it drives the use cases itself, so it may
      // use the driven adapters but not ours for HTTP and the command line.
      if (targetLayer === 'adapters' && target.kind === 'file' && target.group !== undefined && DRIVING_ADAPTERS.has(target.group)) {
        return { rule: 'examples-imports', why: `examples/ host the core themselves: not ${what}` };
      }
      return undefined;
    default:
      // composition/, entry points and config files may import anything.
      return undefined;
  }
}

function adapterProblem(path: string, ref: ImportRef, target: Target): Problem | undefined {
  if (target.kind !== 'file') return undefined; // npm packages and node: modules are what adapters are for
  const group = adapterGroup(path);
  const driving = group !== undefined && DRIVING_ADAPTERS.has(group);
  const fail = (why: string): Problem => ({ rule: 'adapter-imports', why });

  switch (target.layer) {
    case 'domain':
    case 'ports':
      return undefined;
    case 'application':
      // Driven adapters are called by the use cases; calling back into them would be a cycle.
      return driving ? undefined : fail(`only driving adapters (http, cli) may use application/, not '${group}'`);
    case 'adapters': {
      if (target.group === group) return undefined;
      // A driving adapter may name a driven adapter's types (e.g. a CLI command typed against
      // the database handle); the instance itself comes from composition/.
      const targetDriven = target.group !== undefined && !DRIVING_ADAPTERS.has(target.group);
      if (driving && targetDriven && ref.typeOnly) return undefined;
      return fail(
        driving && targetDriven
          ? `adapter '${group}' may use only 'import type' from adapter '${target.group}'`
          : `adapter '${group}' must not import adapter '${target.group}'`,
      );
    }
    default:
      return fail(`adapters may import ports/, domain/, packages and their own group, not ${describeTarget(target)}`);
  }
}

/**
 * Time and randomness enter the domain as arguments or through ports (Clock, RandomSource);
 * reading them directly would make domain logic nondeterministic and hard to test.
 */
function checkDomainPurity(sourceFile: ts.SourceFile, report: Report): void {
  checkClockAndRandomness(sourceFile, report, 'domain-purity', 'the domain');
}

function checkClockAndRandomness(sourceFile: ts.SourceFile, report: Report, rule: string, where: string): void {
  const impure = (node: ts.Node, what: string): void =>
    report(node, rule, `${what}: time and randomness enter ${where} as arguments or through ports`);

  // `import * as c from 'node:crypto'` makes `c.randomBytes` randomness too.
  const cryptoNames = new Set(CRYPTO_OBJECTS);
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!isCryptoModule(statement.moduleSpecifier.text)) continue;
    const clause = statement.importClause;
    if (clause?.name) cryptoNames.add(clause.name.text);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) cryptoNames.add(bindings.name.text);
  }

  visit(sourceFile, (node) => {
    if (ts.isPropertyAccessExpression(node)) {
      // Flags the reference, called or not: `{ now: Date.now }` leaks the clock as well.
      const member = node.name.text;
      const clock = member === 'now' && isGlobal(node.expression, 'Date');
      const random = member === 'random' && isGlobal(node.expression, 'Math');
      const randomness = RANDOM_FUNCTIONS.has(member) && isCryptoObject(node.expression, cryptoNames);
      if (clock || random || randomness) impure(node, node.getText(sourceFile));
    } else if (ts.isNewExpression(node) && isGlobal(node.expression, 'Date') && !node.arguments?.length) {
      impure(node, 'new Date() reads the clock');
    } else if (ts.isCallExpression(node) && isGlobal(node.expression, 'Date')) {
      impure(node, 'Date() reads the clock'); // without `new` it returns the current time as a string
    } else if (ts.isIdentifier(node) && RANDOM_FUNCTIONS.has(node.text) && isReference(node)) {
      // A bare `randomBytes(16)` (imported by name) or an aliased import `{ randomBytes as rb }`.
      impure(node, node.text);
    }
  });
}

/** Every module specifier: imports (also `import type`), re-exports, `import()`, `require()`. */
function collectImports(sourceFile: ts.SourceFile): ImportRef[] {
  const refs: ImportRef[] = [];
  const add = (literal: ts.Node | undefined, typeOnly: boolean, node: ts.Node): void => {
    if (literal && ts.isStringLiteralLike(literal)) refs.push({ specifier: literal.text, typeOnly, node });
  };
  visit(sourceFile, (node) => {
    if (ts.isImportDeclaration(node)) {
      add(node.moduleSpecifier, node.importClause?.isTypeOnly ?? false, node);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly, node);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly, node);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true, node); // type X = import('../adapters/x.js').X
    } else if (ts.isCallExpression(node)) {
      const isDynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isDynamicImport || isRequire) add(node.arguments[0], false, node);
    }
  });
  return refs;
}

function resolve(fromPath: string, specifier: string): Target {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const resolved = posix.normalize(posix.join(posix.dirname(fromPath), specifier));
    // An absolute path, or '..' first, leaves the repo: the import belongs to no layer.
    const outside = specifier.startsWith('/') || resolved.startsWith('..');
    const layer = outside ? '(outside the repo)' : (segments(resolved)[0] ?? '');
    return { kind: 'file', layer, group: layer === 'adapters' ? adapterGroup(resolved) : undefined };
  }
  if (specifier.startsWith('node:') || isBuiltin(specifier)) {
    return { kind: 'node', name: specifier.replace(/^node:/, '') };
  }
  return { kind: 'package', name: specifier };
}

/** The repository path a relative specifier names (`../x.js` from `a/b.ts` is `x.ts`). */
function resolvedPath(fromPath: string, specifier: string): string {
  return posix.normalize(posix.join(posix.dirname(fromPath), specifier)).replace(/\.js$/u, '.ts');
}

function describeTarget(target: Target): string {
  switch (target.kind) {
    case 'file':
      return `${target.layer}/`;
    case 'node':
      return `the Node module node:${target.name}`;
    case 'package':
      return 'an npm package';
  }
}

/** `adapters/persistence/mikro-orm/database.ts` is group `persistence`. */
function adapterGroup(path: string): string | undefined {
  const parts = segments(path);
  return parts.length > 2 ? parts[1] : undefined;
}

function segments(path: string): string[] {
  return path.split('/').filter((part) => part !== '' && part !== '.');
}

function isCryptoModule(specifier: string): boolean {
  return specifier === 'node:crypto' || specifier === 'crypto';
}

/** `Date` or `globalThis.Date`. */
function isGlobal(expression: ts.Expression, name: string): boolean {
  if (ts.isIdentifier(expression)) return expression.text === name;
  return (
    ts.isPropertyAccessExpression(expression) &&
    expression.name.text === name &&
    ts.isIdentifier(expression.expression) &&
    expression.expression.text === 'globalThis'
  );
}

/** `crypto`, a namespace import of node:crypto, `globalThis.crypto`, `crypto.subtle`. */
function isCryptoObject(expression: ts.Expression, cryptoNames: Set<string>): boolean {
  if (ts.isIdentifier(expression)) return cryptoNames.has(expression.text);
  return ts.isPropertyAccessExpression(expression) && CRYPTO_OBJECTS.has(expression.name.text);
}

/**
 * True when an identifier refers to a binding rather than names something: the name of a
 * declaration (`{ randomBytes }` in an import, a method called `randomUUID`) or of a property
 * access (`port.randomUUID`, judged by its receiver instead) is not a reference.
 */
function isReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  // `export { randomBytes }` and `{ randomBytes }` in an object literal hand the function on.
  if (ts.isExportSpecifier(parent) || ts.isShorthandPropertyAssignment(parent)) return true;
  return !('name' in parent && parent.name === node);
}

function visit(node: ts.Node, callback: (node: ts.Node) => void): void {
  callback(node);
  ts.forEachChild(node, (child) => visit(child, callback));
}

/**
 * Globals that reach outside the process's pure computation: the network, the environment and
 * the process, timers, the console. The domain decides; adapters do these things.
 */
const OUTSIDE_GLOBALS = new Set([
  'fetch',
  'process',
  'performance',
  'console',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'clearImmediate',
  'queueMicrotask',
  'require',
]);

function checkDomainGlobals(sourceFile: ts.SourceFile, report: Report): void {
  const declared = declaredNames(sourceFile);
  visit(sourceFile, (node) => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'globalThis') {
      if (OUTSIDE_GLOBALS.has(node.name.text)) report(node, 'domain-globals', `${node.getText(sourceFile)}: the domain reaches nothing outside itself`);
      return;
    }
    if (!ts.isIdentifier(node) || !OUTSIDE_GLOBALS.has(node.text) || declared.has(node.text)) return;
    // `x.process` names a property and `{ console: … }` a key: only a reference to the global counts.
    const parent = node.parent;
    if (ts.isPropertyAccessExpression(parent) && parent.name === node) return;
    if (ts.isPropertyAssignment(parent) && parent.name === node) return;
    if (ts.isCallExpression(parent) && parent.expression === node && node.text === 'require') {
      return; // require('x') is an import, judged by the import rules
    }
    if (!isReference(node)) return;
    report(node, 'domain-globals', `${node.text}: the domain reaches nothing outside itself; adapters do`);
  });
}

/** Names the file declares itself (a parameter called `process` is not the global). */
function declaredNames(sourceFile: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  visit(sourceFile, (node) => {
    if ((ts.isVariableDeclaration(node) || ts.isParameter(node) || ts.isFunctionDeclaration(node) || ts.isImportSpecifier(node) || ts.isBindingElement(node)) && node.name && ts.isIdentifier(node.name)) {
      names.add(node.name.text);
    }
  });
  return names;
}

/**
 * Groups inside an adapter: the transport-neutral kernel knows neither transport; the two
 * transports (hapi, fetch) do not lean on each other; the feature routes run on either transport;
 * the two persistence families stand alone (the in-memory one is what tests swap in).
 */
const GROUP_RULES: { from: string; forbidden: string[]; why: string }[] = [
  // The kernel's imports of hapi/ are refused by kernel-without-hapi (with the chain that reaches hapi).
  { from: 'adapters/http/kernel/', forbidden: ['adapters/http/fetch/'], why: 'the kernel knows no transport; transports import the kernel' },
  { from: 'adapters/http/hapi/', forbidden: ['adapters/http/fetch/'], why: 'the two transports stand side by side' },
  { from: 'adapters/http/fetch/', forbidden: ['adapters/http/hapi/'], why: 'the two transports stand side by side' },
  ...['auth', 'oauth', 'notifications', 'queue', 'storage', 'uploads', 'validation', 'dev-tools', 'dev'].map((feature) => ({
    from: `adapters/http/${feature}/`,
    forbidden: ['adapters/http/hapi/', 'adapters/http/fetch/'],
    why: 'feature routes run on either transport: they use the kernel only',
  })),
  { from: 'adapters/persistence/memory/', forbidden: ['adapters/persistence/mikro-orm/'], why: 'each persistence family stands alone' },
  { from: 'adapters/persistence/mikro-orm/', forbidden: ['adapters/persistence/memory/'], why: 'each persistence family stands alone' },
];

function groupRule(path: string): { forbidden: string[]; why: string } | undefined {
  return GROUP_RULES.find((rule) => path.startsWith(rule.from));
}
