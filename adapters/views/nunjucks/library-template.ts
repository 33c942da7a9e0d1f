/**
 * Whether a template is a library: a file whose top level only defines things (macros, imports
 * of other files by a literal name, `set`s of constants or of names it defined before) and prints
 * nothing but whitespace. The UI kit's files (`fw/ui.html`, `fw/ui/*.html`) are libraries.
 *
 * What a library exports does not depend on the page that imports it: its macros read the page
 * (`old()`, `error()`, `t()`…) only when they are called. So its top level can run once and its
 * exports be kept (cached-imports.ts), where nunjucks ran it again on every render of every
 * page that imports it with context (~half the render time of a page of 40 kit fields).
 */
import type { AstNode, AstRoot } from './nunjucks-internals.js';
import { nodeTypes } from './nunjucks-internals.js';

interface Named extends AstNode {
  value?: unknown;
  name?: Named;
  names?: { children: Named[] };
  target?: Named;
  targets?: Named[];
  template?: Named;
  withContext?: boolean | null;
  body?: AstNode | null;
  key?: Named;
  children?: Named[];
}

/** Node types never allowed anywhere in a library: they need a page (blocks) or may run later (async). */
const FORBIDDEN_ANYWHERE = ['Block', 'Extends', 'Super', 'FilterAsync', 'CallExtensionAsync', 'IfAsync', 'AsyncEach', 'AsyncAll'] as const;

export function isLibrary(ast: AstRoot): boolean {
  for (const type of FORBIDDEN_ANYWHERE) {
    const nodeType = nodeTypes[type];
    if (nodeType === undefined || ast.findAll(nodeType).length > 0) return false;
  }
  const defined = new Set<string>();
  for (const node of ast.children as Named[]) {
    switch (node.typename) {
      case 'Output':
        if (!(node.children ?? []).every((child) => child.typename === 'TemplateData' && String(child.value).trim() === '')) return false;
        break;
      case 'Macro':
        defined.add(String(node.name?.value));
        break;
      case 'FromImport':
        if (!literalName(node.template) || node.withContext === false) return false;
        for (const imported of node.names?.children ?? []) {
          // `import a` is a Symbol, `import a as b` a Pair of Symbols.
          defined.add(String(imported.typename === 'Pair' ? (imported as Named & { value: Named }).value.value : imported.value));
        }
        break;
      case 'Import':
        if (!literalName(node.template) || node.withContext === false) return false;
        defined.add(String(node.target?.value));
        break;
      case 'Set':
        if (node.body !== null && node.body !== undefined) return false;
        if (!constant(node.value as Named | undefined, defined)) return false;
        for (const target of node.targets ?? []) {
          if (target.typename !== 'Symbol') return false;
          defined.add(String(target.value));
        }
        break;
      default:
        return false;
    }
  }
  return true;
}

function literalName(node: Named | undefined): boolean {
  return node?.typename === 'Literal' && typeof node.value === 'string';
}

/** A literal, a list or dict of them, or a name the template defined above. */
function constant(node: Named | undefined, defined: ReadonlySet<string>): boolean {
  if (node === undefined) return false;
  switch (node.typename) {
    case 'Literal':
      return true;
    case 'Symbol':
      return defined.has(String(node.value));
    case 'Array':
      return (node.children ?? []).every((child) => constant(child, defined));
    case 'Dict':
      return (node.children ?? []).every((pair) => constant(pair.key, defined) && constant(pair.value as Named, defined));
    default:
      return false;
  }
}
