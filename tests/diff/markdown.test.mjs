// `cli diff --summary md` read by marked, a GitHub-flavoured Markdown
// parser we did not write: the totals, functions and calls come out as
// HTML tables with the expected header and cells; the rows past --top sit
// in a <details> block; a name holding '|' and '`' stays one cell.
// Needs CLI and DIFF_TEST_DEPS (run.sh sets them).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const deps = process.env.DIFF_TEST_DEPS;
const { marked } = await import(pathToFileURL(path.join(deps, 'node_modules/marked/lib/marked.esm.js')).href);

const dir = mkdtempSync(path.join(tmpdir(), 'zkprof-diff-'));
const before = path.join(dir, 'before.folded');
const after = path.join(dir, 'after.folded');
writeFileSync(before, ['main;verify;hash 100', 'main;a|b`c 40', 'main;[ecall:SHA_COMPRESS] 3', 'main;f1 1', 'main;f2 1', 'main;f3 1', ''].join('\n'));
writeFileSync(after, ['main;verify;hash 120', 'main;a|b`c 45', 'main;[ecall:SHA_COMPRESS] 5', 'main;f1 2', 'main;f2 3', 'main;f3 4', ''].join('\n'));

const r = spawnSync(process.env.CLI, ['diff', before, after, '--summary', 'md', '--top', '3'], { encoding: 'utf8' });
assert.equal(r.status, 0, r.stderr);
const html = marked.parse(r.stdout, { gfm: true });

// <table>s and their rows as arrays of cell texts (tags stripped, entities decoded)
const decode = (s) => s.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").trim();
const tables = [...html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map((m) =>
  [...m[1].matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => [...row[1].matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => decode(c[1]))),
);
// totals, top functions, the folded rest, calls
assert.equal(tables.length, 4, html);
assert.deepEqual(tables[0][0], ['weight', 'before', 'after', 'change']);
assert.deepEqual(tables[0][1], ['samples', '146', '179', '+33 (+22.60%)']);
assert.deepEqual(tables[1][0].slice(0, 4), ['function', 'inclusive before', 'inclusive after', 'change']);
assert.equal(tables[1].length, 1 + 3);
for (const row of tables[1].concat(tables[2].slice(1))) assert.equal(row.length, 7, `a row split: ${row}`);
const names = tables[1].slice(1).map((row) => row[0]).concat(tables[2].slice(1).map((row) => row[0]));
assert.ok(names.includes('a|b`c'), `the name with '|' and a backtick: ${names}`);
assert.match(html, /<details><summary>\d+ more<\/summary>/);
assert.ok(html.indexOf('<details>') < html.indexOf('<table>', html.indexOf(tables[1][1][0])), 'the rest sits in <details>');
assert.deepEqual(tables[3][0].slice(0, 2), ['call', 'calls before']);
assert.deepEqual(tables[3][1].slice(0, 4), ['[ecall:SHA_COMPRESS]', '3', '5', '+2 (+66.67%)']);
console.log('ok: the Markdown summary renders as tables (marked, GFM)');
