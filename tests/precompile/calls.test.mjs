// Every call of one zkVM, through its ABI's own handler (call_harness),
// against implementations we did not write: @noble/curves, @noble/hashes
// and JavaScript's BigInt. calls/ZKVM.mjs lists the calls: for each, the
// request lines in the call's memory contract as the zkVM's executor source
// defines it (cited there), and the answer the reference gives.
//
//   node calls.test.mjs ZKVM [--long] [--seed N] [CALL...]
//
// A default run checks a thousand random inputs per call (fewer where a call
// asks: `quick`) plus its edge cases; --long (or ZKPROF_LONG_TESTS=1) a
// million random inputs per call.
// Needs CALL_HARNESS, GUEST_DIR and PRECOMPILE_TEST_DEPS (the folder whose
// node_modules holds the npm packages; run.sh sets them).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const zkvm = args.shift();
let long = process.env.ZKPROF_LONG_TESTS === '1';
let seed = 20261207;
const only = [];
while (args.length) {
  const a = args.shift();
  if (a === '--long') long = true;
  else if (a === '--seed') seed = Number(args.shift());
  else only.push(a);
}
if (!zkvm) {
  console.error('usage: node calls.test.mjs ZKVM [--long] [--seed N] [CALL...]');
  process.exit(2);
}

const harness = process.env.CALL_HARNESS ?? 'build/tests/precompile/call_harness';
const guestDir = process.env.GUEST_DIR ?? 'build/guests';
const deps = process.env.PRECOMPILE_TEST_DEPS ?? 'build/tests/precompile';

// An npm package's module by its path under node_modules.
async function npm(modulePath) {
  const file = path.resolve(deps, 'node_modules', modulePath);
  return import(pathToFileURL(file).href);
}

const { suite } = await import(`./calls/${zkvm}.mjs`);
const calls = await suite({ npm });
const RANDOM = long ? 1_000_000 : 1000;
const BATCH = 20000;

// Runs the lines through call_harness on one guest ("FILE" or "FILE@RELEASE",
// the release as --zkvm-release names it); returns its output lines.
function runHarness(guest, lines) {
  const [file, release] = guest.split('@');
  const r = spawnSync(harness, [zkvm, path.join(guestDir, file), ...(release ? [release] : [])], {
    input: lines.join('\n') + '\n',
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    throw new Error(`call_harness ${zkvm} ${guest} exited ${r.status}: ${r.stderr}${r.error ?? ''}`);
  }
  return r.stdout.split('\n').slice(0, lines.length);
}

// Whether an answer is what the case wants: the exact line, a fault of the named call, or what
// want.check accepts (a case whose reference needs the answer itself, e.g. a final XOR).
function matches(got, want) {
  if (typeof want === 'string') return got === want;
  if (want.check) return want.check(got);
  return got.startsWith(`fault ${want.fault}:`) && (!want.why || got.includes(want.why));
}

function describe(want) {
  if (want.check) return want.text;
  return typeof want === 'string' ? want : `fault ${want.fault}: ...${want.why ?? ''}`;
}

let failures = 0;
let checked = 0;
for (const call of calls) {
  if (only.length && !only.includes(call.name)) continue;
  let n = 0;
  let bad = 0;
  const started = Date.now();
  const check = (cases) => {
    const byGuest = new Map();
    for (const c of cases) {
      if (!byGuest.has(c.guest ?? call.guest)) byGuest.set(c.guest ?? call.guest, []);
      byGuest.get(c.guest ?? call.guest).push(c);
    }
    for (const [guest, list] of byGuest) {
      const lines = list.flatMap((c) => c.lines);
      const out = runHarness(guest, lines);
      let at = 0;
      for (const c of list) {
        const got = out.slice(at, at + c.lines.length);
        at += c.lines.length;
        const wants = Array.isArray(c.want) ? c.want : [c.want];
        // Only the last line's answer is checked unless the case gives one per line.
        const pairs = wants.length === got.length ? got.map((g, i) => [g, wants[i]]) : [[got.at(-1), wants.at(-1)]];
        n++;
        if (pairs.every(([g, w]) => matches(g ?? '', w))) continue;
        bad++;
        if (bad <= 5) {
          console.log(`FAIL ${call.name}: ${c.what}`);
          for (const l of c.lines) console.log(`  request: ${l}`);
          for (const [g, w] of pairs) console.log(`  got:     ${g}\n  want:    ${describe(w)}`);
        }
      }
    }
  };
  check(call.edges?.() ?? []);
  const rng = new (await import('./calls/common.mjs')).Rng(seed ^ hashName(call.name));
  // a call may ask for fewer inputs: `quick` in a default run, `max` in a long one
  const random = call.random ? (long ? Math.min(RANDOM, call.max ?? RANDOM) : (call.quick ?? RANDOM)) : 0;
  for (let done = 0; done < random; done += BATCH) {
    const cases = [];
    for (let i = done; i < Math.min(random, done + BATCH); i++) cases.push(call.random(rng, i));
    check(cases);
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${bad ? 'FAIL' : 'ok  '} ${call.name}: ${n - bad}/${n} in ${secs} s (${call.reference})`);
  failures += bad;
  checked += n;
}

function hashName(name) {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return h >>> 0;
}

if (!checked) {
  console.log(`error: no call of ${zkvm} matched ${only.join(' ')}`);
  process.exit(1);
}
console.log(`${zkvm}: ${checked - failures}/${checked} calls answered as the reference does`);
process.exit(failures ? 1 : 0);
