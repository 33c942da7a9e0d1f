#!/usr/bin/env node
// `npx fwx …` lands here. The framework ships TypeScript sources; tsx compiles them on load,
// so there is no build step between editing a file and running it.
import { register } from 'tsx/esm/api';

register();
await import('./fwx.ts');
