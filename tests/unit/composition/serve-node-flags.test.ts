import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_ROOT } from '../../../composition/app.js';
import { SERVE_NODE_FLAGS } from '../../../composition/serve-node-flags.js';

describe("fw's start command", () => {
  it('starts node with SERVE_NODE_FLAGS, the flags the peers bench measures fw with', () => {
    const manifest = JSON.parse(readFileSync(join(FRAMEWORK_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts['start']).toBe(`npm run build && node ${SERVE_NODE_FLAGS.join(' ')} dist/bin/fwx.js serve`);
  });

  it('sizes the young generation at 2 × 4 MB, the cap fw holds it to without the flag', () => {
    expect(SERVE_NODE_FLAGS).toContain('--max-semi-space-size=4');
  });
});
