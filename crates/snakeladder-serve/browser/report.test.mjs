// The HTML reports in a real browser: playwright-core driving Debian's
// chromium over `snakeladder report` pages of every board in boards/, the
// built-in board, two generated 10,000-square boards and many seats
// (`--players 100`, `2,3,50`), and over a
// `diff --format html` page, at phone and desktop width, light and dark.
// What a reviewer on a phone must never meet: a column hidden in a table
// that scrolls sideways, a page wider than the screen, a chart legend over
// the data, an axis label cut off, chart text too small to read, a changed
// jump not marked on the board.
//
// SL_BIN: the snakeladder binary; SL_DOCS: where the screenshots go;
// SL_CHROMIUM: the browser (default /usr/bin/chromium). ci.sh sets them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const BIN = process.env.SL_BIN;
const DOCS = process.env.SL_DOCS;
assert.ok(BIN && DOCS, 'SL_BIN and SL_DOCS must be set (ci.sh sets them)');
const BOARDS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'boards');
const tmp = mkdtempSync(join(tmpdir(), 'sl-report-'));

/// The smallest chart text a phone shows, in CSS pixels.
const MIN_PHONE_TEXT = 10;
/// The least room between a chart's text and the drawing's edge, in CSS
/// pixels: text touching the edge reads as cut off on a dark page, where
/// the white drawing ends at it.
const EDGE = 2;

// Every page under test, rendered once: name -> file.
const pages = new Map();
function render(name, args) {
  const file = join(tmp, `${name}.html`);
  execFileSync(BIN, [...args, '-o', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  pages.set(name, file);
}

// The diff's boards: the Milton Bradley layout, and the same with one snake
// moved, one ladder removed and one ladder added (both copied into the
// temporary directory, so the page names them the same on every run).
const OLD = join(tmp, 'milton-bradley.json');
const NEW = join(tmp, 'edited.json');

let browser;
before(async () => {
  render('builtin', ['report']);
  // Every optional section: the cross-check and the sensitivity tables.
  render('builtin-sections', ['report', '--sensitivity', '--cross-check', '2000', '--seed', '1']);
  for (const f of readdirSync(BOARDS).filter((f) => f.endsWith('.json')).sort()) {
    render(f.replace(/\.json$/, ''), ['report', join(BOARDS, f)]);
  }
  const big = join(tmp, 'big.json');
  execFileSync(BIN, ['generate', '--squares', '10000', '--snakes', '300', '--ladders', '300', '--seed', '7', '-o', big]);
  render('big', ['report', big]);
  // A board of longer games (means of four digits before the point), and
  // reports of many seats: seat odds as rows past six seats.
  const long = join(tmp, 'long.json');
  execFileSync(BIN, ['generate', '--squares', '10000', '--snakes', '100', '--ladders', '100', '--seed', '1', '-o', long]);
  render('long', ['report', long]);
  render('players-2-3-50', ['report', '--players', '2,3,50']);
  render('players-100', ['report', '--players', '100']);
  writeFileSync(OLD, readFileSync(join(BOARDS, 'milton-bradley.json')));
  const board = JSON.parse(readFileSync(OLD, 'utf8'));
  board.ladders = board.ladders.filter(([a, b]) => !(a === 36 && b === 44)).concat([[30, 47]]);
  board.snakes = board.snakes.map(([a, b]) => (a === 48 && b === 26 ? [48, 33] : [a, b]));
  writeFileSync(NEW, JSON.stringify(board, null, 2));
  const diff = join(tmp, 'diff.html');
  writeFileSync(diff, execFileSync(BIN, ['diff', 'milton-bradley.json', 'edited.json', '--format', 'html'], { cwd: tmp }));
  pages.set('diff', diff);
  browser = await chromium.launch({
    executablePath: process.env.SL_CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});
after(async () => { if (browser) await browser.close(); });

async function open(name, width, scheme, javaScriptEnabled = true) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme, javaScriptEnabled });
  const page = await context.newPage();
  const troubles = [];
  page.on('console', (m) => { if (m.type() === 'error') troubles.push(m.text()); });
  page.on('pageerror', (e) => troubles.push(String(e)));
  page.on('request', (r) => { if (!r.url().startsWith('file:')) troubles.push(`request to ${r.url()}`); });
  await page.goto(pathToFileURL(pages.get(name)).href);
  return { page, context, troubles };
}

// Everything a page must get right at any width: measured in the page.
// Folded tables are opened first, so their rows are measured too.
function layoutProblems([minText, edge]) {
  for (const d of document.querySelectorAll('details')) d.open = true;
  const out = [];
  const vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw) out.push(`page ${document.documentElement.scrollWidth} > ${vw}`);
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const inside = (a, b, slack = 0.5) => a.left >= b.left - slack && a.right <= b.right + slack
    && a.top >= b.top - slack && a.bottom <= b.bottom + slack;
  const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const name = (e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${e.getAttribute('class') || ''}`;
  document.querySelectorAll('table').forEach((t, i) => {
    if (!shown(t)) return;
    // The table's own box and every box around it show all of it.
    for (let e = t; e && e !== document.body; e = e.parentElement) {
      if (e.scrollWidth > e.clientWidth + 1) out.push(`table ${i} (${t.rows[0]?.textContent.slice(0, 30)}): ${name(e)} scrolls ${e.scrollWidth} > ${e.clientWidth}`);
    }
    for (const c of t.querySelectorAll('td,th')) {
      if (!shown(c)) continue;
      const r = c.getBoundingClientRect();
      if (r.left < -0.5 || r.right > vw + 0.5) { out.push(`table ${i}: cell "${c.textContent}" at ${Math.round(r.left)}..${Math.round(r.right)} of ${vw}`); break; }
    }
  });
  for (const svg of document.querySelectorAll('svg')) {
    if (!shown(svg) || svg.parentElement.closest('svg') || svg.closest('.legend')) continue;
    const box = svg.getBoundingClientRect();
    if (box.left < -0.5 || box.right > vw + 0.5) out.push(`${name(svg)} at ${Math.round(box.left)}..${Math.round(box.right)} of ${vw}`);
    if (svg.classList.contains('sl-board')) continue;
    const scale = box.width / svg.viewBox.baseVal.width;
    for (const t of svg.querySelectorAll('text')) {
      if (!t.textContent.trim()) continue;
      const r = t.getBoundingClientRect();
      if (!inside(r, box, -edge)) out.push(`${name(svg)}: text "${t.textContent}" at ${Math.round(r.left)},${Math.round(r.top)}..${Math.round(r.right)},${Math.round(r.bottom)} outside ${Math.round(box.left)},${Math.round(box.top)}..${Math.round(box.right)},${Math.round(box.bottom)}`);
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (minText && px < minText) out.push(`${name(svg)}: text "${t.textContent}" is ${px.toFixed(1)} px`);
    }
  }
  // The length charts: a legend, and it covers no data.
  for (const svg of document.querySelectorAll('svg.chart.length, svg.chart.overlay')) {
    if (!shown(svg)) continue;
    const legend = svg.querySelector('.sl-legend');
    if (!legend) { out.push(`${name(svg)}: no .sl-legend`); continue; }
    const data = [...svg.querySelectorAll('.sl-plot, .sl-curve, .sl-mark')];
    if (!data.length) out.push(`${name(svg)}: no .sl-plot/.sl-curve/.sl-mark`);
    const l = legend.getBoundingClientRect();
    for (const d of data) {
      if (overlap(l, d.getBoundingClientRect())) out.push(`${name(svg)}: the legend covers ${name(d)}`);
    }
    if (!inside(l, svg.getBoundingClientRect())) out.push(`${name(svg)}: the legend is outside the drawing`);
  }
  return out;
}

const reports = () => [...pages.keys()].filter((n) => n !== 'diff');

for (const width of [390, 1280]) {
  for (const scheme of ['light', 'dark']) {
    test(`every report fits at ${width} px (${scheme}): no hidden column, no legend on data, no clipped label`, async () => {
      const problems = [];
      for (const name of [...reports(), 'diff']) {
        const { page, context, troubles } = await open(name, width, scheme);
        for (const p of await page.evaluate(layoutProblems, [width < 600 ? MIN_PHONE_TEXT : 0, EDGE])) problems.push(`${name}: ${p}`);
        for (const t of troubles) problems.push(`${name}: ${t}`);
        if ((name === 'builtin' || name === 'diff') && scheme === 'light') {
          const shot = `${name === 'builtin' ? 'report' : 'diff'}-${width}.png`;
          await page.evaluate(() => { for (const d of document.querySelectorAll('details')) d.open = false; });
          await page.screenshot({ path: join(DOCS, shot), fullPage: true });
          // The README's picture: the top of the page at desktop width.
          if (name === 'builtin' && width === 1280) {
            await page.screenshot({ path: join(DOCS, 'report-builtin.png'), clip: { x: 0, y: 0, width: 1280, height: 1800 }, fullPage: true });
          }
        }
        await context.close();
      }
      assert.deepEqual(problems, []);
    });
  }
}

// A phone narrower than 390 px, or 390 px less a scroll bar: the large
// boards' and many seats' pages still fit, every table whole (a label such
// as "standard deviation" wraps; no figure does).
test('large boards and many seats fit 360 and 390 px: no page or table wider than the screen', async () => {
  const problems = [];
  for (const name of ['big', 'long', 'players-2-3-50', 'players-100']) {
    for (const width of [360, 390]) {
      const { page, context, troubles } = await open(name, width, 'light');
      for (const p of await page.evaluate(layoutProblems, [MIN_PHONE_TEXT, EDGE])) problems.push(`${name} at ${width}: ${p}`);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      if (wide > width) problems.push(`${name} at ${width}: the page is ${wide} px wide`);
      for (const t of troubles) problems.push(`${name}: ${t}`);
      await context.close();
    }
  }
  assert.deepEqual(problems, []);
});

test('past six seats the seat odds are a row per seat', async () => {
  const { page, context } = await open('players-2-3-50', 1280, 'light');
  const seats = await page.evaluate(() => {
    const t = document.querySelector('table.sl-seats');
    return {
      header: [...t.tHead.rows[0].cells].map((c) => c.textContent.replace(/\s*\u2195$/, '').trim()),
      rows: document.querySelectorAll('table.sl-seats tbody tr').length,
    };
  });
  assert.deepEqual(seats.header, ['seat', '2 players', '3 players', '50 players']);
  assert.equal(seats.rows, 50);
  await context.close();
});

test('the diff marks every added, removed and moved jump on its board, with a legend', async () => {
  const { page, context } = await open('diff', 390, 'light');
  const marks = await page.evaluate(() => {
    const boards = [...document.querySelectorAll('svg.sl-board')];
    const of = (svg, change) => [...svg.querySelectorAll(`.sl-jump.sl-${change}`)].map((g) => [Number(g.dataset.from), Number(g.dataset.to)]);
    const stroke = (g) => g && getComputedStyle(g.querySelector('.sl-mark-halo') || g).stroke;
    return {
      boards: boards.length,
      old: { removed: of(boards[0], 'removed'), moved: of(boards[0], 'moved'), added: of(boards[0], 'added') },
      new: { removed: of(boards[1], 'removed'), moved: of(boards[1], 'moved'), added: of(boards[1], 'added') },
      unchanged: boards[1].querySelectorAll('.sl-jump:not(.sl-changed)').length,
      halos: boards.map((b) => [...b.querySelectorAll('.sl-changed .sl-mark-halo')].length),
      strokes: ['added', 'removed', 'moved'].map((c) => stroke(document.querySelector(`.sl-jump.sl-${c}`))),
      legend: [...document.querySelectorAll('.diff-legend .sl-key')].map((e) => e.dataset.change),
    };
  });
  assert.equal(marks.boards, 2);
  assert.deepEqual(marks.old, { removed: [[36, 44]], moved: [[48, 26]], added: [] });
  assert.deepEqual(marks.new, { removed: [], moved: [[48, 33]], added: [[30, 47]] });
  assert.equal(marks.unchanged, 17, 'the 17 unchanged jumps of the new board are drawn plainly');
  assert.deepEqual(marks.halos, [2, 2]);
  assert.equal(new Set(marks.strokes).size, 3, `three distinct marks: ${marks.strokes}`);
  assert.deepEqual(marks.legend, ['added', 'removed', 'moved']);
  await context.close();
});

test('the 10,000-square report folds its long tables and sorts them, with and without script', async () => {
  const { page, context, troubles } = await open('big', 1280, 'light');
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(height < 9000, `the page is ${height} px tall`);
  const table = page.locator('table.sl-jumps').first();
  const visibleRows = await page.evaluate(() => [...document.querySelectorAll('table tr')].filter((r) => r.checkVisibility()).length);
  assert.ok(visibleRows < 120, `${visibleRows} rows on show`);
  // Every jump is still there behind a <details>: the 600 of the board.
  const folded = await page.evaluate(() => [...document.querySelectorAll('details table')].reduce((n, t) => n + t.tBodies[0].rows.length, 0));
  const shown = await page.evaluate(() => document.querySelector('table.sl-jumps').tBodies[0].rows.length);
  assert.equal(folded + shown, 600, `${shown} shown + ${folded} folded`);
  // The shown rows are the largest changes of the mean, largest first.
  const change = (s) => (s === '–' ? Infinity : Math.abs(Number(s.replace('−', '-'))));
  const first = await table.evaluate((t) => [...t.tBodies[0].rows].map((r) => r.cells[4].textContent));
  const sizes = first.map(change);
  for (let i = 1; i < sizes.length; i++) assert.ok(sizes[i - 1] >= sizes[i], `row ${i}: ${first[i - 1]} before ${first[i]}`);
  // A click on a header sorts by that column (expected uses, descending then ascending).
  const uses = async () => table.evaluate((t) => [...t.tBodies[0].rows].map((r) => Number(r.cells[1].textContent)));
  await page.click('table.sl-jumps th:nth-child(2) button');
  let u = await uses();
  assert.deepEqual(u, [...u].sort((a, b) => b - a));
  assert.equal(await page.getAttribute('table.sl-jumps th:nth-child(2)', 'aria-sort'), 'descending');
  await page.click('table.sl-jumps th:nth-child(2) button');
  u = await uses();
  assert.deepEqual(u, [...u].sort((a, b) => a - b));
  assert.deepEqual(troubles, []);
  // Printed, every folded row is on paper and no sort arrow is.
  await page.emulateMedia({ media: 'print' });
  const printed = await page.evaluate(() => [...document.querySelectorAll('table.sl-jumps tr')].filter((r) => r.checkVisibility()).length);
  assert.ok(printed > 600, `${printed} rows of jumps printed (600 and the headers)`);
  const arrows = await page.evaluate(() => [...document.querySelectorAll('th button')].map((b) => getComputedStyle(b, '::after').content).filter((c) => c !== 'none'));
  assert.deepEqual(arrows, []);
  assert.equal(await page.locator('details.more > summary').first().isVisible(), false);
  await page.emulateMedia({ media: 'screen' });
  await context.close();
  // Without script: the same rows, in the same order, all readable.
  const plain = await open('big', 390, 'light', false);
  const rows = await plain.page.evaluate(() => document.querySelector('table.sl-jumps').tBodies[0].rows.length);
  assert.equal(rows, shown);
  assert.deepEqual(await plain.page.evaluate(layoutProblems, [MIN_PHONE_TEXT, EDGE]), []);
  await plain.context.close();
});
