/**
 * How deeply a request body may nest arrays and objects (`BODY_MAX_DEPTH`). Forms and JSON APIs
 * need a handful of levels; thousands are an attack on every piece of code that walks a value
 * by recursion (the outside review's `[[[[…]]]]` 5000 deep gave a 500 with a stack overflow).
 * PHP's json_decode stops at 512, the `qs` parser at 5 bracket levels; 32 leaves room for any
 * real form or API payload while keeping every walk over a body shallow.
 */
export const DEFAULT_BODY_MAX_DEPTH = 32;

/**
 * Whether no array or object in `value` lies deeper than `maxDepth` levels (a flat object is
 * depth 1, a scalar 0). Walks with its own stack, never by recursion, so the check itself cannot
 * overflow whatever it is given, and stops at the first level past the limit.
 */
export function bodyDepthWithin(value: unknown, maxDepth: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (typeof next.value !== 'object' || next.value === null || ArrayBuffer.isView(next.value)) continue;
    const depth = next.depth + 1;
    if (depth > maxDepth) return false;
    for (const child of Object.values(next.value)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth });
    }
  }
  return true;
}
