#!/usr/bin/env python3
"""Drives the flamegraph SVG's script in headless Chromium, through the DOM
contract of docs/FORMATS.md ("Flamegraph SVG").

`cli flamegraph` renders a small profile; a copy of the SVG gets one more
<script> that, once the page has loaded, calls the contract's functions
(zoom, unzoom, search, reset_search), dispatches mouse events, and writes
what it saw as JSON into a <text id="result">, which `chromium --headless
--dump-dom` prints. Checked:

- zoom(g): g's rect spans the full drawable width (width - 2 * pad) from
  x = pad; its descendants scale with it (a child's width keeps its share
  of g), its ancestors are dimmed (class "parent") at full width, every
  other frame is hidden; names are re-fitted to the new widths; Reset Zoom
  shows; unzoom() restores every frame exactly;
- search(term): matching frames get the highlight fill; "Matched: P%"
  counts each sample once (nested matches are not added twice), relative
  to the zoomed frame when zoomed; an invalid regular expression is taken
  literally; reset_search() restores the fills and hides the percentage;
- hovering a frame puts its title in the details line, leaving restores it;
- clicking a frame zooms into it; clicking Reset Zoom zooms out.

Exits 77 (skipped) when no Chromium is installed.

Run: CLI=build/cli/cli python3 tests/render/test_browser.py [-v]
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CLI = os.environ.get("CLI") or os.path.join(HERE, "..", "..", "build", "cli", "cli")
BROWSER = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome")
                if shutil.which(b)), None)

PROFILE = """main;compute;sha256_block 500
main;compute;sha256_update 120
main;compute 30
main;parse;sha256_parse_header_with_a_long_name 80
main;parse 40
main 10
_start;init 5
main;verify;sha256_block 60
"""

DRIVER = r"""
<script type="text/ecmascript"><![CDATA[
window.addEventListener('load', function () {
  var out = {};
  function frame(name, depth) {
    var all = document.querySelectorAll('g.frame');
    for (var i = 0; i < all.length; i++) {
      if (all[i].getAttribute('data-name') === name) return all[i];
    }
    return null;
  }
  function rect(g) { return g.querySelector('rect'); }
  function num(g, a) { return parseFloat(rect(g).getAttribute(a)); }
  function snapshot() {
    var all = document.querySelectorAll('g.frame'), s = [];
    for (var i = 0; i < all.length; i++) {
      s.push([rect(all[i]).getAttribute('x'), rect(all[i]).getAttribute('width'),
              all[i].querySelector('text').textContent, all[i].getAttribute('class'),
              rect(all[i]).getAttribute('fill')]);
    }
    return JSON.stringify(s);
  }
  var svg = document.getElementById('flamegraph');
  var pad = parseFloat(svg.getAttribute('data-pad'));
  var drawable = parseFloat(svg.getAttribute('width')) - 2 * pad;
  out.drawable = drawable;
  var before = snapshot();
  var compute = frame('compute'), block = frame('sha256_block'), main = frame('main');

  out.searchAll = search('sha256_block');
  out.matchedText = document.getElementById('matched').textContent;
  out.blockFill = rect(block).getAttribute('fill');
  out.searchNested = search('^(main|compute)$');
  out.searchInvalid = search('sha256_(');
  reset_search();
  out.matchedAfterReset = document.getElementById('matched').textContent;
  out.matchedHidden = document.getElementById('matched').classList.contains('hide');
  out.fillsRestored = snapshot() === before;

  zoom(compute);
  out.zoomX = num(compute, 'x');
  out.zoomWidth = num(compute, 'width');
  out.blockShare = num(block, 'width') / out.zoomWidth;
  out.blockText = block.querySelector('text').textContent;
  out.mainParent = main.classList.contains('parent');
  out.mainWidth = num(main, 'width');
  out.parseHidden = frame('parse').classList.contains('hide');
  out.startHidden = frame('_start').classList.contains('hide');
  out.unzoomShown = !document.getElementById('unzoom').classList.contains('hide');
  out.searchZoomed = search('sha256');
  reset_search();
  unzoom();
  out.restored = snapshot() === before;
  out.unzoomHiddenAgain = document.getElementById('unzoom').classList.contains('hide');

  var details = document.getElementById('details');
  out.detailsDefault = details.textContent;
  block.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
  out.detailsHover = details.textContent;
  block.dispatchEvent(new MouseEvent('mouseout', {bubbles: true}));
  out.detailsLeft = details.textContent;

  rect(frame('parse')).dispatchEvent(new MouseEvent('click', {bubbles: true}));
  out.clickZoomWidth = num(frame('parse'), 'width');
  document.getElementById('unzoom').dispatchEvent(new MouseEvent('click', {bubbles: true}));
  out.clickRestored = snapshot() === before;

  var t = document.createElementNS('http://www.w3.org/2000/svg', 'text');
  t.setAttribute('id', 'result');
  t.textContent = JSON.stringify(out);
  svg.appendChild(t);
});
]]></script>
"""


def run_in_browser(svg_text, tmp):
    page = os.path.join(tmp, "driven.svg")
    with open(page, "w", encoding="utf-8") as f:
        f.write(svg_text.replace("</svg>", DRIVER + "</svg>"))
    proc = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu",
                           "--virtual-time-budget=5000", "--dump-dom", page],
                          capture_output=True, timeout=120)
    dom = proc.stdout.decode(errors="replace")
    m = re.search(r'<text id="result">(.*?)</text>', dom, re.S)
    if not m:
        raise AssertionError("no result in the page:\n" + dom[-2000:] +
                             proc.stderr.decode(errors="replace")[-2000:])
    text = m.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
    return json.loads(text.replace("&amp;", "&"))


class Browser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        path = os.path.join(cls.tmp.name, "in.folded")
        with open(path, "w") as f:
            f.write(PROFILE)
        proc = subprocess.run([CLI, "flamegraph", path, "--unit", "instructions"],
                              capture_output=True, check=True)
        cls.result = run_in_browser(proc.stdout.decode(), cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_zoom(self):
        r = self.result
        self.assertEqual(r["zoomX"], 10)
        self.assertEqual(r["zoomWidth"], r["drawable"])
        self.assertAlmostEqual(r["blockShare"], 500 / 650, places=9)
        self.assertEqual(r["blockText"], "sha256_block")
        self.assertTrue(r["mainParent"])
        self.assertEqual(r["mainWidth"], r["drawable"])
        self.assertTrue(r["parseHidden"])
        self.assertTrue(r["startHidden"])
        self.assertTrue(r["unzoomShown"])
        self.assertTrue(r["restored"])
        self.assertTrue(r["unzoomHiddenAgain"])

    def test_search(self):
        r = self.result
        total = 845
        self.assertAlmostEqual(r["searchAll"], 100 * 560 / total, places=9)
        self.assertEqual(r["matchedText"], "Matched: %.2f%%" % (100 * 560 / total))
        self.assertEqual(r["blockFill"], "rgb(230,0,230)")
        self.assertAlmostEqual(r["searchNested"], 100 * 840 / total, places=9)  # main once
        self.assertEqual(r["searchInvalid"], 0)
        self.assertEqual(r["matchedAfterReset"], "")
        self.assertTrue(r["matchedHidden"])
        self.assertTrue(r["fillsRestored"])
        self.assertAlmostEqual(r["searchZoomed"], 100 * 620 / 650, places=9)

    def test_hover_and_clicks(self):
        r = self.result
        self.assertEqual(r["detailsHover"], "sha256_block (500 instructions, 59.17%)")
        self.assertEqual(r["detailsLeft"], r["detailsDefault"])
        self.assertEqual(r["clickZoomWidth"], r["drawable"])
        self.assertTrue(r["clickRestored"])


if __name__ == "__main__":
    if not BROWSER:
        print("no chromium: skipped", file=sys.stderr)
        sys.exit(77)
    unittest.main()
