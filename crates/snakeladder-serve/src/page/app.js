// The designer's page: draws the board as the HTML report does
// (crates/snakeladder-render/src/report/board.rs: the same serpentine grid,
// cell size, colours and classes), edits it, and after every edit asks the
// server's API for the exact figures. Plain script, no build step, nothing
// fetched from elsewhere.
'use strict';
(function () {
  const SIDE = 640;
  const LADDER = '#2e8b57';
  const SNAKE = '#c0392b';
  const SVGNS = 'http://www.w3.org/2000/svg';
  const DEBOUNCE_MS = 150;
  const $ = (id) => document.getElementById(id);

  let board = null;        // the board file being edited, as its JSON reads
  let opening = null;      // GET /api/board
  const undo = [];
  const redo = [];
  let selected = null;     // {list: 'snakes'|'ladders', index}
  let problems = [];       // validate's findings of the current board
  let timer = null;
  let inflight = null;     // AbortController of the current round of requests
  let generation = 0;

  // ---- geometry (as report/board.rs) -------------------------------------
  function defaultWidth(n) {
    const root = Math.round(Math.sqrt(n));
    return root * root === n ? root : Math.min(10, n);
  }
  function geometry(b) {
    const n = Math.max(1, Math.floor(Number(b.squares)) || 1);
    const width = Math.max(1, Math.floor(Number(b.width)) || defaultWidth(n));
    const rows = Math.ceil(n / width);
    const cell = Math.min(64, Math.max(12, SIDE / Math.max(width, rows)));
    return { n, width, rows, cell, w: cell * width + 2, h: cell * rows + 2 };
  }
  function centre(g, s) {
    const i = Math.max(0, s - 1);
    const row = Math.floor(i / g.width);
    const col = row % 2 === 0 ? i % g.width : g.width - 1 - (i % g.width);
    return [col * g.cell + g.cell / 2 + 1, (g.rows - 1 - row) * g.cell + g.cell / 2 + 1];
  }
  function squareAt(g, x, y) {
    const col = Math.floor((x - 1) / g.cell);
    const fromTop = Math.floor((y - 1) / g.cell);
    if (col < 0 || col >= g.width || fromTop < 0 || fromTop >= g.rows) return null;
    const row = g.rows - 1 - fromTop;
    const s = row * g.width + (row % 2 === 0 ? col : g.width - 1 - col) + 1;
    return s >= 1 && s <= g.n ? s : null;
  }
  // The square drawn at column `col` (from the left) of row `row` (from the
  // bottom), or null where no square is drawn: the inverse of centre().
  function squareOfCell(g, col, row) {
    if (col < 0 || col >= g.width || row < 0 || row >= g.rows) return null;
    const s = row * g.width + (row % 2 === 0 ? col : g.width - 1 - col) + 1;
    return s <= g.n ? s : null;
  }
  // The column and row (from the bottom) square `s` is drawn at.
  function cellOf(g, s) {
    const i = s - 1;
    const row = Math.floor(i / g.width);
    return [row % 2 === 0 ? i % g.width : g.width - 1 - (i % g.width), row];
  }
  // The square an arrow key takes square `s` to: the one drawn beside,
  // above or below it on the serpentine grid; `s` itself at the edge.
  function arrowTarget(g, s, key) {
    const [col, row] = cellOf(g, s);
    const [dc, dr] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[key];
    const t = squareOfCell(g, col + dc, row + dr);
    return t === null ? s : t;
  }
  // Where a jump's end is drawn: its square, or, for one off the board
  // (or no whole number), the nearest square of the board.
  function placed(g, v) {
    const x = Number(v);
    if (!Number.isFinite(x)) return 1;
    return Math.min(g.n, Math.max(1, Math.round(x)));
  }
  const f1 = (x) => x.toFixed(1);

  function frame(a, b) {
    const dx = b[0] - a[0], dy = b[1] - a[1];
    const len = Math.max(Math.hypot(dx, dy), 1e-9);
    return [[dx / len, dy / len], [-dy / len, dx / len], len];
  }
  function ladderPath(a, b, cell) {
    const [u, nrm, len] = frame(a, b);
    const r = cell * 0.14;
    const at = (t, side) => [a[0] + u[0] * len * t + nrm[0] * r * side, a[1] + u[1] * len * t + nrm[1] * r * side];
    let d = '';
    for (const side of [-1, 1]) {
      const p = at(0, side), q = at(1, side);
      d += `M${f1(p[0])} ${f1(p[1])}L${f1(q[0])} ${f1(q[1])}`;
    }
    const rungs = Math.min(40, Math.max(1, Math.floor(len / (cell * 0.32))));
    for (let k = 0; k < rungs; k++) {
      const t = (k + 0.5) / rungs;
      const p = at(t, -1), q = at(t, 1);
      d += `M${f1(p[0])} ${f1(p[1])}L${f1(q[0])} ${f1(q[1])}`;
    }
    return d;
  }
  function snakePath(a, b, cell) {
    const [u, nrm, len] = frame(a, b);
    const waves = Math.min(6, Math.max(1, Math.round(len / (cell * 1.1))));
    const segments = 2 * waves;
    const amp = Math.min(cell * 0.28, len * 0.2);
    const step = len / segments;
    const pt = (along, off) => [a[0] + u[0] * along + nrm[0] * off, a[1] + u[1] * along + nrm[1] * off];
    let d = `M${f1(a[0])} ${f1(a[1])}`;
    for (let j = 0; j < segments; j++) {
      const sign = j % 2 === 0 ? 1 : -1;
      const s = j * step;
      const c1 = pt(s + step / 3, amp * sign * 1.3), c2 = pt(s + 2 * step / 3, amp * sign * 1.3), e = pt(s + step, 0);
      d += `C${f1(c1[0])} ${f1(c1[1])} ${f1(c2[0])} ${f1(c2[1])} ${f1(e[0])} ${f1(e[1])}`;
    }
    return d;
  }

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (parent) parent.appendChild(e);
    return e;
  }
  function html(name, attrs, text) {
    const e = document.createElement(name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // ---- drawing -------------------------------------------------------------
  function jumpsOf(b) {
    const out = [];
    for (const list of ['ladders', 'snakes']) {
      (b[list] || []).forEach((pair, index) => out.push({ list, index, from: pair[0], to: pair[1] }));
    }
    return out;
  }
  function fieldOf(j) { return `${j.list}[${j.index}]`; }
  function problemField(f) {
    const m = /^(snakes|ladders)\[(\d+)\]/.exec(f.field || '');
    return m ? `${m[1]}[${m[2]}]` : null;
  }

  // Past this many squares the grid is one patterned area, numbered at
  // each row's two ends, rather than an element per square: the page stays
  // as quick to redraw on a drag over 10,000 squares as over 100.
  const PER_SQUARE = 2500;
  // Past this many rows a board is not drawn at all: its drawing would be
  // too tall to find a square on, and its row numbers alone thousands.
  const MOST_ROWS = 2000;

  // The squares whose numbers are drawn: every one, or on a grid each
  // row's first and last.
  function numbered(g) {
    if (g.n <= PER_SQUARE) return Array.from({ length: g.n }, (_, i) => i + 1);
    const out = [];
    for (let first = 1; first <= g.n; first += g.width) {
      out.push(first);
      const last = Math.min(g.n, first + g.width - 1);
      if (last !== first) out.push(last);
    }
    return out;
  }

  // The squares of a large board: full rows and the top row's squares as
  // two rectangles filled with one square's pattern, and the square a drag
  // is over outlined.
  function drawGrid(svg, g, target) {
    const defs = el('defs', {}, svg);
    const tile = el('pattern', { id: 'sl-grid', width: f1(g.cell), height: f1(g.cell), patternUnits: 'userSpaceOnUse', x: 1, y: 1 }, defs);
    el('rect', { width: f1(g.cell), height: f1(g.cell), fill: '#ffffff', stroke: '#0003', 'stroke-width': 1 }, tile);
    const squares = el('g', { class: 'sl-squares sl-grid' }, svg);
    const full = Math.floor(g.n / g.width);
    const part = g.n - full * g.width;
    if (full > 0) {
      el('rect', { x: 1, y: f1((g.rows - full) * g.cell + 1), width: f1(g.width * g.cell), height: f1(full * g.cell), fill: 'url(#sl-grid)' }, squares);
    }
    if (part > 0) {
      // The top row runs left to right when it is an even row from the bottom.
      const x = full % 2 === 0 ? 1 : 1 + (g.width - part) * g.cell;
      el('rect', { x: f1(x), y: 1, width: f1(part * g.cell), height: f1(g.cell), fill: 'url(#sl-grid)' }, squares);
    }
    if (target) {
      const [cx, cy] = centre(g, target);
      el('rect', { class: 'sl-target-box', 'data-square': target, x: f1(cx - g.cell / 2), y: f1(cy - g.cell / 2), width: f1(g.cell), height: f1(g.cell) }, squares);
    }
  }

  function draw(target) {
    const g = geometry(board);
    const box = $('board');
    box.textContent = '';
    if (g.rows > MOST_ROWS) {
      box.classList.remove('board-tall');
      box.appendChild(html('p', { class: 'hint' }, `A board of ${g.rows} rows (${g.n} squares) is too tall to draw here (at most ${MOST_ROWS} rows): edit its file; the figures still follow the levers and Tune.`));
      return;
    }
    const grid = g.n > PER_SQUARE;
    // A board much taller than wide scrolls inside its own box.
    box.classList.toggle('board-tall', g.h > 1.5 * g.w);
    if (grid) box.appendChild(html('p', { class: 'hint', id: 'pointer-square' }, 'Point at a square to see its number.'));
    const svg = el('svg', { class: 'sl-board', viewBox: `0 0 ${g.w.toFixed(0)} ${g.h.toFixed(0)}`, role: 'img', 'aria-label': board.name || 'The board' }, box);
    const font = Math.max(6, g.cell * 0.27);
    if (grid) {
      drawGrid(svg, g, target);
    } else {
      const squares = el('g', { class: 'sl-squares' }, svg);
      for (let s = 1; s <= g.n; s++) {
        const [cx, cy] = centre(g, s);
        const sq = el('g', { class: 'sl-sq' + (s === target ? ' sl-target' : ''), 'data-square': s }, squares);
        el('rect', { x: f1(cx - g.cell / 2), y: f1(cy - g.cell / 2), width: f1(g.cell), height: f1(g.cell), fill: '#ffffff' }, sq);
        el('title', {}, sq).textContent = `square ${s}`;
      }
    }
    const bad = new Map();
    for (const p of problems) {
      const f = problemField(p);
      if (f && !bad.has(f)) bad.set(f, p);
    }
    const jumps = el('g', { class: 'sl-jumps' }, svg);
    const stroke = Math.max(1.2, g.cell * 0.06);
    const onBoard = (s) => Number.isInteger(s) && s >= 1 && s <= g.n;
    const drawn = [];
    // Every jump is drawn, so every jump can be grabbed and fixed: one that
    // starts where it ends as its two handles on its square, one whose end
    // is off the board with that end at the nearest square, marked.
    for (const j of jumpsOf(board)) {
      const from = placed(g, j.from), to = placed(g, j.to);
      const a = centre(g, from), b = centre(g, to);
      const kind = j.list === 'ladders' ? 'ladder' : 'snake';
      const field = fieldOf(j);
      const on = selected && selected.list === j.list && selected.index === j.index;
      const off = { from: !onBoard(j.from), to: !onBoard(j.to) };
      const grp = el('g', { class: `sl-jump sl-${kind}` + (on ? ' sl-on' : '') + (bad.has(field) ? ' sl-bad' : ''), 'data-from': j.from, 'data-to': j.to, 'data-field': field }, jumps);
      el('title', {}, grp).textContent = `${kind} ${j.from}→${j.to}`;
      drawn.push({ j, a, b, kind, field, off, at: { from, to } });
      if (from === to) continue;
      if (kind === 'ladder') {
        el('path', { d: ladderPath(a, b, g.cell), fill: 'none', stroke: LADDER, 'stroke-width': f1(stroke), 'stroke-linecap': 'round' }, grp);
      } else {
        el('path', { d: snakePath(a, b, g.cell), fill: 'none', stroke: SNAKE, 'stroke-width': f1(Math.max(2, g.cell * 0.12)), 'stroke-linecap': 'round', 'stroke-opacity': 0.85 }, grp);
      }
    }
    // Handles on top of every jump: a circle where it starts, a diamond
    // where it ends; each is a keyboard stop.
    const handles = el('g', { class: 'sl-handles' }, svg);
    const r = Math.max(6, g.cell * 0.2);
    // Handles that share a square are spread around its centre, so the
    // pointer can take each one (the keyboard reaches each with Tab).
    const onSquare = new Map();
    for (const d of drawn) {
      for (const end of ['from', 'to']) {
        const s = d.at[end];
        if (!onSquare.has(s)) onSquare.set(s, []);
        onSquare.get(s).push([d, end]);
      }
    }
    const spot = new Map();
    for (const [s, here] of onSquare) {
      const [cx, cy] = centre(g, s);
      if (here.length === 1) { spot.set(`${here[0][0].field} ${here[0][1]}`, [cx, cy, r]); continue; }
      // Smaller handles on a ring wide enough to hold them side by side.
      const small = r * 0.75;
      const reach = Math.min(g.cell * 0.42, Math.max(r * 1.1, (here.length * small * 1.25) / Math.PI));
      // Kept inside the drawing, ring and all, on a square at its edge.
      const inside = (v, max) => Math.min(max - small * 1.6, Math.max(small * 1.6, v));
      here.forEach(([d, end], k) => {
        const angle = (2 * Math.PI * k) / here.length - Math.PI / 2;
        spot.set(`${d.field} ${end}`, [inside(cx + reach * Math.cos(angle), g.w), inside(cy + reach * Math.sin(angle), g.h), small]);
      });
    }
    for (const { j, kind, field, off } of drawn) {
      const colour = kind === 'ladder' ? LADDER : SNAKE;
      for (const end of ['from', 'to']) {
        const [x, y, hr] = spot.get(`${field} ${end}`);
        const where = off[end] ? `at ${JSON.stringify(j[end])}, off the board (shown at its edge)` : `on square ${j[end]}`;
        const label = `${kind} ${j.from}→${j.to}: ${end === 'from' ? 'start' : 'end'} ${where}`;
        const h = el('g', { class: `sl-handle sl-handle-${end}` + (off[end] ? ' sl-off' : ''), tabindex: 0, role: 'button', 'aria-label': label, 'data-field': field, 'data-end': end }, handles);
        if (off[end]) el('circle', { class: 'sl-off-ring', cx: f1(x), cy: f1(y), r: f1(hr * 1.35) }, h);
        if (end === 'from') {
          el('circle', { cx: f1(x), cy: f1(y), r: f1(hr), fill: colour, stroke: '#fff', 'stroke-width': 1.5 }, h);
        } else {
          const k = hr * 0.9;
          el('path', { d: `M${f1(x)} ${f1(y - k)}L${f1(x + k)} ${f1(y)}L${f1(x)} ${f1(y + k)}L${f1(x - k)} ${f1(y)}Z`, fill: '#fff', stroke: colour, 'stroke-width': 2 }, h);
        }
        el('title', {}, h).textContent = label;
      }
    }
    const numbers = el('g', { class: 'sl-numbers' }, svg);
    for (const s of numbered(g)) {
      const [cx, cy] = centre(g, s);
      const t = el('text', { x: f1(cx - g.cell / 2 + font * 0.25), y: f1(cy - g.cell / 2 + font * 1.05), 'font-size': f1(font), 'stroke-width': f1(Math.max(1.5, font / 4)) }, numbers);
      t.textContent = String(s);
    }
    // Each problem that names a jump is marked on it, at its middle.
    const marks = el('g', { class: 'sl-problems' }, svg);
    for (const { a, b, field } of drawn) {
      const p = bad.get(field);
      if (!p) continue;
      // A jump of no length: at its square's corner, clear of its handles.
      const still = a[0] === b[0] && a[1] === b[1];
      const x = (a[0] + b[0]) / 2 + (still ? g.cell * 0.3 : 0), y = (a[1] + b[1]) / 2 + (still ? g.cell * 0.3 : 0);
      const m = el('g', { class: 'sl-problem', 'data-field': field, 'data-kind': p.kind }, marks);
      el('circle', { cx: f1(x), cy: f1(y), r: f1(Math.max(8, g.cell * 0.25)) }, m);
      el('text', { x: f1(x), y: f1(y + Math.max(8, g.cell * 0.25) * 0.45), 'text-anchor': 'middle', 'font-size': f1(Math.max(12, g.cell * 0.35)) }, m).textContent = '!';
      el('title', {}, m).textContent = `${field}: ${p.message}`;
    }
  }

  // ---- editing -------------------------------------------------------------
  function snapshot() { return JSON.stringify(board); }
  function edit(change) {
    undo.push(snapshot());
    if (undo.length > 500) undo.shift();
    redo.length = 0;
    change(board);
    changed();
  }
  function changed() {
    fillRules();
    draw();
    buttons();
    schedule();
  }
  function buttons() {
    $('undo').disabled = undo.length === 0;
    $('redo').disabled = redo.length === 0;
    $('delete').disabled = !selected;
  }
  function doUndo() {
    if (!undo.length) return;
    redo.push(snapshot());
    board = JSON.parse(undo.pop());
    selected = null;
    changed();
  }
  function doRedo() {
    if (!redo.length) return;
    undo.push(snapshot());
    board = JSON.parse(redo.pop());
    selected = null;
    changed();
  }
  function used() {
    const s = new Set();
    for (const j of jumpsOf(board)) { s.add(j.from); s.add(j.to); }
    return s;
  }
  function addJump(list) {
    const g = geometry(board);
    const taken = used();
    const free = (s) => s >= 1 && s < g.n && !taken.has(s);
    const span = Math.max(1, Math.floor(g.n / 5));
    let from = null, to = null;
    const startAt = list === 'snakes' ? Math.floor(g.n * 0.7) : Math.floor(g.n * 0.2);
    for (let k = 0; k < g.n && from === null; k++) {
      const s = ((startAt - 1 + k) % g.n) + 1;
      if (!free(s)) continue;
      for (let d = span; d >= 1; d--) {
        const t = list === 'snakes' ? s - d : s + d;
        if (free(t) && t !== s) { from = s; to = t; break; }
      }
    }
    if (from === null) { status('No free squares for another jump.', true); return; }
    edit((b) => {
      b[list] = b[list] || [];
      b[list].push([from, to]);
      selected = { list, index: b[list].length - 1 };
    });
  }
  function deleteSelected() {
    if (!selected) return;
    const { list, index } = selected;
    selected = null;
    edit((b) => { b[list].splice(index, 1); });
  }
  function moveEnd(field, end, square) {
    const m = /^(snakes|ladders)\[(\d+)\]$/.exec(field);
    if (!m) return;
    const pair = board[m[1]][Number(m[2])];
    const k = end === 'from' ? 0 : 1;
    if (pair[k] === square) return;
    edit((b) => { b[m[1]][Number(m[2])][k] = square; });
  }
  function select(field) {
    const m = /^(snakes|ladders)\[(\d+)\]$/.exec(field || '');
    selected = m ? { list: m[1], index: Number(m[2]) } : null;
  }

  // Dragging a handle: the pointer is captured by the board's box, which
  // outlives each redraw; the drop square is where the pointer is released.
  let drag = null;
  function svgPoint(evt) {
    const svg = $('board').querySelector('svg');
    const pt = svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  }
  function onPointerDown(evt) {
    const h = evt.target.closest('.sl-handle');
    if (!h) return;
    evt.preventDefault();
    select(h.getAttribute('data-field'));
    drag = { field: h.getAttribute('data-field'), end: h.getAttribute('data-end'), square: null };
    $('board').setPointerCapture(evt.pointerId);
    draw();
    buttons();
  }
  function onPointerMove(evt) {
    // On a grid drawn without an element per square, the square under the
    // pointer is named beside the board.
    if (!drag && !$('pointer-square')) return;
    const p = svgPoint(evt);
    const s = squareAt(geometry(board), p.x, p.y);
    if (drag && s !== drag.square) {
      drag.square = s;
      draw(s);
    }
    const at = $('pointer-square');
    if (at) at.textContent = s === null ? 'Point at a square to see its number.' : `square ${s}`;
  }
  function onPointerUp(evt) {
    if (!drag) return;
    const d = drag;
    drag = null;
    try { $('board').releasePointerCapture(evt.pointerId); } catch (_) { /* released already */ }
    const p = svgPoint(evt);
    const s = squareAt(geometry(board), p.x, p.y);
    if (s !== null) moveEnd(d.field, d.end, s); else draw();
    focusHandle(d.field, d.end);
  }
  function focusHandle(field, end) {
    const h = document.querySelector(`.sl-handle[data-field="${field}"][data-end="${end}"]`);
    if (h) h.focus();
  }
  function onKey(evt) {
    const mod = evt.ctrlKey || evt.metaKey;
    const inField = /^(INPUT|SELECT|TEXTAREA)$/.test(evt.target.tagName);
    if (mod && !inField && evt.key.toLowerCase() === 'z') { evt.preventDefault(); if (evt.shiftKey) doRedo(); else doUndo(); return; }
    if (mod && !inField && evt.key.toLowerCase() === 'y') { evt.preventDefault(); doRedo(); return; }
    if (inField || mod) return;
    const h = evt.target.closest && evt.target.closest('.sl-handle');
    if (h) {
      const field = h.getAttribute('data-field'), end = h.getAttribute('data-end');
      const m = /^(snakes|ladders)\[(\d+)\]$/.exec(field);
      const g = geometry(board);
      const cur = placed(g, board[m[1]][Number(m[2])][end === 'from' ? 0 : 1]);
      if (/^Arrow(Left|Right|Up|Down)$/.test(evt.key)) {
        // The arrows move the handle as the board is drawn: left and right
        // along its row, whichever way the row is numbered, up and down to
        // the square drawn above or below. An end off the board moves
        // from the square it is shown at.
        evt.preventDefault();
        const s = arrowTarget(g, cur, evt.key);
        select(field);
        moveEnd(field, end, s);
        focusHandle(field, end);
        return;
      }
      if (evt.key === 'Delete' || evt.key === 'Backspace') { evt.preventDefault(); select(field); deleteSelected(); return; }
      if (evt.key === 'Enter' || evt.key === ' ') { evt.preventDefault(); select(field); draw(); buttons(); focusHandle(field, end); return; }
    }
    if (evt.key === 's' || evt.key === 'S') addJump('snakes');
    else if (evt.key === 'l' || evt.key === 'L') addJump('ladders');
    else if (evt.key === 'Delete' && selected) deleteSelected();
  }

  // ---- rules ---------------------------------------------------------------
  function rulesOf(b) {
    b.rules = b.rules || {};
    return b.rules;
  }
  function fillRules() {
    const r = board.rules || {};
    const dice = r.dice || {};
    const extra = r.extra_turn || null;
    const set = (id, v) => { const e = $(id); if (document.activeElement !== e) e.value = v === undefined || v === null ? '' : String(v); };
    set('r-name', board.name || '');
    set('r-squares', board.squares);
    set('r-width', board.width === undefined ? geometry(board).width : board.width);
    set('r-count', dice.weights ? '' : (dice.count === undefined ? 1 : dice.count));
    set('r-faces', dice.weights ? dice.weights.length : (dice.faces === undefined ? 6 : dice.faces));
    $('r-count').disabled = !!dice.weights;
    $('r-faces').disabled = !!dice.weights;
    set('r-overshoot', r.overshoot || 'stay');
    set('r-chains', r.chains || 'forbid');
    set('r-entry', r.entry || 'free');
    set('r-extra-on', extra ? extra.on : '');
    set('r-extra-max', extra ? extra.max_extra : '');
    set('r-extra-forfeit', extra ? extra.forfeit_after : '');
  }
  const int = (v) => (v === '' ? null : Math.floor(Number(v)));
  const typed = (v) => (v.trim() === '' ? undefined : Number(v));
  function onRule(evt) {
    const id = evt.target.id;
    const v = evt.target.value;
    edit((b) => {
      // The rules object is made only when a rule is set, so that editing
      // the name adds no empty "rules" to the saved file.
      const r = id === 'r-name' || id === 'r-squares' || id === 'r-width' ? null : rulesOf(b);
      if (id === 'r-name') { if (v) b.name = v; else delete b.name; }
      // A number goes to the board as typed (0, 2.7), so the problems
      // name what was typed; an emptied field changes nothing (width: back
      // to the default).
      else if (id === 'r-squares') { if (typed(v) !== undefined) b.squares = typed(v); }
      else if (id === 'r-width') { if (typed(v) === undefined) delete b.width; else b.width = typed(v); }
      else if (id === 'r-count') { if (typed(v) !== undefined) r.dice = Object.assign({}, r.dice, { count: typed(v) }); }
      else if (id === 'r-faces') { if (typed(v) !== undefined) r.dice = Object.assign({}, r.dice, { faces: typed(v) }); }
      else if (id === 'r-overshoot') r.overshoot = v;
      else if (id === 'r-chains') r.chains = v;
      else if (id === 'r-entry') r.entry = v;
      else if (id.startsWith('r-extra')) {
        const on = int($('r-extra-on').value);
        if (on === null) delete r.extra_turn;
        else r.extra_turn = { on, max_extra: int($('r-extra-max').value), forfeit_after: int($('r-extra-forfeit').value) };
      }
    });
  }

  // ---- figures -------------------------------------------------------------
  function status(text, error) {
    const s = $('status');
    s.textContent = text;
    s.classList.toggle('error', !!error);
  }
  function schedule() {
    clearTimeout(timer);
    document.body.setAttribute('data-state', 'pending');
    timer = setTimeout(refresh, DEBOUNCE_MS);
  }
  async function post(path, body, signal, as) {
    const r = await fetch(path, { method: 'POST', body, signal, headers: { 'content-type': 'application/json' } });
    const data = as === 'text' ? await r.text() : await r.json().catch(() => null);
    return { status: r.status, data };
  }
  async function refresh() {
    if (inflight) inflight.abort();
    const ctl = new AbortController();
    inflight = ctl;
    const mine = ++generation;
    const body = JSON.stringify(board);
    status('Computing…');
    try {
      const players = '2,3,4';
      const small = geometry(board).n <= 200;
      const [an, va] = await Promise.all([
        post(`/api/analyze?players=${players}&exact=${small}`, body, ctl.signal),
        post('/api/validate', body, ctl.signal),
      ]);
      if (mine !== generation) return;
      problems = (va.data && va.data.problems) || (an.data && an.data.problems) || [];
      showProblems(va);
      if (an.status === 200) {
        showAnalysis(an.data);
        status(`Exact figures of ${board.name ? shortName(board.name) : 'the board'} (${an.data.board.squares} squares).`);
      } else if (an.status === 422 && an.data && an.data.problems) {
        clearAnalysis('The board is invalid: see the problems.');
        status(`Invalid: ${an.data.problems.length} problem${an.data.problems.length === 1 ? '' : 's'}, listed under Problems (a drawn jump's on the board too).`, true);
      } else {
        clearAnalysis('');
        status(`No figures: ${errorText(an)}`, true);
      }
      // Redrawing replaces the handles: the one a keyboard user was moving
      // keeps the focus, so the next arrow key moves it again.
      const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('.sl-handle');
      const kept = focused ? [focused.getAttribute('data-field'), focused.getAttribute('data-end')] : null;
      draw();
      if (kept) focusHandle(kept[0], kept[1]);
      document.body.setAttribute('data-state', 'ready');
      if (an.status === 200) levers(body, ctl.signal, mine);
      else $('levers').textContent = '';
    } catch (e) {
      if (e.name !== 'AbortError') { status(`The server did not answer: ${e.message}`, true); document.body.setAttribute('data-state', 'ready'); }
    }
  }
  // A board's name in a status line: quoted, and cut to a line's length
  // (a name may be megabytes long).
  function shortName(name) {
    const q = JSON.stringify(name);
    return q.length > 80 ? `${q.slice(0, 79)}…` : q;
  }
  function errorText(r) {
    return (r.data && r.data.error && r.data.error.message) || `HTTP ${r.status}`;
  }
  const fixed = (x, d) => (Number.isFinite(x) ? (Math.abs(x) >= 1e16 ? x.toExponential(d) : x.toFixed(d)) : String(x));
  const pct = (p, d) => `${(100 * p).toFixed(d)}%`;
  // The summary bar: the key figures kept in view while the board is
  // edited on a narrow screen, where the figures' cards are below it.
  function summary(mean, value, more) {
    $('summary-mean').textContent = mean;
    $('summary-mean').setAttribute('data-value', value);
    $('summary-more').textContent = more;
  }
  function clearAnalysis(why) {
    summary('–', '', why ? 'invalid board: see Problems' : 'no figures');
    $('mean').textContent = '–';
    $('mean').setAttribute('data-value', '');
    $('exact').textContent = why;
    $('quantiles').textContent = '';
    $('chart').textContent = '';
    $('seats').textContent = '';
    $('notes').textContent = '';
  }
  // What the analysis left out, and why, as `analyze` says it: each figure
  // a limit skipped, and each warning.
  const FIGURE_NAMES = {
    distribution: 'the length distribution',
    players: 'the seat odds',
    rest_probabilities: 'the rest probabilities',
    jumps: 'the per-jump figures',
  };
  function showNotes(a) {
    const notes = $('notes');
    notes.textContent = '';
    const name = (f) => FIGURE_NAMES[f] || String(f).replace(/_/g, ' ');
    for (const s of a.skipped || []) {
      let why;
      if (s.reason === 'needs') why = `it needs ${name(s.needs)}, which was not computed`;
      else if (s.reason === 'work') why = `it would take about ${Number(s.estimate).toExponential(2)} multiply-adds, over the server's limit of ${Number(s.limit).toExponential(2)} (--max-work)`;
      else if (s.reason === 'memory') why = `it would need about ${Number(s.estimate).toExponential(2)} bytes, over the server's limit of ${Number(s.limit).toExponential(2)} (--max-memory)`;
      else why = String(s.reason).replace(/_/g, ' ');
      notes.appendChild(html('li', {}, `Not computed: ${name(s.figure)}: ${why}.`));
    }
    for (const w of a.warnings || []) notes.appendChild(html('li', {}, `Warning: ${String(w.kind).replace(/_/g, ' ')}.`));
  }
  function showAnalysis(a) {
    showNotes(a);
    const t = a.turns;
    $('mean').textContent = fixed(t.mean, 4);
    $('mean').setAttribute('data-value', String(t.mean));
    $('exact').textContent = a.exact ? `exactly ${a.exact.mean_turns}` : `std dev ${fixed(t.std_dev, 4)}`;
    const q = (x) => (x === null || x === undefined ? '–' : String(x));
    $('quantiles').textContent = `min ${q(t.min)} · mode ${q(t.mode)} · median ${q(t.median)} · p90 ${q(t.p90)} · p99 ${q(t.p99)}`;
    summary(fixed(t.mean, 4), String(t.mean), `median ${q(t.median)} · p90 ${q(t.p90)}`);
    chart(t);
    const seats = html('ul', { class: 'seats' });
    for (const p of a.players || []) {
      const li = html('li');
      li.appendChild(html('span', { class: 'who' }, `${p.count} players`));
      p.win_probability.forEach((w, i) => li.appendChild(html('span', {}, `seat ${i + 1}: ${pct(w, 2)}`)));
      seats.appendChild(li);
    }
    $('seats').textContent = '';
    $('seats').appendChild(seats);
  }
  function chart(t) {
    const box = $('chart');
    box.textContent = '';
    const pmf = t.pmf || [];
    if (!pmf.length) { box.appendChild(html('p', { class: 'small' }, 'The distribution was not computed (a limit); see the notes.')); return; }
    let until = pmf.length, mass = 0;
    for (let i = 0; i < pmf.length; i++) { mass += pmf[i]; if (mass >= 0.999) { until = i + 1; break; } }
    const W = 400, H = 170, L = 34, B = 22, T = 8, R = 8;
    const top = Math.max(...pmf.slice(0, until));
    const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'Game length of one player: P(T = t)' }, box);
    const bw = (W - L - R) / until;
    const y = (p) => H - B - (p / top) * (H - B - T);
    for (let i = 0; i < until; i++) {
      el('rect', { class: 'chart-bar', x: f1(L + i * bw), y: f1(y(pmf[i])), width: f1(Math.max(bw - 0.5, 0.5)), height: f1(H - B - y(pmf[i])) }, svg);
    }
    el('line', { class: 'chart-axis', x1: L, y1: H - B, x2: W - R, y2: H - B }, svg);
    el('line', { class: 'chart-axis', x1: L, y1: T, x2: L, y2: H - B }, svg);
    el('text', { class: 'chart-label', x: 2, y: T + 10 }, svg).textContent = pct(top, 1);
    el('text', { class: 'chart-label', x: L, y: H - 6 }, svg).textContent = '1';
    el('text', { class: 'chart-label', x: W - R, y: H - 6, 'text-anchor': 'end' }, svg).textContent = `${until} turns`;
    const marks = [['mean', t.mean], ['median', t.median], ['p90', t.p90], ['p99', t.p99]];
    marks.forEach(([name, v], k) => {
      if (v === null || v === undefined || v > until) return;
      const x = L + (v - 0.5) * bw;
      el('line', { class: 'chart-line', x1: f1(x), y1: T, x2: f1(x), y2: H - B }, svg);
      el('text', { class: 'chart-label', x: f1(x + 2), y: T + 10 + 12 * k }, svg).textContent = name;
    });
  }
  function showProblems(va) {
    const ul = $('problems');
    ul.textContent = '';
    const list = (va.data && va.data.problems) || [];
    if (va.status !== 200 && va.status !== 422) {
      ul.appendChild(html('li', { class: 'error' }, `Validation failed: ${errorText(va)}`));
    }
    for (const p of list) {
      const where = p.field ? `${p.field}: ` : '';
      ul.appendChild(html('li', { class: p.severity, 'data-field': p.field || '', 'data-kind': p.kind }, `${where}${p.message} (${p.kind})`));
    }
    if (!list.length && va.status === 200) ul.appendChild(html('li', {}, 'None: the board is valid.'));
    const pol = $('policy');
    if (!opening.policy_file) {
      pol.textContent = 'No snakeladder.toml found here or above; no thresholds to meet.';
    } else if (va.status === 200) {
      const failed = list.filter((p) => p.severity === 'error');
      pol.textContent = failed.length === 0
        ? `Passes ${opening.policy_file}.`
        : `Fails ${opening.policy_file}: ${failed.map((p) => p.message).join('; ')}`;
    } else {
      pol.textContent = `${opening.policy_file}: not checked, the board is invalid.`;
    }
    pol.setAttribute('data-verdict', !opening.policy_file ? 'none' : va.status !== 200 ? 'unchecked' : list.some((p) => p.severity === 'error') ? 'fails' : 'passes');
  }
  function jumpText(j) { return `${j.from}→${j.to}`; }
  async function levers(body, signal, mine) {
    const ol = $('levers');
    if (geometry(board).n > 1500) { ol.textContent = ''; ol.appendChild(html('li', {}, 'Not ranked past 1,500 squares.')); return; }
    try {
      const r = await post('/api/sensitivity', body, signal);
      if (mine !== generation) return;
      ol.textContent = '';
      if (r.status !== 200) { ol.appendChild(html('li', {}, errorText(r))); return; }
      for (const v of r.data.variants.slice(0, 8)) {
        const before = v.change.before, after = v.change.after;
        const kind = before.from > before.to ? 'snake' : 'ladder';
        let what;
        if (!after) what = `removing the ${kind} ${jumpText(before)}`;
        else if (after.from !== before.from) what = `moving the ${kind} ${jumpText(before)}'s start to ${after.from}`;
        else what = `moving the ${kind} ${jumpText(before)}'s end to ${after.to}`;
        const d = v.mean_change;
        const effect = `${d < 0 ? 'shortens' : 'lengthens'} the game by ${Math.abs(d).toFixed(2)} turns (mean ${v.mean_turns.toFixed(4)})`;
        const li = html('li');
        const b = html('button', { type: 'button' }, `${what} ${effect}`);
        b.addEventListener('click', () => applyVariant(kind, before, after));
        li.appendChild(b);
        ol.appendChild(li);
      }
    } catch (e) { if (e.name !== 'AbortError') ol.textContent = e.message; }
  }
  function applyVariant(kind, before, after) {
    const list = kind === 'snake' ? 'snakes' : 'ladders';
    const index = (board[list] || []).findIndex((p) => p[0] === before.from && p[1] === before.to);
    if (index < 0) return;
    edit((b) => {
      if (after) b[list][index] = [after.from, after.to]; else b[list].splice(index, 1);
    });
  }
  async function tune(evt) {
    evt.preventDefault();
    const band = $('tune-band').value.trim();
    const out = $('tune-result');
    out.textContent = 'Searching…';
    const q = new URLSearchParams({ target: band, max_changes: $('tune-changes').value });
    // One search at a time, and its answer applies only to the board it
    // was asked for: an edit made while it ran is kept, not overwritten.
    const submit = $('tune').querySelector('button[type="submit"], button:not([type])');
    if (submit) submit.disabled = true;
    const asked = JSON.stringify(board);
    try {
      const r = await post(`/api/tune?${q}`, asked);
      if (r.status !== 200) { out.textContent = `No tuning: ${errorText(r)}`; return; }
      if (JSON.stringify(board) !== asked) {
        out.textContent = 'The board was edited during the search, so its answer is not applied; search again.';
        return;
      }
      const d = r.data;
      // Each change is made where its jump is, so the board keeps its
      // order of jumps (and its file's diff shows only the changes).
      edit((b) => {
        for (const c of d.changes) {
          const list = c.before.from > c.before.to ? 'snakes' : 'ladders';
          const at = (b[list] || []).findIndex((p) => p[0] === c.before.from && p[1] === c.before.to);
          if (at < 0) continue;
          if (c.after) b[list][at] = [c.after.from, c.after.to]; else b[list].splice(at, 1);
        }
      });
      out.textContent = `Mean ${d.mean_before.toFixed(4)} → ${d.mean_turns.toFixed(4)} with ${d.changes.length} change${d.changes.length === 1 ? '' : 's'}: ` +
        d.changes.map((c) => (c.after ? `${jumpText(c.before)} → ${jumpText(c.after)}` : `${jumpText(c.before)} removed`)).join(', ') + ` (${d.evaluated} boards evaluated). Undo reverts it.`;
    } catch (e) { out.textContent = e.message; } finally { if (submit) submit.disabled = false; }
  }

  // ---- files ---------------------------------------------------------------
  function download(name, type, text) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = html('a', { href: url, download: name });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }
  function baseName() {
    const p = opening.path ? opening.path.split('/').pop().replace(/\.json$/, '') : 'board';
    return p || 'board';
  }
  async function downloadJson() {
    const r = await post('/api/format', JSON.stringify(board), undefined, 'text');
    if (r.status !== 200) { status(`Cannot download an invalid board: ${r.data}`, true); return; }
    download(`${baseName()}.json`, 'application/json', r.data);
  }
  async function downloadReport() {
    status('Writing the report…');
    const r = await post('/api/report?sensitivity=true', JSON.stringify(board), undefined, 'text');
    if (r.status !== 200) { status('Cannot write the report: the board is invalid or past a limit.', true); return; }
    download(`${baseName()}.html`, 'text/html', r.data);
    status('Report downloaded.');
  }
  // The save names the version of the file the edit started from; the
  // server refuses it (409) when the file changed on disk since, leaving
  // the file as it is and this page's edit as it is, so neither is lost.
  async function save() {
    const r = await post(`/api/save?base=${encodeURIComponent(opening.version)}`, JSON.stringify(board));
    if (r.status === 200) {
      opening.version = r.data.version;
      status(`Saved ${r.data.saved} (${r.data.bytes} bytes).`);
    } else status(`Not saved: ${errorText(r)}`, true);
  }

  // ---- start ---------------------------------------------------------------
  async function start() {
    const r = await fetch('/api/board');
    const body = await r.json();
    // A board file the server cannot read is never replaced by another
    // board the page would offer to save over it: nothing is edited.
    if (!r.ok) {
      $('save').hidden = true;
      status(`Cannot open the board: ${errorText({ status: r.status, data: body })}`, true);
      return;
    }
    opening = body;
    board = opening.board;
    $('save').hidden = !opening.can_save;
    if (opening.path) $('save').textContent = `Save ${opening.path}`;
    $('undo').addEventListener('click', doUndo);
    $('redo').addEventListener('click', doRedo);
    $('add-snake').addEventListener('click', () => addJump('snakes'));
    $('add-ladder').addEventListener('click', () => addJump('ladders'));
    $('delete').addEventListener('click', deleteSelected);
    $('download-json').addEventListener('click', downloadJson);
    $('download-report').addEventListener('click', downloadReport);
    $('save').addEventListener('click', save);
    $('rules').addEventListener('change', onRule);
    $('rules').addEventListener('submit', (e) => e.preventDefault());
    $('tune').addEventListener('submit', tune);
    const box = $('board');
    box.addEventListener('pointerdown', onPointerDown);
    box.addEventListener('pointermove', onPointerMove);
    box.addEventListener('pointerup', onPointerUp);
    box.addEventListener('pointercancel', () => { drag = null; draw(); });
    document.addEventListener('keydown', onKey);
    changed();
  }
  start().catch((e) => status(`Cannot start: ${e.message}`, true));
})();
