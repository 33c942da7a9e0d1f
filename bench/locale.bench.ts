/**
 * The locale stage's cost per request (docs/decisions.md, 'the locale is a pipeline stage'):
 * what the stage always does (the session's saved locale among the app's languages), what the
 * first `ctx.lang` did before the memo (negotiating `Accept-Language` afresh), and what it does
 * now (the header's answer remembered). CPU time of this process, so other load on the machine
 * does not count. Run: `npm run build && node dist/bench/locale.bench.js` (or `npx tsx bench/locale.bench.ts`).
 */
import { negotiateLocale, savedLocaleAmong } from '../domain/lang/negotiate-locale.js';
import { headerNegotiation } from '../adapters/http/kernel/stages/locale.js';

const available = ['de', 'en', 'fr'];
/** What browsers send: a handful of distinct headers, over and over. */
const headers = ['de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7', 'en-US,en;q=0.9', 'fr-FR,fr;q=0.9,en;q=0.5', 'es;q=0.9, de-AT;q=0.8, en;q=0.1'];

function nanosecondsPerCall(run: (index: number) => unknown, calls: number): number {
  for (let i = 0; i < calls / 5; i++) run(i);
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) run(i);
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / calls;
}

const remembered = headerNegotiation(available, 'en');
const rounds = 3;
const rows: Record<string, number[]> = { stage: [], afresh: [], remembered: [] };
for (let round = 0; round < rounds; round++) {
  rows['stage']?.push(nanosecondsPerCall((i) => savedLocaleAmong(i % 2 === 0 ? undefined : 'de', available), 2_000_000));
  rows['afresh']?.push(nanosecondsPerCall((i) => negotiateLocale({ session: null, acceptLanguage: headers[i % headers.length], available, fallback: 'en' }), 200_000));
  rows['remembered']?.push(nanosecondsPerCall((i) => remembered(headers[i % headers.length]), 2_000_000));
}
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const afresh = median(rows['afresh'] ?? []);
console.log('locale stage, CPU ns per request (median of 3 rounds):');
for (const [name, values] of Object.entries(rows)) {
  const value = median(values);
  console.log(`${name.padEnd(12)} ${value.toFixed(0).padStart(8)} ns  ×${(value / afresh).toFixed(3)} of negotiating afresh`);
}
