// svg_viewer.js: the script embedded in every flamegraph SVG (flamegraph/svg.c
// writes it inside the <svg>; the build turns this file into a C string). It
// makes the picture interactive: hover details, click to zoom, Reset Zoom,
// Search / Ctrl-F with the matched percentage. The DOM it works on is the
// contract documented in docs/FORMATS.md ("Flamegraph SVG"). Geometry is
// computed from each frame's exact counts (data-start, data-count), never from
// rounded pixels, so deep zooms stay aligned.
(function () {
  'use strict';
  var svg, frames = [], byElement = new Map();
  var pad, drawable, charWidth, frameHeight;
  var details, detailsDefault, matchedText, unzoomButton, searchButton;
  var zoomed = null, searchTerm = null, ready = false;

  function attr(el, name) { return parseFloat(el.getAttribute(name)); }

  function init() {
    if (ready) return;
    svg = document.getElementById('flamegraph');
    if (!svg) return;
    ready = true;
    pad = attr(svg, 'data-pad');
    charWidth = attr(svg, 'data-char-width');
    frameHeight = attr(svg, 'data-frame-height');
    drawable = attr(svg, 'width') - 2 * pad;
    details = document.getElementById('details');
    detailsDefault = details.textContent;
    matchedText = document.getElementById('matched');
    unzoomButton = document.getElementById('unzoom');
    searchButton = document.getElementById('search');
    var groups = svg.getElementsByClassName('frame');
    var rootY = null;
    for (var i = 0; i < groups.length; i++) {
      var g = groups[i];
      var rect = g.getElementsByTagName('rect')[0];
      var text = g.getElementsByTagName('text')[0];
      var title = g.getElementsByTagName('title')[0];
      var y = attr(rect, 'y');
      if (rootY === null) rootY = y;
      var f = {
        g: g, rect: rect, text: text,
        name: g.getAttribute('data-name'),
        count: attr(g, 'data-count'),
        start: attr(g, 'data-start'),
        depth: Math.round(Math.abs(y - rootY) / frameHeight),
        label: title ? title.textContent : '',
        x: rect.getAttribute('x'), width: rect.getAttribute('width'),
        textX: text.getAttribute('x'), textContent: text.textContent,
        fill: rect.getAttribute('fill')
      };
      frames.push(f);
      byElement.set(g, f);
    }
    svg.addEventListener('click', onClick);
    svg.addEventListener('mouseover', onOver);
    svg.addEventListener('mouseout', onOut);
    window.addEventListener('keydown', onKey);
  }

  function frameOf(el) {
    for (; el && el !== svg; el = el.parentNode) {
      if (el.classList && el.classList.contains('frame')) return byElement.get(el);
    }
    return null;
  }

  // The name as fits a box `w` pixels wide: whole characters, ".." when cut.
  function fitName(name, w) {
    var room = Math.floor((w - 6) / charWidth);
    if (room < 3) return '';
    var chars = Array.from(name);
    if (chars.length <= room) return name;
    return chars.slice(0, room - 2).join('') + '..';
  }

  function place(f, x, w) {
    f.rect.setAttribute('x', x);
    f.rect.setAttribute('width', w);
    f.text.setAttribute('x', x + 3);
    f.text.textContent = fitName(f.name, w);
  }

  function restore(f) {
    f.rect.setAttribute('x', f.x);
    f.rect.setAttribute('width', f.width);
    f.text.setAttribute('x', f.textX);
    f.text.textContent = f.textContent;
    f.g.classList.remove('hide', 'parent');
  }

  // Zooms into frame `g` (its <g> element): it spans the drawable width, its
  // descendants scale with it, its ancestors are dimmed to full width, and
  // every other frame is hidden.
  function zoom(g) {
    init();
    var z = g && g.nodeType ? byElement.get(g) : g;
    if (!z) return;
    zoomed = z;
    var end = z.start + z.count;
    unzoomButton.classList.remove('hide');
    for (var i = 0; i < frames.length; i++) {
      var f = frames[i];
      var fEnd = f.start + f.count;
      if (f.depth < z.depth && f.start <= z.start && fEnd >= end) {
        place(f, pad, drawable);
        f.g.classList.remove('hide');
        f.g.classList.add('parent');
      } else if (f.depth >= z.depth && f.start >= z.start && fEnd <= end) {
        place(f, pad + drawable * ((f.start - z.start) / z.count), drawable * (f.count / z.count));
        f.g.classList.remove('hide', 'parent');
      } else {
        f.g.classList.add('hide');
      }
    }
    if (searchTerm !== null) search(searchTerm);
  }

  function unzoom() {
    init();
    if (!ready) return;
    zoomed = null;
    unzoomButton.classList.add('hide');
    for (var i = 0; i < frames.length; i++) restore(frames[i]);
    if (searchTerm !== null) search(searchTerm);
  }

  function toRegExp(term) {
    try {
      return new RegExp(term);
    } catch (e) {
      return new RegExp(term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    }
  }

  // Highlights the frames whose name matches `term` (a regular expression,
  // or literal text when it is not one) and shows which share of the frame in
  // view (the zoomed frame, else all) lies under a match, each count counted
  // once however many matching frames nest above it. Returns that percentage.
  function search(term) {
    init();
    if (term === undefined || term === null || term === '') {
      reset_search();
      return null;
    }
    if (!ready) return null;
    searchTerm = String(term);
    var re = toRegExp(searchTerm);
    var view = zoomed || frames[0];
    var viewStart = view ? view.start : 0, viewEnd = view ? view.start + view.count : 0;
    var covered = 0, coveredEnd = -Infinity;
    // Frames are in depth-first order, so starts never decrease and a
    // match nested in a counted one starts before the counted one ends.
    for (var i = 0; i < frames.length; i++) {
      var f = frames[i];
      if (!re.test(f.name)) {
        f.rect.setAttribute('fill', f.fill);
        continue;
      }
      f.rect.setAttribute('fill', 'rgb(230,0,230)');
      var s = Math.max(f.start, viewStart), e = Math.min(f.start + f.count, viewEnd);
      if (e > s && s >= coveredEnd) {
        covered += e - s;
        coveredEnd = e;
      }
    }
    var pct = view && view.count > 0 ? 100 * covered / view.count : 0;
    matchedText.textContent = 'Matched: ' + pct.toFixed(2) + '%';
    matchedText.classList.remove('hide');
    searchButton.textContent = 'Reset Search';
    return pct;
  }

  function reset_search() {
    init();
    if (!ready) return;
    searchTerm = null;
    for (var i = 0; i < frames.length; i++) frames[i].rect.setAttribute('fill', frames[i].fill);
    matchedText.textContent = '';
    matchedText.classList.add('hide');
    searchButton.textContent = 'Search';
  }

  function askSearch() {
    var term = window.prompt('Search for frames (a regular expression, e.g. ^sha256)', searchTerm || '');
    if (term) search(term);
  }

  function onClick(e) {
    var f = frameOf(e.target);
    if (f) {
      zoom(f.g);
    } else if (e.target === unzoomButton) {
      unzoom();
    } else if (e.target === searchButton) {
      if (searchTerm !== null) reset_search(); else askSearch();
    }
  }

  function onOver(e) {
    var f = frameOf(e.target);
    if (f) details.textContent = f.label;
  }

  function onOut(e) {
    if (frameOf(e.target)) details.textContent = detailsDefault;
  }

  function onKey(e) {
    if (e.key === 'F3' || ((e.ctrlKey || e.metaKey) && (e.key === 'f' || e.key === 'F'))) {
      e.preventDefault();
      askSearch();
    } else if (e.key === 'Escape') {
      reset_search();
      unzoom();
    }
  }

  window.zoom = zoom;
  window.unzoom = unzoom;
  window.search = search;
  window.reset_search = reset_search;
  if (document.readyState === 'loading') {
    window.addEventListener('DOMContentLoaded', init);
  } else {
    init();
  }
  window.addEventListener('load', init);
}());
