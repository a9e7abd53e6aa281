// Drives a flamegraph SVG in a real headless Chromium (Debian's
// /usr/bin/chromium) with playwright-core: real mouse clicks, hovers, keys and
// prompt dialogs, through the DOM contract of docs/FORMATS.md ("Flamegraph
// SVG"). Run it with tests/browser/run.sh, which installs what it needs.
//
// `cli flamegraph` renders PROFILE below; every expectation is computed from
// PROFILE's lines here, not read back from the SVG. Checked:
// - the frames and their titles (name, count, share of the total);
// - hovering a frame puts its title in #details, leaving it restores it;
// - clicking a frame zooms into it: its rect spans the drawable width
//   (width - 2 * data-pad) from x = pad, descendants scale with it (width
//   and offset in proportion to their counts), ancestors are dimmed (class
//   "parent") at full width, every other frame is hidden, names are fitted
//   again to the new widths, Reset Zoom shows; clicking Reset Zoom (or Esc)
//   restores every frame exactly;
// - Search (a click on #search, or Ctrl-F, or F3) asks in a prompt dialog;
//   the answer highlights the matching frames (fill rgb(230,0,230)) and
//   #matched shows the share of the samples in view under at least one
//   match (nested matches counted once; relative to the zoomed frame when
//   zoomed; an invalid regular expression taken literally); Reset Search
//   restores the fills and hides the percentage;
// - a screenshot of the page is a PNG of the viewport's size.
// Prints one line per test and a last line "N passed, M failed"; exits 1 when
// any failed.
//
// Environment: CLI (the cli binary), CHROMIUM (default /usr/bin/chromium),
// BROWSER_TEST_DEPS (the directory whose node_modules holds playwright-core;
// default: this one), KEEP_SCREENSHOT (copy the screenshot there).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const deps = process.env.BROWSER_TEST_DEPS || here;
const { chromium } = createRequire(path.join(deps, 'package.json'))('playwright-core');
const CLI = process.env.CLI || path.join(here, '..', '..', 'build', 'cli', 'cli');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

const UNIT = 'instructions';
const HIGHLIGHT = 'rgb(230,0,230)';
const PROFILE = [
  ['main;a;b', 60],
  ['main;a;c', 20],
  ['main;a;c;b', 5],
  ['main;a', 10],
  ['main;d', 20],
  ['main;d;b', 10],
  ['main;d;verify_signature', 5],
  ['main', 15],
  ['main;e;f(int)', 45],
  ['_start;init', 10],
];

// --- expectations, from PROFILE alone --------------------------------------

const stacks = PROFILE.map(([s, n]) => ({ frames: ['all', ...s.split(';')], count: n }));
const TOTAL = stacks.reduce((sum, s) => sum + s.count, 0);

function isPrefix(prefix, frames) {
  return prefix.length <= frames.length && prefix.every((f, i) => frames[i] === f);
}

// The total of the frame at `p` ("all;main;a"): every sample under it.
function totalOf(p) {
  const prefix = p.split(';');
  return stacks.filter((s) => isPrefix(prefix, s.frames)).reduce((sum, s) => sum + s.count, 0);
}

// The share of the samples under `view` with a frame matching `re` anywhere
// on their stack (the view itself and its ancestors cover all of it).
function matchedPercent(re, view = 'all') {
  const prefix = view.split(';');
  let under = 0, matched = 0;
  for (const s of stacks) {
    if (!isPrefix(prefix, s.frames)) continue;
    under += s.count;
    if (s.frames.some((f) => re.test(f))) matched += s.count;
  }
  return (100 * matched) / under;
}

const matchedText = (pct) => `Matched: ${pct.toFixed(2)}%`;
const titleOf = (p) => {
  const n = totalOf(p);
  return `${p.split(';').pop()} (${n} ${UNIT}, ${((100 * n) / TOTAL).toFixed(2)}%)`;
};
const allPaths = [...new Set(stacks.flatMap((s) => s.frames.map((_, i) => s.frames.slice(0, i + 1).join(';'))))];

// --- the page ----------------------------------------------------------------

// Every frame as drawn now, keyed by its path ("all;main;a"), worked out from
// the DOM order (depth-first) and the rows' y.
async function snapshot(page) {
  return page.evaluate(() => {
    const svg = document.getElementById('flamegraph');
    const rowHeight = parseFloat(svg.getAttribute('data-frame-height'));
    const groups = [...document.querySelectorAll('g.frame')];
    const rootY = parseFloat(groups[0].querySelector('rect').getAttribute('y'));
    const stack = [], out = {};
    groups.forEach((g, index) => {
      const rect = g.querySelector('rect');
      const depth = Math.round(Math.abs(rootY - parseFloat(rect.getAttribute('y'))) / rowHeight);
      stack.length = depth;
      stack.push(g.getAttribute('data-name'));
      out[stack.join(';')] = {
        index,
        count: parseFloat(g.getAttribute('data-count')),
        start: parseFloat(g.getAttribute('data-start')),
        title: g.querySelector('title').textContent,
        x: rect.getAttribute('x'),
        width: rect.getAttribute('width'),
        fill: rect.getAttribute('fill'),
        text: g.querySelector('text').textContent,
        textX: g.querySelector('text').getAttribute('x'),
        class: g.getAttribute('class'),
      };
    });
    return out;
  });
}

async function geometry(page) {
  return page.evaluate(() => {
    const svg = document.getElementById('flamegraph');
    const pad = parseFloat(svg.getAttribute('data-pad'));
    const width = parseFloat(svg.getAttribute('width'));
    return { pad, width, height: parseFloat(svg.getAttribute('height')), drawable: width - 2 * pad };
  });
}

const frame = (page, snap, p) => page.locator('g.frame').nth(snap[p].index);
const close = (actual, expected, what) =>
  assert.ok(Math.abs(parseFloat(actual) - expected) < 1e-6, `${what}: ${actual}, expected ${expected}`);

// Answers the next dialog with `answer`; resolves to what it asked, rejects
// when none comes within 5 s.
function answerPrompt(page, answer) {
  return new Promise((resolve, reject) => {
    const onDialog = async (d) => {
      clearTimeout(timer);
      const seen = { type: d.type(), message: d.message() };
      await d.accept(answer);
      resolve(seen);
    };
    const timer = setTimeout(() => {
      page.off('dialog', onDialog);
      reject(new Error(`no prompt came (to answer "${answer}")`));
    }, 5000);
    page.once('dialog', onDialog);
  });
}

// --- tests -------------------------------------------------------------------

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

test('frames and titles match the profile', async (page) => {
  const snap = await snapshot(page);
  assert.deepEqual(Object.keys(snap).sort(), [...allPaths].sort());
  for (const p of allPaths) {
    assert.equal(snap[p].count, totalOf(p), `data-count of ${p}`);
    assert.equal(snap[p].title, titleOf(p), `title of ${p}`);
  }
});

test('hovering a frame shows its details', async (page) => {
  const details = page.locator('#details');
  const before = await details.textContent();
  await page.locator('g.frame[data-name="a"]').hover();
  assert.equal(await details.textContent(), titleOf('all;main;a'));
  await page.locator('#title').hover();
  assert.equal(await details.textContent(), before);
  const snap = await snapshot(page);
  await frame(page, snap, 'all;main;d;b').hover();
  assert.equal(await details.textContent(), titleOf('all;main;d;b'));
});

test('clicking a frame zooms into it; Reset Zoom restores', async (page) => {
  const { pad, drawable } = await geometry(page);
  const before = await snapshot(page);
  assert.ok(await page.locator('#unzoom').isHidden(), 'Reset Zoom hidden before zooming');

  await page.locator('g.frame[data-name="a"]').click();
  const z = await snapshot(page);
  const a = totalOf('all;main;a');
  close(z['all;main;a'].x, pad, 'zoomed x');
  close(z['all;main;a'].width, drawable, 'zoomed width');
  for (const p of ['all;main;a;b', 'all;main;a;c', 'all;main;a;c;b']) {
    close(z[p].width, (drawable * totalOf(p)) / a, `width of ${p}`);
    close(z[p].x, pad + (drawable * (before[p].start - before['all;main;a'].start)) / a, `x of ${p}`);
    assert.ok(await frame(page, z, p).isVisible(), `${p} visible`);
  }
  // b takes 60/95 of the width now: its name fits.
  assert.equal(z['all;main;a;b'].text, 'b');
  for (const p of ['all', 'all;main']) {
    assert.match(z[p].class, /\bparent\b/, `${p} dimmed`);
    close(z[p].width, drawable, `width of ancestor ${p}`);
    assert.ok(await frame(page, z, p).isVisible(), `${p} visible`);
  }
  for (const p of ['all;main;d', 'all;main;d;b', 'all;main;e', 'all;_start', 'all;_start;init']) {
    assert.match(z[p].class, /\bhide\b/, `${p} hidden`);
    assert.ok(await frame(page, z, p).isHidden(), `${p} not displayed`);
  }
  assert.ok(await page.locator('#unzoom').isVisible(), 'Reset Zoom shown');

  await page.locator('#unzoom').click();
  assert.deepEqual(await snapshot(page), before, 'every frame restored');
  assert.ok(await page.locator('#unzoom').isHidden(), 'Reset Zoom hidden again');
});

test('zooming fits names again; clicks zoom deeper; Esc restores', async (page) => {
  const { drawable } = await geometry(page);
  const before = await snapshot(page);
  const v = 'all;main;d;verify_signature';
  // 5 of 200 samples: too narrow for the whole name.
  assert.match(before[v].text, /\.\.$/);
  await frame(page, before, 'all;main;d').click();
  let z = await snapshot(page);
  close(z[v].width, (drawable * 5) / totalOf('all;main;d'), 'width of verify_signature');
  assert.equal(z[v].text, 'verify_signature');
  await frame(page, z, v).click();
  z = await snapshot(page);
  close(z[v].width, drawable, 'verify_signature zoomed');
  assert.match(z['all;main;d'].class, /\bparent\b/);
  assert.match(z['all;main;d;b'].class, /\bhide\b/);
  await page.keyboard.press('Escape');
  assert.deepEqual(await snapshot(page), before, 'Esc restores every frame');
});

test('Search prompts; the matched share is of the samples under a match', async (page) => {
  const before = await snapshot(page);
  const matched = page.locator('#matched');
  assert.ok(await matched.isHidden(), '#matched hidden before searching');

  const asked = answerPrompt(page, 'b');
  await page.locator('#search').click();
  assert.equal((await asked).type, 'prompt');
  assert.equal(await matched.textContent(), matchedText(matchedPercent(/b/)));
  assert.equal(await matched.textContent(), 'Matched: 37.50%');
  assert.ok(await matched.isVisible(), '#matched shown');
  assert.equal(await page.locator('#search').textContent(), 'Reset Search');
  const s = await snapshot(page);
  for (const p of allPaths) {
    const expected = p.split(';').pop() === 'b' ? HIGHLIGHT : before[p].fill;
    assert.equal(s[p].fill, expected, `fill of ${p}`);
  }
  assert.notEqual(before['all;main;a;b'].fill, HIGHLIGHT);

  // Reset Search: no prompt this time.
  let prompted = false;
  const onDialog = (d) => { prompted = true; d.dismiss(); };
  page.on('dialog', onDialog);
  await page.locator('#search').click();
  page.off('dialog', onDialog);
  assert.equal(prompted, false, 'Reset Search does not prompt');
  assert.deepEqual(await snapshot(page), before, 'fills restored');
  assert.ok(await matched.isHidden(), '#matched hidden again');
  assert.equal(await matched.textContent(), '');
  assert.equal(await page.locator('#search').textContent(), 'Search');
});

test('Ctrl-F and F3 prompt; nested matches count once; bad regex is literal', async (page) => {
  const before = await snapshot(page);
  const matched = page.locator('#matched');

  let asked = answerPrompt(page, '^(a|b)$');
  await page.keyboard.press('Control+f');
  assert.equal((await asked).type, 'prompt');
  // b under a is counted once: 95 + 10 of 200.
  assert.equal(await matched.textContent(), matchedText(matchedPercent(/^(a|b)$/)));
  assert.equal(await matched.textContent(), 'Matched: 52.50%');

  asked = answerPrompt(page, 'f(int');
  await page.keyboard.press('F3');
  await asked;
  assert.equal(await matched.textContent(), matchedText(matchedPercent(/f\(int/)));
  assert.equal(await matched.textContent(), 'Matched: 22.50%');
  assert.equal((await snapshot(page))['all;main;e;f(int)'].fill, HIGHLIGHT);

  await page.keyboard.press('Escape');
  assert.deepEqual(await snapshot(page), before, 'Esc resets the search');
  assert.ok(await matched.isHidden());
});

test('a search while zoomed is relative to the zoomed frame', async (page) => {
  const matched = page.locator('#matched');
  const asked = answerPrompt(page, 'b');
  await page.keyboard.press('Control+f');
  await asked;
  assert.equal(await matched.textContent(), matchedText(matchedPercent(/b/)));
  // Zooming keeps the search, now relative to the zoomed frame: 65 of 95.
  await page.locator('g.frame[data-name="a"]').click();
  const expected = matchedPercent(/b/, 'all;main;a');
  assert.equal(await matched.textContent(), matchedText(expected));
  assert.equal((await snapshot(page))['all;main;a;c;b'].fill, HIGHLIGHT);
  close(await page.evaluate(() => window.search('b')), expected, 'search() result');
  // An ancestor's match covers the whole view.
  close(await page.evaluate(() => window.search('^main$')), 100, 'search(^main$) zoomed');
  // Zooming out keeps the search, now relative to all.
  await page.locator('#unzoom').click();
  assert.equal(await matched.textContent(), matchedText(matchedPercent(/^main$/)));
});

test('a screenshot is a PNG of the page', async (page, tmp) => {
  const { width, height } = await geometry(page);
  const file = path.join(tmp, 'flamegraph.png');
  await page.screenshot({ path: file });
  const png = fs.readFileSync(file);
  assert.ok(png.length > 2000, `screenshot has ${png.length} bytes`);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.toString('latin1', 12, 16), 'IHDR');
  assert.equal(png.readUInt32BE(16), width);
  assert.equal(png.readUInt32BE(20), Math.ceil(height));
  if (process.env.KEEP_SCREENSHOT) fs.copyFileSync(file, process.env.KEEP_SCREENSHOT);
});

// --- runner --------------------------------------------------------------------

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zkprof-browser-'));
  let browser;
  let passed = 0, failed = 0;
  try {
    const folded = path.join(tmp, 'profile.folded');
    fs.writeFileSync(folded, PROFILE.map(([s, n]) => `${s} ${n}\n`).join(''));
    const svgPath = path.join(tmp, 'profile.svg');
    execFileSync(CLI, ['flamegraph', folded, '-o', svgPath, '--unit', UNIT], { stdio: 'inherit' });
    const svgText = fs.readFileSync(svgPath, 'utf8');
    const svgSize = (name) => Number(svgText.match(new RegExp(`<svg[^>]* ${name}="([0-9.]+)"`))[1]);

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      timeout: 60000,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
             '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    console.log(`chromium ${browser.version()}, playwright-core ${createRequire(path.join(deps, 'package.json'))('playwright-core/package.json').version}`);
    const context = await browser.newContext({
      viewport: { width: svgSize('width'), height: Math.ceil(svgSize('height')) },
    });
    context.setDefaultTimeout(15000);
    for (const t of tests) {
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      try {
        await page.goto(pathToFileURL(svgPath).href);
        await t.fn(page, tmp);
        assert.deepEqual(errors, [], 'errors in the page');
        console.log(`ok - ${t.name}`);
        passed++;
      } catch (e) {
        console.log(`FAIL - ${t.name}\n${e.stack}`);
        failed++;
      } finally {
        await page.close();
      }
    }
  } finally {
    if (browser) await browser.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed === tests.length;
}

main().then(
  (ok) => { process.exitCode = ok ? 0 : 1; },
  (e) => { console.error(e.stack || String(e)); console.log(`0 passed, ${tests.length} failed`); process.exitCode = 1; },
);
