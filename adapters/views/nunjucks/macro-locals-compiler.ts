/**
 * nunjucks' code generator with macro variables held in JavaScript locals.
 *
 * nunjucks 3.2.4 keeps a macro's keyword parameters and its `{% set %}`s only in a run-time
 * `Frame` (a dictionary): every call stores each parameter (`frame.set`) and every use looks
 * it up again (`runtime.contextOrFrameLookup`, walking the frames). A UI kit field takes ~16
 * keyword parameters and reads the result of `fw_field()` a dozen times; profiling
 * bench/ui-kit.bench.ts put ~30 % of a kit page in those stores and lookups. nunjucks already
 * compiles positional parameters to locals (`l_name`); this compiler does the same, inside
 * macros only, for:
 *
 * - keyword parameters (`var l_type = … ? kwargs["type"] : "text"`), and
 * - `{% set %}`s that run unconditionally in the macro's body or in a `{% for %}` body
 *   (direct children: not under an `if`), from that point of the code on.
 *
 * What a template sees stays nunjucks' own (tests/integration/views/macro-locals.test.ts
 * renders its corners with both): a read of such a name is
 * `(l_x !== undefined ? l_x : <nunjucks' lookup>)`, because nunjucks' frames skip a name whose
 * value is undefined and go on to the page's variables. A name that a `{% call %}` body inside
 * the macro assigns is left to nunjucks' frames, and a call body reads the enclosing macro's
 * names through the frames as nunjucks does (they are the frames of whichever macro runs it).
 *
 * The frame stores are left out in a macro that holds no `{% call %}`, `{% include %}`,
 * `{% import %}` or `{% from %}` (the statements that let other code read its frame by name),
 * for names every read of which is a local. A macro with an include, an import or anything
 * asynchronous is compiled exactly as nunjucks compiles it.
 *
 * Top-level template code (outside macros) is compiled as nunjucks compiles it.
 */
import { FrameworkError } from '../../../domain/shared/errors.js';
import type { AstNode, AstRoot } from './nunjucks-internals.js';
import { Compiler, CompileFrame, nodeTypes } from './nunjucks-internals.js';

interface Node extends AstNode {
  value?: unknown;
  lineno?: number;
  colno?: number;
  key?: Node;
  children?: Node[];
  args?: Node & { children: Node[] };
  body?: Node & { children?: Node[] };
  targets?: Node[];
  findAll(type: unknown, results?: Node[]): Node[];
}

/** The scratch local of a macro's inlined member lookups (compileLookupVal). */
const MEMBER = 'fw_member';

/** The scratch local of a macro's inlined calls (compileFunCall). */
const CALLEE = 'fw_callee';

/** Statements that give the run-time frame to other code, or run later: such macros stay nunjucks'. */
const FRAME_READERS = ['Include', 'Import', 'FromImport', 'Extends', 'Block', 'Super', 'FilterAsync', 'CallExtensionAsync', 'IfAsync', 'AsyncEach', 'AsyncAll'] as const;

const type = (name: string): unknown => {
  const found = nodeTypes[name];
  if (found === undefined) throw new FrameworkError('view.unexpected-compiler-output', `nunjucks has no ${name} node; check the nunjucks version`);
  return found;
};

/** What the base class does that this one calls; nunjucks' own methods, untyped there. */
interface BaseCompiler {
  _emit(code: string): void;
  _emitLine(code: string): void;
  _emitLines(...lines: string[]): void;
  _tmpid(): string;
  _pushBuffer(): string;
  _popBuffer(): void;
  _withScopedSyntax(fn: () => void): void;
  _compileExpression(node: Node, frame: CompileFrame): void;
  _compileMacro(node: Node, frame?: CompileFrame): string;
  compileSet(node: Node, frame: CompileFrame): void;
  _emitLoopBindings(node: Node, arr: string, i: string, len: string): void;
  compileLookupVal(node: Node, frame: CompileFrame): void;
  compileFunCall(node: Node, frame: CompileFrame): void;
  _compileAggregate(node: Node, frame: CompileFrame, start: string, end: string): void;
  _getNodeName(node: Node): string;
  compile(node: Node, frame: CompileFrame): void;
  assertType(node: Node, ...types: unknown[]): void;
}

type CompilerClass = new (name: string, strict: boolean) => BaseCompiler & { compile(ast: AstRoot): void; getCode(): string };
const Base = Compiler as unknown as CompilerClass;
const base: BaseCompiler = Base.prototype as BaseCompiler;

export class MacroLocalsCompiler extends Base {
  /** Read expression → the local it reads, for the names this compiler made locals. */
  private readonly locals = new Map<string, string>();
  /** Read expressions of locals every read of which, in their whole macro, is compiled to the local. */
  private readonly wholeMacro = new Set<string>();
  /** `{% set %}`s run unconditionally in their macro's body: the name is a local from there on. */
  private readonly macroLevel = new WeakSet<Node>();
  /** `{% set %}`s run unconditionally in a `{% for %}` body: a local from there on in the loop body. */
  private readonly loopLevel = new WeakSet<Node>();
  /** Names assigned inside a `{% call %}` body, per macro being compiled (kept in frames). */
  private readonly sharedNames: ReadonlySet<string>[] = [];
  /** `{% set %}`s of macros compiled here (the others are nunjucks' own). */
  private readonly withLocals = new WeakSet<Node>();
  /** `{% set %}`s in a macro whose frame no other code reads: no frame store needed once a local. */
  private readonly frameless = new WeakSet<Node>();
  /** How deep the code being generated is in macros compiled here. */
  private macroDepth = 0;
  /** Reads that are nunjucks' own lookup by name (an enclosing macro's locals, seen from a call body). */
  private readonly byName = new Set<string>();

  override _compileMacro(node: Node, frame?: CompileFrame): string {
    const body = node.body as Node;
    if (FRAME_READERS.some((name) => body.findAll(type(name)).length > 0)) return base._compileMacro.call(this, node, frame);
    const sets = body.findAll(type('Set'));
    const callers = body.findAll(type('Caller'));
    for (const set of sets) {
      this.withLocals.add(set);
      // A call body reads the frame of whatever macro runs it (nunjucks' frames are dynamic): kept.
      if (callers.length === 0) this.frameless.add(set);
    }
    for (const child of body.children ?? []) if (child.typename === 'Set') this.macroLevel.add(child);
    // A loop's `{% else %}` is compiled in the loop's scope but runs when the body did not.
    for (const loop of body.findAll(type('For')).filter((found) => !(found as Node & { else_?: unknown }).else_)) {
      for (const child of loop.body?.children ?? []) if (child.typename === 'Set') this.loopLevel.add(child);
    }
    const shared = new Set<string>();
    for (const caller of callers) {
      for (const set of (caller.body as Node).findAll(type('Set'))) for (const target of set.targets ?? []) shared.add(String(target.value));
    }
    this.sharedNames.push(shared);
    try {
      return this.compileMacroWithLocals(node, frame, callers.length === 0);
    } finally {
      this.sharedNames.pop();
    }
  }

  /** nunjucks 3.2.4's `_compileMacro`, with keyword parameters as locals and no frame stores. */
  private compileMacroWithLocals(node: Node, frame: CompileFrame | undefined, frameless: boolean): string {
    const args: Node[] = [];
    let kwargs: Node | null = null;
    const funcId = `macro_${this._tmpid()}`;
    const keepFrame = frame !== undefined;
    const children = node.args?.children ?? [];
    children.forEach((arg, i) => {
      if (i === children.length - 1 && arg instanceof (type('Dict') as new () => Node)) {
        kwargs = arg;
      } else {
        this.assertType(arg, type('Symbol'));
        args.push(arg);
      }
    });
    const pairs = (kwargs as Node | null)?.children ?? [];
    const realNames = [...args.map((arg) => `l_${String(arg.value)}`), 'kwargs'];
    const argNames = args.map((arg) => `"${String(arg.value)}"`);
    const kwargNames = pairs.map((pair) => `"${String(pair.key?.value)}"`);
    const currFrame = frame !== undefined ? frame.push(true) : new CompileFrame();
    // A call body reads the enclosing macro's keyword parameters and sets as nunjucks does, by
    // name through the frames (which, nunjucks being nunjucks, are those of the macro running it).
    if (frame !== undefined) this.shadowLocals(frame, currFrame);
    this._emitLines(
      `var ${funcId} = runtime.makeMacro(`,
      `[${argNames.join(', ')}], `,
      `[${kwargNames.join(', ')}], `,
      `function (${realNames.join(', ')}) {`,
      'var callerFrame = frame;',
      `frame = ${keepFrame ? 'frame.push(true);' : 'new runtime.Frame();'}`,
      'kwargs = kwargs || {};',
      'if (Object.prototype.hasOwnProperty.call(kwargs, "caller")) {',
      'frame.set("caller", kwargs.caller); }',
      `var ${MEMBER} = null, ${CALLEE} = null;`,
    );
    for (const arg of args) {
      const name = String(arg.value);
      // As nunjucks: positional parameters are locals already; a frame copy only if a call body shares it.
      if (!frameless || this.shared(name)) this._emitLine(`frame.set("${name}", l_${name});`);
      currFrame.set(name, `l_${name}`);
    }
    for (const pair of pairs) {
      const name = String(pair.key?.value);
      // `loop` stays a frame value: every `{% for %}` inside sets its own, which a local would hide.
      if (name === 'caller' || name === 'loop' || this.shared(name)) {
        this._emit(`frame.set("${name}", Object.prototype.hasOwnProperty.call(kwargs, "${name}") ? kwargs["${name}"] : `);
        this._compileExpression(pair.value as Node, currFrame);
        this._emit(');');
        continue;
      }
      const local = `l_${name}`;
      this._emit(`var ${local} = Object.prototype.hasOwnProperty.call(kwargs, "${name}") ? kwargs["${name}"] : `);
      this._compileExpression(pair.value as Node, currFrame);
      this._emit(';');
      if (!frameless) this._emitLine(`frame.set("${name}", ${local});`);
      this.wholeMacro.add(this.declare(currFrame, name, local));
    }
    const bufferId = this._pushBuffer();
    this.macroDepth += 1;
    try {
      this._withScopedSyntax(() => {
        this.compile(body(node), currFrame);
      });
    } finally {
      this.macroDepth -= 1;
    }
    this._emitLine(`frame = ${keepFrame ? 'frame.pop();' : 'callerFrame;'}`);
    this._emitLine(`return new runtime.SafeString(${bufferId});`);
    this._emitLine('});');
    this._popBuffer();
    return funcId;
  }

  /** Makes `name` read `local` from here on in `frame`'s scope, falling back as nunjucks does on undefined. */
  private declare(frame: CompileFrame, name: string, local: string): string {
    const read = `(${local} !== undefined ? ${local} : runtime.contextOrFrameLookup(context, frame, "${name}"))`;
    this.locals.set(read, local);
    frame.set(name, read);
    return read;
  }

  /**
   * The `loop` variable of a `{% for %}` turn, as nunjucks' seven `frame.set("loop.index", …)`
   * calls store it (`frame.variables.loop`, made on the first turn, then updated), written
   * directly: each call split its dotted name and walked it (~7 % of a kit page's options).
   */
  override _emitLoopBindings(node: Node, arr: string, i: string, len: string): void {
    if (this.macroDepth === 0) {
      base._emitLoopBindings.call(this, node, arr, i, len);
      return;
    }
    const loop = this._tmpid();
    this._emitLine(`var ${loop} = frame.variables["loop"] || (frame.variables["loop"] = {});`);
    this._emitLine(`${loop}.index = ${i} + 1; ${loop}.index0 = ${i}; ${loop}.revindex = ${len} - ${i}; ${loop}.revindex0 = ${len} - ${i} - 1;`);
    this._emitLine(`${loop}.first = ${i} === 0; ${loop}.last = ${i} === ${len} - 1; ${loop}.length = ${len};`);
  }

  /**
   * `a.b` and `a[0]` as nunjucks' `runtime.memberLookup` answers them (undefined for a missing
   * object, a bound function for a method), written out where they are used: V8 then keeps one
   * small property cache per place instead of one shared, overloaded one inside memberLookup
   * (~7 % of a kit page: `s.p.type`, `item.value`…). Methods still go through memberLookup.
   */
  override compileLookupVal(node: Node & { target: Node; val: Node }, frame: CompileFrame): void {
    const key = node.val.typename === 'Literal' ? node.val.value : undefined;
    if (this.macroDepth === 0 || (typeof key !== 'string' && typeof key !== 'number')) {
      base.compileLookupVal.call(this, node, frame);
      return;
    }
    const property = `${MEMBER}[${JSON.stringify(key)}]`;
    this._emit(`((${MEMBER} = `);
    this._compileExpression(node.target, frame);
    this._emit(`) === undefined || ${MEMBER} === null ? undefined : typeof ${property} === "function" ? runtime.memberLookup(${MEMBER}, ${JSON.stringify(key)}) : ${property})`);
  }

  /**
   * `f(a, b)` inside a macro calls `f` directly with the page's context as `this`, as
   * `runtime.callWrap` does, without the array of arguments callWrap takes (~6 % of a kit page
   * with the macro wrapper). The callee is read before its arguments, as JavaScript reads
   * `f.call` before evaluating the arguments; anything that is not a function goes to callWrap,
   * which fails with nunjucks' own message.
   */
  override compileFunCall(node: Node & { name: Node; args: Node & { children: Node[] } }, frame: CompileFrame): void {
    if (this.macroDepth === 0) {
      base.compileFunCall.call(this, node, frame);
      return;
    }
    this._emit(`(lineno = ${String(node.lineno)}, colno = ${String(node.colno)}, (${CALLEE} = `);
    this._compileExpression(node.name, frame);
    this._emit(`, typeof ${CALLEE} === "function" ? ${CALLEE}.call(context${node.args.children.length > 0 ? ', ' : ''}`);
    this._compileAggregate(node.args, frame, '', ')');
    this._emit(` : runtime.callWrap(${CALLEE}, "${this._getNodeName(node.name).replace(/"/g, '\\"')}", context, [])))`);
  }

  /** Names of `outer`'s scopes that are this compiler's locals read, in `inner`, through the frames. */
  private shadowLocals(outer: CompileFrame, inner: CompileFrame): void {
    const seen = new Set<string>();
    for (let scope: ScopeChain | undefined = outer as unknown as ScopeChain; scope !== undefined; scope = scope.parent) {
      for (const [name, read] of Object.entries(scope.variables)) {
        if (seen.has(name)) continue;
        seen.add(name);
        if (!this.locals.has(read)) continue;
        const lookup = `runtime.contextOrFrameLookup(context, frame, "${name}")`;
        this.byName.add(lookup);
        inner.set(name, lookup);
      }
    }
  }

  private shared(name: string): boolean {
    return this.sharedNames.some((names) => names.has(name));
  }

  /**
   * nunjucks 3.2.4's `compileSet`, writing the locals above. The frame is written too, unless
   * every read of the name in the macro is compiled to a local (a parameter, or a set at the
   * macro's level: reads before it ran before it, as the macro's level has no loop).
   */
  override compileSet(node: Node, frame: CompileFrame): void {
    if (!this.withLocals.has(node)) {
      base.compileSet.call(this, node, frame);
      return;
    }
    const targets = node.targets ?? [];
    const ids: string[] = [];
    const known: (string | null)[] = [];
    for (const target of targets) {
      const found = frame.lookup(String(target.value));
      const read = typeof found === 'string' && !this.byName.has(found) ? found : null;
      known.push(read);
      if (read === null) {
        const made = this._tmpid();
        this._emitLine(`var ${made};`);
        ids.push(made);
      } else {
        ids.push(this.locals.get(read) ?? read);
      }
    }
    this._emit(`${ids.join(' = ')} = `);
    if (node.value) this._compileExpression(node.value as Node, frame);
    else this.compile(node.body as Node, frame);
    this._emitLine(';');
    targets.forEach((target, i) => {
      const name = String(target.value);
      const id = ids[i] as string;
      const read = known[i] ?? null;
      const fresh = read === null && !this.shared(name);
      const local = fresh && (this.macroLevel.has(node) || this.loopLevel.has(node));
      const framed = !this.frameless.has(node) || !((fresh && this.macroLevel.has(node)) || (read !== null && this.wholeMacro.has(read)));
      if (framed) this._emitLine(`frame.set("${name}", ${id}, true);`);
      this._emitLine('if(frame.topLevel) {');
      this._emitLine(`context.setVariable("${name}", ${id});`);
      this._emitLine('}');
      if (!name.startsWith('_')) {
        this._emitLine('if(frame.topLevel) {');
        this._emitLine(`context.addExport("${name}", ${id});`);
        this._emitLine('}');
      }
      if (local) {
        const declared = this.declare(frame, name, id);
        if (this.macroLevel.has(node)) this.wholeMacro.add(declared);
      }
    });
  }
}

interface ScopeChain {
  variables: Record<string, string>;
  parent?: ScopeChain;
}

function body(node: Node): Node {
  return node.body as Node;
}
