// Speed and load of `snakeladder serve` on loopback, measured as ratios
// on this machine (docs/performance.md quotes the numbers).
//
//   node load.mjs BIN BOARDS_DIR
//
// 1. The median time of `POST /api/analyze` of the built-in board against
//    the median time of running the `snakeladder analyze` process on it.
// 2. 50 concurrent clients send 5,000 requests, a mix of valid boards (the
//    answer must be byte for byte the command's JSON), invalid ones (422
//    with the command's problems) and oversized bodies (413); the server's
//    resident memory is sampled throughout.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';

const [BIN, BOARDS] = process.argv.slice(2);
if (!BIN || !BOARDS) { console.error('usage: node load.mjs BIN BOARDS_DIR'); process.exit(2); }

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const now = () => Number(process.hrtime.bigint()) / 1e6;

const server = spawn(BIN, ['serve', '--port', '0', '--max-jobs', '2'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => { out += d; const m = /http:\/\/[^/\s]+/.exec(out); if (m) resolve(m[0]); });
  server.on('exit', (c) => reject(new Error(`server exited ${c}`)));
});
const { port } = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function request(path, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent,
      headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
function rss() {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'));
  return Number(m[1]) / 1024;
}

// 1. Speed.
const builtin = readFileSync(join(BOARDS, 'milton-bradley.json'));
const cliJson = execFileSync(BIN, ['analyze', '--format', 'json']);
for (let i = 0; i < 5; i++) await request('/api/analyze', builtin);
// Interleaved, so that the machine's changing load weighs on both alike.
const api = [];
const proc = [];
for (let i = 0; i < 61; i++) {
  let t = now();
  const r = await request('/api/analyze', builtin);
  api.push(now() - t);
  if (r.status !== 200 || !r.body.equals(cliJson)) throw new Error('the API answer differs from the command');
  t = now();
  const c = spawnSync(BIN, ['analyze', '--format', 'json']);
  proc.push(now() - t);
  if (c.status !== 0) throw new Error('analyze failed');
}
const a = median(api), p = median(proc);
console.log(`median POST /api/analyze (built-in board): ${a.toFixed(2)} ms over ${api.length} requests`);
console.log(`median \`snakeladder analyze --format json\` process: ${p.toFixed(2)} ms over ${proc.length} runs`);
console.log(`ratio: ${(a / p).toFixed(3)}x (target <= 0.3x)`);

// 2. Load.
const valid = ['milton-bradley.json', 'variant-two-dice.json', 'seed-four-by-four.json', 'variant-extra-turn.json']
  .map((name) => {
    const body = readFileSync(join(BOARDS, name));
    return { name, body, expect: execFileSync(BIN, ['analyze', join(BOARDS, name), '--format', 'json']) };
  });
const invalidBody = Buffer.from('{"squares": 30, "snakes": [[5, 12]], "ladders": [[3, 40]]}');
const invalidExpect = Buffer.from(
  spawnSync(BIN, ['validate', '-', '--format', 'json'], { input: invalidBody }).stdout.toString().replaceAll('<stdin>', '<request>'));
const oversized = Buffer.alloc(2 * 1024 * 1024 + 10, 32);
const TOTAL = 5000, CLIENTS = 50;
// Two rounds of 5,000 on one server: memory that only grows shows as a
// second round ending higher than the first.
const ROUNDS = Number(process.env.SL_ROUNDS || 2);
let failed = 0;
for (let round = 1; round <= ROUNDS; round++) {
  const counts = { valid: 0, invalid: 0, oversized: 0, wrong: 0, errors: 0 };
  const samples = [];
  let sent = 0;
  const sampler = setInterval(() => samples.push({ at: sent, mb: rss() }), 100);
  const t0 = now();
  const client = async (k) => {
    for (;;) {
      const i = sent++;
      if (i >= TOTAL) return;
      const kind = i % 10 < 6 ? 'valid' : i % 10 < 9 ? 'invalid' : 'oversized';
      try {
        if (kind === 'valid') {
          const b = valid[i % valid.length];
          const r = await request('/api/analyze', b.body);
          if (r.status === 200 && r.body.equals(b.expect)) counts.valid++; else { counts.wrong++; if (counts.wrong < 4) console.log('wrong', b.name, r.status, r.body.toString().slice(0, 200)); }
        } else if (kind === 'invalid') {
          const r = await request('/api/analyze', invalidBody);
          if (r.status === 422 && r.body.equals(invalidExpect)) counts.invalid++; else { counts.wrong++; if (counts.wrong < 4) console.log('wrong invalid', r.status, r.body.toString().slice(0, 200)); }
        } else {
          const r = await request('/api/analyze', oversized);
          if (r.status === 413) counts.oversized++; else counts.wrong++;
        }
      } catch (e) {
        counts.errors++;
        if (counts.errors < 4) console.log(`client ${k} (${kind}): ${e.message}`);
      }
    }
  };
  const startMb = rss();
  await Promise.all(Array.from({ length: CLIENTS }, (_, k) => client(k)));
  const seconds = (now() - t0) / 1000;
  clearInterval(sampler);
  const endMb = rss();
  const peak = Math.max(endMb, ...samples.map((s) => s.mb));
  console.log(`load round ${round}: ${TOTAL} requests, ${CLIENTS} concurrent clients, ${seconds.toFixed(1)} s (${(TOTAL / seconds).toFixed(0)}/s)`);
  console.log(`  right answers: ${counts.valid} valid (200, the command's JSON), ${counts.invalid} invalid (422, its problems), ${counts.oversized} oversized (413); wrong ${counts.wrong}, errors ${counts.errors}`);
  console.log(`  server RSS: ${startMb.toFixed(1)} MB at the start, ${endMb.toFixed(1)} MB at the end, peak ${peak.toFixed(1)} MB`);
  failed += counts.wrong + counts.errors;
}
server.kill('SIGTERM');
agent.destroy();
process.exit(failed ? 1 : 0);
