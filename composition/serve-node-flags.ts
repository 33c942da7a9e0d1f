/**
 * The node flags of fw's own start command (`npm start` in package.json: `node <flags>
 * dist/bin/fwx.js serve`; a test keeps the two the same).
 *
 * `--max-semi-space-size=4`: V8's young generation at most 2 × 4 MB from the first line of code.
 * Without it, loading fw's modules grows it to 2 × 16 MB before fw runs (2 × 64 MB on Node 24),
 * and fw can only give that back later, from inside (composition/young-generation.ts: the
 * fallback for an app's own entry or a host that imports fw). Measured in one run of the peers
 * bench (docs/performance.md, 2026-12-07): RSS once ready 104–106 against 127–131 MB, idle
 * 86–92 against 90–102, and 6–12 % less CPU per page request than the fallback. With the flag
 * given, fw leaves V8's sizing alone.
 */
export const SERVE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];
