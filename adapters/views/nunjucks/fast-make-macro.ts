/**
 * nunjucks' `runtime.makeMacro` wraps every macro in a function that copies its arguments
 * into a new array, finds the keyword arguments twice and then `apply`s the macro. When a
 * call passes exactly the macro's positional parameters (plus, or without, the keyword
 * arguments) nunjucks passes that array on unchanged; this wrapper does the same without the
 * copy and the second search, and hands every other call to nunjucks' own wrapper. A page of
 * 40 UI kit fields makes ~90 macro calls (bench/ui-kit.bench.ts: the wrapper was ~5 %).
 */
type Macro = (this: unknown, ...args: unknown[]) => unknown;
type MakeMacro = (this: void, argNames: readonly string[], kwargNames: readonly string[], func: Macro) => Macro;

export function fastMakeMacro(original: MakeMacro): MakeMacro {
  return (argNames, kwargNames, func) => {
    const general = original(argNames, kwargNames, func);
    const count = argNames.length;
    return function macro(this: unknown, ...args: unknown[]): unknown {
      const length = args.length;
      // nunjucks' isKeywordArgs: a last argument carrying its own `__keywords`.
      const last: unknown = length > 0 ? args[length - 1] : undefined;
      const positional = Boolean(last) && Object.hasOwn(last as object, '__keywords') ? length - 1 : length;
      return positional === count ? func.apply(this, args) : general.apply(this, args);
    };
  };
}
