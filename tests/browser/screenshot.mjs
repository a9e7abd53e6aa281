// screenshot.mjs: a flamegraph SVG as headless Chromium draws it, saved as a
// PNG of the picture's size: how the README's pictures are made.
//
//   BROWSER_TEST_DEPS=build/tests/browser node tests/browser/screenshot.mjs IN.svg OUT.png [FRAME]
//
// FRAME (optional): hover the first frame whose name starts with it, so its
// name, count and share show in the picture's details line. The npm
// dependency is the browser test's (tests/browser/run.sh installs it into
// BROWSER_TEST_DEPS); CHROMIUM as there (default /usr/bin/chromium).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const deps = process.env.BROWSER_TEST_DEPS || here;
const { chromium } = createRequire(path.join(deps, 'package.json'))('playwright-core');
const [svgPath, pngPath, hover] = process.argv.slice(2);
if (!svgPath || !pngPath) {
  console.error('usage: node screenshot.mjs IN.svg OUT.png [FRAME]');
  process.exit(64);
}
const svgText = fs.readFileSync(svgPath, 'utf8');
const size = (name) => Number(svgText.match(new RegExp(`<svg[^>]* ${name}="([0-9.]+)"`))[1]);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  const page = await browser.newPage({
    viewport: { width: size('width'), height: Math.ceil(size('height')) },
  });
  await page.goto(pathToFileURL(path.resolve(svgPath)).href);
  if (hover) {
    const frame = page.locator('g.frame').filter({
      has: page.locator('rect'),
    }).and(page.locator(`[data-name^="${hover.replace(/"/g, '\\"')}"]`));
    await frame.first().locator('rect').hover();
  }
  await page.screenshot({ path: pngPath });
} finally {
  await browser.close();
}
