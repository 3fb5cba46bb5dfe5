// The designer page in a real browser: playwright-core driving Debian's
// chromium against a running `snakeladder serve` (ci.sh starts it).
//
// SL_URL: the server's address; SL_BIN: the snakeladder binary, whose
// `analyze` output every figure on the page is compared with; SL_DOCS: where
// the screenshots go; SL_CHROMIUM: the browser (default /usr/bin/chromium).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const URL = process.env.SL_URL;
const BIN = process.env.SL_BIN;
const DOCS = process.env.SL_DOCS;
assert.ok(URL && BIN && DOCS, 'SL_URL, SL_BIN and SL_DOCS must be set (ci.sh sets them)');
const tmp = mkdtempSync(join(tmpdir(), 'sl-designer-'));

let browser;
before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.SL_CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});
after(async () => { if (browser) await browser.close(); });

// A fresh page at `width`, with every console error, CSP refusal and
// request to another origin recorded.
async function open(width = 1280, { height = 900, url = URL } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
  const page = await context.newPage();
  const troubles = [];
  // Chromium logs every 422 answer as a console error; an invalid board is
  // answered so on purpose.
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 422/.test(m.text())) troubles.push(m.text());
  });
  page.on('pageerror', (e) => troubles.push(String(e)));
  page.on('request', (r) => { if (!r.url().startsWith(url.replace(/\/$/, '')) && !r.url().startsWith('blob:')) troubles.push(`request to ${r.url()}`); });
  await page.goto(url);
  await ready(page);
  return { page, context, troubles };
}

async function ready(page) {
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 30000 });
}

// What the command prints for a board file: the JSON mean and the text
// line's four-decimal mean.
function cliMean(file) {
  const args = file ? ['analyze', file] : ['analyze'];
  // A large board's JSON (its whole distribution) passes node's 1 MB default.
  const json = JSON.parse(execFileSync(BIN, [...args, '--format', 'json'], { maxBuffer: 1 << 28 }).toString());
  const text = execFileSync(BIN, args).toString();
  const m = /^ {2}mean (\S+)/m.exec(text);
  assert.ok(m, 'the text output has a mean');
  return { value: json.turns.mean, shown: m[1] };
}

async function pageMean(page) {
  return {
    value: Number(await page.getAttribute('#mean', 'data-value')),
    shown: (await page.textContent('#mean')).trim(),
  };
}

async function centreOf(page, selector) {
  const box = await page.locator(selector).first().boundingBox();
  assert.ok(box, `${selector} is drawn`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

// Drags the `end` handle of jump `field` onto square `square`.
async function drag(page, field, end, square) {
  const from = await centreOf(page, `.sl-handle[data-field="${field}"][data-end="${end}"]`);
  const to = await centreOf(page, `.sl-sq[data-square="${square}"] rect`);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
  await ready(page);
}

async function downloadBoard(page, name) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-json')]);
  const file = join(tmp, name);
  await download.saveAs(file);
  return file;
}

test('the built-in board opens with the figures the command prints', async () => {
  const { page, context, troubles } = await open();
  assert.deepEqual(await pageMean(page), cliMean(null));
  assert.match(await page.textContent('#exact'), /^exactly \d+\/\d+$/);
  assert.equal(await page.locator('.sl-jump').count(), 19);
  assert.deepEqual(troubles, []);
  await context.close();
});

test('dragging a snake shows the edited board\'s mean exactly as analyze prints it', async () => {
  const { page, context, troubles } = await open();
  const before = await pageMean(page);
  // The chute 48→26 (snakes[1]): its tail moved to 33.
  await drag(page, 'snakes[1]', 'to', 33);
  assert.equal(await page.getAttribute('.sl-jump[data-field="snakes[1]"]', 'data-to'), '33');
  const after_ = await pageMean(page);
  assert.notEqual(after_.value, before.value);
  const file = await downloadBoard(page, 'dragged.json');
  const board = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(board.snakes[1], [48, 33]);
  assert.deepEqual(after_, cliMean(file));
  // The keyboard moves a handle too: ArrowLeft takes the head one square
  // down, from 48 to 47, and the handle keeps the focus through the
  // redraw that shows the new figures, so a second press takes it to 46.
  await page.focus('.sl-handle[data-field="snakes[1]"][data-end="from"]');
  await page.keyboard.press('ArrowLeft');
  await ready(page);
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('data-field')), 'snakes[1]');
  await page.keyboard.press('ArrowLeft');
  await ready(page);
  const keyed = await downloadBoard(page, 'keyed.json');
  assert.deepEqual(JSON.parse(readFileSync(keyed, 'utf8')).snakes[1], [46, 33]);
  assert.deepEqual(await pageMean(page), cliMean(keyed));
  assert.deepEqual(troubles, []);
  await context.close();
});

test('an invalid drag shows the problem at its jump, and undo restores the figure', async () => {
  const { page, context, troubles } = await open();
  const original = await pageMean(page);
  // The chute 48→26's tail dragged above its head: a snake that climbs.
  await drag(page, 'snakes[1]', 'to', 57);
  const mark = page.locator('.sl-problem[data-field="snakes[1]"]');
  assert.equal(await mark.count(), 1);
  assert.equal(await mark.getAttribute('data-kind'), 'snake_climbs');
  // The mark sits on the jump: between its two handles.
  const m = await centreOf(page, '.sl-problem[data-field="snakes[1]"] circle');
  const a = await centreOf(page, '.sl-handle[data-field="snakes[1]"][data-end="from"]');
  const b = await centreOf(page, '.sl-handle[data-field="snakes[1]"][data-end="to"]');
  assert.ok(Math.abs(m.x - (a.x + b.x) / 2) < 2 && Math.abs(m.y - (a.y + b.y) / 2) < 2, 'the mark is at the jump');
  assert.match(await page.textContent('#problems li[data-field="snakes[1]"]'), /snakes\[1\]/);
  assert.equal(await page.getAttribute('#mean', 'data-value'), '');
  assert.match(await page.textContent('#status'), /Invalid/);
  // Undo (Ctrl+Z): the problem is gone and the figure is back.
  await page.locator('body').press('Control+z');
  await ready(page);
  assert.equal(await mark.count(), 0);
  assert.deepEqual(await pageMean(page), original);
  // Redo brings the problem back; the Undo button undoes it again.
  await page.click('#redo');
  await ready(page);
  assert.equal(await mark.count(), 1);
  await page.click('#undo');
  await ready(page);
  assert.deepEqual(await pageMean(page), original);
  // A rule's number goes to the board as typed: faces 0 is named as 0,
  // not silently made 1.
  await page.fill('#r-faces', '0');
  await page.press('#r-faces', 'Tab');
  await ready(page);
  assert.match(await page.textContent('#problems'), /0 faces/);
  await page.click('#undo');
  await ready(page);
  assert.deepEqual(await pageMean(page), original);
  assert.deepEqual(troubles, []);
  await context.close();
});

test('a lever applied with a click gives the mean the ranking promised', async () => {
  const { page, context, troubles } = await open();
  await page.waitForSelector('#levers button');
  const text = await page.textContent('#levers button');
  const promised = /\(mean (\d+\.\d{4})\)/.exec(text);
  assert.ok(promised, text);
  await page.click('#levers button');
  await ready(page);
  assert.equal((await pageMean(page)).shown, promised[1]);
  const file = await downloadBoard(page, 'lever.json');
  assert.deepEqual(await pageMean(page), cliMean(file));
  assert.deepEqual(troubles, []);
  await context.close();
});

for (const width of [390, 1280]) {
  test(`the page fits at ${width} px and nothing is clipped`, async () => {
    const { page, context, troubles } = await open(width);
    await page.waitForSelector('#levers button');
    const wide = await page.evaluate(() => {
      const vw = document.documentElement.clientWidth;
      const out = [];
      if (document.documentElement.scrollWidth > vw) out.push(`page ${document.documentElement.scrollWidth} > ${vw}`);
      for (const e of document.querySelectorAll('body *')) {
        const r = e.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        if (e.closest('svg') && e.tagName.toLowerCase() !== 'svg') continue;
        if (r.left < -1 || r.right > vw + 1) out.push(`${e.tagName}#${e.id}.${e.getAttribute('class')} ${Math.round(r.left)}..${Math.round(r.right)}`);
        if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible') out.push(`${e.tagName}#${e.id} scrolls ${e.scrollWidth} > ${e.clientWidth}`);
        if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1 && /^(DIV|P|LI|SECTION|BUTTON|LABEL|UL|OL|FORM)$/.test(e.tagName)) out.push(`${e.tagName}#${e.id}.${e.getAttribute('class')} content ${e.scrollWidth} > box ${e.clientWidth}`);
      }
      return out;
    });
    assert.deepEqual(wide, []);
    // Every control a user needs is on screen somewhere (not hidden).
    for (const id of ['undo', 'redo', 'add-snake', 'add-ladder', 'download-json', 'download-report', 'mean', 'board']) {
      assert.ok(await page.isVisible(`#${id}`), `#${id} is visible`);
    }
    // Scrolled to the end first: the narrow page's summary bar sticks to
    // the foot of the screen, and a full-page capture draws it where the
    // screen's foot is, so at the end it is drawn where it then rests.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.screenshot({ path: join(DOCS, `serve-${width}.png`), fullPage: true });
    assert.deepEqual(troubles, []);
    await context.close();
  });
}

test('the report downloads as the self-contained HTML report', async () => {
  const { page, context } = await open();
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-report')]);
  const file = join(tmp, 'report.html');
  await download.saveAs(file);
  const html = readFileSync(file, 'utf8');
  assert.match(html, /^<!DOCTYPE html>/i);
  assert.match(html, /class="sl-board"/);
  writeFileSync(join(tmp, 'ok'), '');
  await context.close();
});

// A `snakeladder serve` of its own with `args`, on a free port: its
// address, and the process to kill.
async function serveOwn(args) {
  const { spawn } = await import('node:child_process');
  const server = spawn(BIN, ['serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /(http:\/\/\S+\/)/.exec(out);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  return { url, server };
}

test('the figures a limit left out are named on the page, with the reason', async () => {
  // A server of its own, whose work limit leaves out the built-in board's
  // length distribution (about 1.24e5 multiply-adds) and so its seat odds.
  const { url, server } = await serveOwn(['--max-work', '100000']);
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    const page = await context.newPage();
    await page.goto(url);
    await ready(page);
    const notes = await page.$$eval('#notes li', (l) => l.map((x) => x.textContent));
    assert.equal(notes.length, 2, JSON.stringify(notes));
    assert.match(notes[0], /^Not computed: the length distribution: it would take about 1\.24e\+5 multiply-adds, over the server's limit of 1\.00e\+5 \(--max-work\)\.$/);
    assert.match(notes[1], /^Not computed: the seat odds: it needs the length distribution/);
    await context.close();
  } finally {
    server.kill();
  }
});

// The centre of the handle of `field`'s `end`.
const handleAt = (page, field, end) => centreOf(page, `.sl-handle[data-field="${field}"][data-end="${end}"]`);

test('the arrow keys move a handle as the board is drawn, row by serpentine row', async () => {
  const { page, context, troubles } = await open();
  const tail = '.sl-handle[data-field="snakes[1]"][data-end="to"]';
  const press = async (key) => {
    await page.focus(tail);
    await page.keyboard.press(key);
    await ready(page);
    return page.getAttribute('.sl-jump[data-field="snakes[1]"]', 'data-to');
  };
  // The chute 48→26: its tail on 26 (row 21-30, drawn left to right).
  const start = await handleAt(page, 'snakes[1]', 'to');
  // Up: the square drawn above 26, in the row 31-40 drawn right to left: 35.
  assert.equal(await press('ArrowUp'), '35');
  const up = await handleAt(page, 'snakes[1]', 'to');
  assert.ok(up.y < start.y - 10 && Math.abs(up.x - start.x) < 2, 'up is up');
  // Right on a row drawn right to left: the square drawn to the right, 34.
  assert.equal(await press('ArrowRight'), '34');
  const right = await handleAt(page, 'snakes[1]', 'to');
  assert.ok(right.x > up.x + 10 && Math.abs(right.y - up.y) < 2, 'right is right');
  // Left back to 35, down to the square drawn below 34: 27.
  assert.equal(await press('ArrowLeft'), '35');
  assert.equal(await press('ArrowRight'), '34');
  assert.equal(await press('ArrowDown'), '27');
  const down = await handleAt(page, 'snakes[1]', 'to');
  assert.ok(down.y > right.y + 10 && Math.abs(down.x - right.x) < 2, 'down is down');
  // At the board's edge an arrow leaves the handle where it is: 100's row
  // (91-100, drawn right to left) has 100 at its left end.
  const top = '.sl-handle[data-field="ladders[8]"][data-end="to"]';
  await page.focus(top);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowUp');
  await ready(page);
  assert.equal(await page.getAttribute('.sl-jump[data-field="ladders[8]"]', 'data-to'), '100');
  assert.deepEqual(troubles, []);
  await context.close();
});

test('every jump has two handles: off the board, of no length, or stacked', async () => {
  const { page, context, troubles } = await open();
  const jumps = async () => page.locator('.sl-jump').count();
  assert.equal(await page.locator('.sl-handle').count(), 2 * (await jumps()));
  // 90 squares: 71→91, 80→100, 93→73, 95→75 and 98→78 reach off the board.
  await page.fill('#r-squares', '90');
  await page.press('#r-squares', 'Tab');
  await ready(page);
  assert.equal(await jumps(), 19);
  assert.equal(await page.locator('.sl-handle').count(), 38);
  const off = page.locator('.sl-handle.sl-off');
  assert.equal(await off.count(), 5);
  // Each is a keyboard stop, shown at the board's edge (the ladder
  // 71→91's top at square 90, the right end of the top row), and an arrow
  // brings it onto the board.
  const ladder = '.sl-handle[data-field="ladders[7]"][data-end="to"]';
  assert.match(await page.getAttribute(ladder, 'aria-label'), /off the board/);
  await page.focus(ladder);
  await page.keyboard.press('ArrowLeft');
  await ready(page);
  assert.equal(await page.getAttribute('.sl-jump[data-field="ladders[7]"]', 'data-to'), '89');
  assert.equal(await off.count(), 4);
  await page.click('#undo');
  await ready(page);
  await page.click('#undo');
  await ready(page);
  // A jump dragged onto its own start has no length: both its handles
  // stay, spread on the square so each can be taken, and the problem's
  // mark does not stand in the way.
  await drag(page, 'snakes[1]', 'to', 48);
  assert.equal(await page.getAttribute('.sl-jump[data-field="snakes[1]"]', 'data-to'), '48');
  assert.equal(await page.locator('.sl-problem[data-field="snakes[1]"]').count(), 1);
  assert.equal(await page.locator('.sl-handle').count(), 38);
  const a = await handleAt(page, 'snakes[1]', 'from');
  const b = await handleAt(page, 'snakes[1]', 'to');
  assert.ok(Math.hypot(a.x - b.x, a.y - b.y) > 8, `the handles are apart: ${JSON.stringify([a, b])}`);
  await drag(page, 'snakes[1]', 'to', 30);
  assert.equal(await page.getAttribute('.sl-jump[data-field="snakes[1]"]', 'data-to'), '30');
  assert.equal(await page.getAttribute('.sl-jump[data-field="snakes[1]"]', 'data-from'), '48');
  // Stacked on one square (the chute 49→11's head moved onto 48, where
  // another starts): the pointer takes each handle apart.
  await drag(page, 'snakes[2]', 'from', 48);
  await drag(page, 'snakes[2]', 'from', 47);
  assert.equal(await page.getAttribute('.sl-jump[data-field="snakes[2]"]', 'data-from'), '47');
  assert.equal(await page.getAttribute('.sl-jump[data-field="snakes[1]"]', 'data-from'), '48');
  assert.deepEqual(troubles, []);
  await context.close();
});

test('at 390 px the mean stays in view while a snake is dragged', async () => {
  const { page, context, troubles } = await open(390, { height: 844 });
  const inView = async (selector) => {
    const box = await page.locator(selector).boundingBox();
    return box !== null && box.y >= 0 && box.y + box.height <= 844 && box.x >= 0 && box.x + box.width <= 390;
  };
  await page.locator('#board').scrollIntoViewIfNeeded();
  await drag(page, 'snakes[1]', 'to', 33);
  assert.ok(await inView('#summary-mean'), 'the summary\'s mean is on screen');
  assert.equal(await page.textContent('#summary-mean'), await page.textContent('#mean'));
  assert.equal(await page.getAttribute('#summary-mean', 'data-value'), await page.getAttribute('#mean', 'data-value'));
  // The bar hides nothing for good: the page's end scrolls above it.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const bar = await page.locator('#summary').boundingBox();
  const last = await page.locator('#tune-result').boundingBox();
  assert.ok(last.y + last.height <= bar.y + 1, 'the last card ends above the bar');
  assert.deepEqual(troubles, []);
  await context.close();
  // At 1280 px the figures are beside the board: the card's mean is in
  // view and the bar is not shown.
  const wide = await open(1280, { height: 800 });
  const box = await wide.page.locator('#mean').boundingBox();
  assert.ok(box.y + box.height <= 800, 'the mean is in view at 1280 px');
  assert.equal(await wide.page.isVisible('#summary'), false);
  await wide.context.close();
});

test('save keeps the file\'s order of jumps and its numbers as written', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sl-save-'));
  const file = join(dir, 'board.json');
  // No rules (none is added), and a threshold written as an integer.
  const original = '{\n  "name": "Order",\n  "squares": 30,\n  "ladders": [\n    [12, 22],\n    [3, 11]\n  ],\n' +
    '  "snakes": [\n    [27, 5],\n    [16, 6]\n  ],\n  "limits": {\n    "max_mean_turns": 90\n  }\n}\n';
  writeFileSync(file, original);
  const { url, server } = await serveOwn([file]);
  try {
    const { page, context, troubles } = await open(1280, { url });
    await drag(page, 'snakes[0]', 'to', 4);
    await page.fill('#r-name', 'Order 2');
    await page.press('#r-name', 'Tab');
    await ready(page);
    await page.click('#add-ladder');
    await ready(page);
    const added = await page.locator('.sl-jump[data-field="ladders[2]"]');
    const from = await added.getAttribute('data-from'), to = await added.getAttribute('data-to');
    await page.click('#save');
    await page.waitForFunction(() => /^Saved /.test(document.getElementById('status').textContent));
    const expected = original
      .replace('"Order"', '"Order 2"')
      .replace('[3, 11]\n', `[3, 11],\n    [${from}, ${to}]\n`)
      .replace('[27, 5]', '[27, 4]');
    assert.equal(readFileSync(file, 'utf8'), expected);
    assert.deepEqual(troubles, []);
    await context.close();
  } finally {
    server.kill();
  }
});

test('a save over a file changed on disk since the page loaded it is refused, both kept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sl-conflict-'));
  const file = join(dir, 'board.json');
  writeFileSync(file, '{\n  "squares": 30,\n  "ladders": [\n    [3, 11]\n  ],\n  "snakes": [\n    [27, 5]\n  ]\n}\n');
  const { url, server } = await serveOwn([file]);
  try {
    const { page, context, troubles } = await open(1280, { url });
    await drag(page, 'snakes[0]', 'to', 4);
    await ready(page);
    // Another editor adds a note to the file while the page is open.
    const theirs = '{\n  "name": "their note",\n  "squares": 30\n}\n';
    writeFileSync(file, theirs);
    await page.click('#save');
    await page.waitForFunction(() => /^Not saved: /.test(document.getElementById('status').textContent));
    assert.match(await page.textContent('#status'), /changed since the page loaded it/);
    assert.equal(readFileSync(file, 'utf8'), theirs);
    // The page's edit is still there, and "Board JSON" gives it.
    const mine = await downloadBoard(page, 'mine.json');
    assert.deepEqual(JSON.parse(readFileSync(mine, 'utf8')).snakes, [[27, 4]]);
    // Chromium logs the 409 as a console error; it is the answer expected.
    assert.deepEqual(troubles.filter((t) => !/status of 409/.test(t)), []);
    await context.close();
  } finally {
    server.kill();
  }
});

// The centre on screen of square `s` of a board `width` squares wide and
// `rows` high, drawn as the page draws it (app.js `centre`, cell `cell`).
async function squareOnScreen(page, s, { width, rows, cell }) {
  const box = await page.locator('#board svg').boundingBox();
  const i = s - 1;
  const row = Math.floor(i / width);
  const col = row % 2 === 0 ? i % width : width - 1 - (i % width);
  const scale = box.width / (cell * width + 2);
  return {
    x: box.x + (col * cell + cell / 2 + 1) * scale,
    y: box.y + ((rows - 1 - row) * cell + cell / 2 + 1) * scale,
  };
}

test('a board of 3,600 squares is drawn as a grid and edited like a small one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sl-grid-'));
  const file = join(dir, 'big.json');
  execFileSync(BIN, ['generate', '--squares', '3600', '--snakes', '12', '--ladders', '12', '--seed', '5', '-o', file]);
  const written = JSON.parse(readFileSync(file, 'utf8'));
  const { url, server } = await serveOwn([file]);
  try {
    const { page, context, troubles } = await open(1280, { url });
    assert.deepEqual(await pageMean(page), cliMean(file));
    // One patterned area for the squares, not 3,600 elements; every jump
    // and both its handles drawn.
    assert.equal(await page.locator('.sl-sq').count(), 0);
    assert.equal(await page.locator('.sl-grid rect').count(), 1);
    assert.equal(await page.locator('.sl-jump').count(), 24);
    assert.equal(await page.locator('.sl-handle').count(), 48);
    // 60 squares a row (the board is square), cells of 12 units.
    const shape = { width: 60, rows: 60, cell: 12 };
    const hover = await squareOnScreen(page, 1234, shape);
    await page.mouse.move(hover.x, hover.y);
    assert.equal(await page.textContent('#pointer-square'), 'square 1234');
    // A ladder's top dragged one square on, to a square no jump uses.
    const [start, top] = written.ladders[0];
    const used = new Set([...written.ladders, ...written.snakes].flat());
    let to = top + 1;
    while (used.has(to)) to += 1;
    const from = await handleAt(page, 'ladders[0]', 'to');
    const target = await squareOnScreen(page, to, shape);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(target.x, target.y, { steps: 6 });
    assert.equal(await page.getAttribute('.sl-target-box', 'data-square'), String(to));
    await page.mouse.up();
    await ready(page);
    assert.equal(await page.getAttribute('.sl-jump[data-field="ladders[0]"]', 'data-to'), String(to));
    const saved = await downloadBoard(page, 'grid.json');
    assert.deepEqual(JSON.parse(readFileSync(saved, 'utf8')).ladders[0], [start, to]);
    assert.deepEqual(await pageMean(page), cliMean(saved));
    assert.deepEqual(troubles, []);
    await context.close();
  } finally {
    server.kill();
  }
});

test('a board of 300 rows of 10 scrolls in its box, not the page, at 390 px', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sl-tall-'));
  const file = join(dir, 'tall.json');
  // 3,000 squares are 10 to a row (not a square number): 300 rows.
  execFileSync(BIN, ['generate', '--squares', '3000', '--snakes', '6', '--ladders', '6', '--seed', '2', '-o', file]);
  const { url, server } = await serveOwn([file]);
  try {
    const { page, context, troubles } = await open(390, { url });
    const sizes = await page.evaluate(() => {
      const box = document.getElementById('board');
      return { page: document.documentElement.scrollWidth, box: box.clientHeight, inner: box.scrollHeight, view: innerHeight };
    });
    assert.ok(sizes.page <= 390, JSON.stringify(sizes));
    assert.ok(sizes.box <= sizes.view, `the box fits the window: ${JSON.stringify(sizes)}`);
    assert.ok(sizes.inner > 2 * sizes.box, `the board scrolls inside it: ${JSON.stringify(sizes)}`);
    assert.equal(await page.locator('.sl-handle').count(), 24);
    assert.deepEqual(troubles, []);
    await context.close();
  } finally {
    server.kill();
  }
});
