/**
 * Typed access to the parts of nunjucks 3.2.4 that its type definitions leave out: the parser,
 * the compiler, the AST transformer, the runtime and `TemplateError`. The adapter compiles
 * templates itself (see template-compiler.ts) to render single blocks and to print undefined
 * values strictly; these are the only internals it touches, and nunjucks is pinned to an exact
 * version so they cannot move under it. The integration tests exercise every one of them.
 */
import { createRequire } from 'node:module';
import nunjucks from 'nunjucks';
import type { Environment } from 'nunjucks';

/** A node of the template AST; only the top-level list is looked at, by node type. */
export interface AstNode {
  readonly typename: string;
}

export interface AstRoot extends AstNode {
  children: AstNode[];
  /** Every node below of one node class (nunjucks' `nodes.Import`, …), at any depth. */
  findAll<T extends AstNode>(type: new (...args: never[]) => T): T[];
}

/** `{% import %}` and `{% from … import %}`: `withContext` is null unless the template says. */
export interface ImportNode extends AstNode {
  withContext: boolean | null;
}

/** The render context nunjucks creates for one render (its class is not exported). */
export interface RenderContext {
  /** The variables, a copy of the object given to `render`. */
  ctx: Record<string, unknown>;
  lookup(name: string): unknown;
  getBlock(name: string): RenderFunction;
}

/** A variable scope; opaque here, handed from function to function. */
export type Frame = object;

export type RenderCallback = (error: unknown, output?: string) => void;

/** The runtime helpers that compiled code calls (`runtime.suppressValue(...)` and so on). */
export interface Runtime {
  ensureDefined(value: unknown, lineno: number, colno: number): unknown;
  handleError(error: unknown, lineno: number, colno: number): unknown;
  makeMacro: (this: void, argNames: readonly string[], kwargNames: readonly string[], func: (this: unknown, ...args: unknown[]) => unknown) => (this: unknown, ...args: unknown[]) => unknown;
}

/** The signature of every compiled function: the template's `root` and one `b_<name>` per block. */
export type RenderFunction = (
  env: Environment,
  context: RenderContext,
  frame: Frame,
  runtime: Runtime,
  cb: RenderCallback,
) => void;

/** nunjucks' error type; `lineno`/`colno` are 1-based once set. */
export interface TemplateError extends Error {
  lineno?: number | undefined;
  colno?: number | undefined;
}

/** The compiler's own scopes (nunjucks' `Frame`, used at compile time): names → JavaScript expressions. */
export interface CompileFrame {
  set(name: string, value: string): void;
  lookup(name: string): string | undefined | null;
  push(isolateWrites?: boolean): CompileFrame;
}

interface Extension {
  preprocess?: (source: string) => string;
}

interface Internals {
  parser: { parse(source: string, extensions: Extension[], options: object): AstRoot };
  compiler: {
    Compiler: new (
      templateName: string,
      throwOnUndefined: boolean,
    ) => { compile(ast: AstRoot): void; getCode(): string };
  };
  runtime: Runtime & { Frame: new () => CompileFrame };
  nodes: { Import: new (...args: never[]) => ImportNode; FromImport: new (...args: never[]) => ImportNode } & Record<string, new (...args: never[]) => AstNode>;
  lib: { TemplateError: new (message: unknown, lineno?: number, colno?: number) => TemplateError };
}

/** The environment fields the compiler needs; public in nunjucks' source, untyped in @types/nunjucks. */
export interface EnvironmentInternals {
  asyncFilters: string[];
  extensionsList: Extension[];
  opts: object;
}

const internals = nunjucks as unknown as Internals;
// The transformer is not re-exported by nunjucks' index; it rewrites the AST for async filters
// exactly as nunjucks' own compile step does.
const requireCommonJs = createRequire(import.meta.url);
const transformer = requireCommonJs('nunjucks/src/transformer.js') as {
  transform: (ast: AstRoot, asyncFilters: string[], name: string) => AstRoot;
};

export const parser = internals.parser;
export const Compiler = internals.compiler.Compiler;
export const baseRuntime: Runtime = internals.runtime;
export const CompileFrame = internals.runtime.Frame;
export const TemplateError = internals.lib.TemplateError;
export const transform = transformer.transform;
export const ImportNodes = [internals.nodes.Import, internals.nodes.FromImport] as const;
/** Every AST node class by its name (`Block`, `FilterAsync`…), for `findAll`. */
export const nodeTypes: Readonly<Record<string, new (...args: never[]) => AstNode>> = internals.nodes;

export function environmentInternals(env: Environment): EnvironmentInternals {
  return env as unknown as EnvironmentInternals;
}
