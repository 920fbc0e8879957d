// Benchmark of the built page (run by hand, not a test):
//   node tests/e2e/bench.mjs            [SITE_DIR=… CHROMIUM=… LOADS=5 IDLE_SECONDS=5]
// Prints
//   1. the site's transfer size: raw, gzip -9 and brotli -q 11 (node:zlib) for .js, .wasm, total;
//   2. time to the first rendered frame (window.firstFrameMs) over LOADS page loads;
//   3. the time of one full estimate in WASM: the page exports no estimate hook, so this times
//      the share-link path instead — a synthetic hashchange runs, synchronously, decode +
//      validate + EstimateWithAdvice + the other-mode estimate + JSON + DOM mirror;
//   4. CPU used by all chromium processes while the page is idle (utime+stime from /proc over
//      IDLE_SECONDS; the processes are found as descendants of this node process, since a
//      launched Browser has no .process() in playwright-core 1.65), against about:blank in the
//      same browser, with the busiest threads named.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as h from './harness.mjs';

const LOADS = Number(process.env.LOADS || 5);
const IDLE_SECONDS = Number(process.env.IDLE_SECONDS || 5);
const VIEWPORT = { width: 1440, height: 900 };
const CLK_TCK = 100;  // getconf CLK_TCK on Linux

// ---- 1. sizes ----------------------------------------------------------------------------------

function listFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]);
}

function sizes() {
  const groups = { '.js': [0, 0, 0], '.wasm': [0, 0, 0], 'other': [0, 0, 0], 'total': [0, 0, 0] };
  const files = [];
  for (const file of listFiles(h.SITE_DIR)) {
    const body = fs.readFileSync(file);
    const row = [
      body.length,
      zlib.gzipSync(body, { level: 9 }).length,
      zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          [zlib.constants.BROTLI_PARAM_MODE]: file.endsWith('.wasm') ? zlib.constants.BROTLI_MODE_GENERIC
            : zlib.constants.BROTLI_MODE_TEXT,
        },
      }).length,
    ];
    const ext = path.extname(file);
    const group = groups[ext] ? ext : 'other';
    for (const g of [group, 'total']) for (let i = 0; i < 3; i++) groups[g][i] += row[i];
    files.push([path.relative(h.SITE_DIR, file), ...row]);
  }
  return { groups, files };
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

function printSizes({ groups, files }) {
  console.log(`\n== 1. transfer size of ${h.SITE_DIR} (${files.length} files)`);
  console.log(`${'group'.padEnd(10)}${'raw'.padStart(14)}${'gzip -9'.padStart(14)}${'brotli -q 11'.padStart(14)}`);
  for (const [name, [raw, gz, br]] of Object.entries(groups)) {
    console.log(`${name.padEnd(10)}${kib(raw).padStart(14)}${kib(gz).padStart(14)}${kib(br).padStart(14)}`);
  }
  console.log('largest files:');
  for (const [name, raw, gz, br] of files.sort((a, b) => b[1] - a[1]).slice(0, 4)) {
    console.log(`  ${name.padEnd(34)}${kib(raw).padStart(12)}${kib(gz).padStart(12)}${kib(br).padStart(12)}`);
  }
}

// ---- 4. chromium processes via /proc --------------------------------------------------------------

function readStat(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');  // fields[0] is field 3 (state)
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };  // utime + stime
  } catch {
    return null;
  }
}

function descendants(root) {
  const children = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(name);
    if (!stat) continue;
    if (!children.has(stat.ppid)) children.set(stat.ppid, []);
    children.get(stat.ppid).push(Number(name));
  }
  const out = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()) || []) { out.push(child); queue.push(child); }
  }
  return out;
}

// Chromium rewrites its command line into one string (no NULs), so match on the whole text.
function processKind(pid) {
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    if (!/chrom/.test(cmd)) return cmd.split(' ')[0].split('/').pop() || '?';
    const type = /--type=(\S+)/.exec(cmd);
    const sub = /--utility-sub-type=(\S+)/.exec(cmd);
    return type ? type[1] + (sub ? `(${sub[1].split('.').pop()})` : '') : 'browser';
  } catch {
    return '?';
  }
}

// utime+stime per process and per thread ("pid/tid name") of every chromium process.
function sampleTicks() {
  const processes = new Map(), threads = new Map();
  for (const pid of descendants(process.pid)) {
    const stat = readStat(pid);
    if (!stat) continue;
    processes.set(pid, stat.ticks);
    let tasks = [];
    try { tasks = fs.readdirSync(`/proc/${pid}/task`); } catch { /* exited */ }
    for (const tid of tasks) {
      try {
        const text = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
        const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
        threads.set(`${pid}/${tid} ${name}`, Number(fields[11]) + Number(fields[12]));
      } catch { /* exited */ }
    }
  }
  return { processes, threads };
}

// ---- main ---------------------------------------------------------------------------------------

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const stats = (xs) => `median ${median(xs).toFixed(0)} ms, min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}`;

printSizes(sizes());

const srv = await h.startServer(h.SITE_DIR);
const chrome = await h.launchBrowser();
try {
  // 2. first frame, each load in a fresh context (no storage, no memory cache; no-store).
  console.log(`\n== 2. time to first rendered frame, ${LOADS} loads (window.firstFrameMs, from navigation start)`);
  const firstFrames = [], walls = [], wasmDone = [], requestCounts = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await chrome.browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    let requests = 0;
    page.on('request', () => { requests += 1; });
    const t0 = Date.now();
    await page.goto(`${srv.origin}/index.html`, { waitUntil: 'commit' });
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', null, { polling: 20 });
    walls.push(Date.now() - t0);
    const timing = await page.evaluate(() => ({
      firstFrame: window.firstFrameMs,
      wasm: performance.getEntriesByType('resource').find((r) => r.name.endsWith('.wasm'))?.responseEnd,
    }));
    firstFrames.push(timing.firstFrame);
    await page.waitForTimeout(300);  // anything the first frames ask for
    requestCounts.push(requests);
    wasmDone.push(timing.wasm);
    await context.close();
  }
  console.log(`firstFrameMs: ${firstFrames.map((x) => x.toFixed(0)).join(', ')} → ${stats(firstFrames)}`);
  console.log(`  of which .wasm downloaded by: ${stats(wasmDone)} (the rest: compile, instantiate, main, first frame)`);
  console.log(`goto → #status "ready" seen by node (incl. CDP round trips): ${stats(walls)}`);
  console.log(`requests on a first visit (fresh context, empty cache): ${requestCounts.join(', ')}`);

  // 3. estimate timing through the share-link path.
  console.log('\n== 3. one full estimate in WASM');
  console.log('no estimate hook is exported (EXPORTED_FUNCTIONS = _main, _malloc, _free; window has only firstFrameMs);');
  console.log('timing the synchronous hashchange path instead: decode link + validate + EstimateWithAdvice');
  console.log('+ other-mode estimate + JSON dump + DOM mirror (+ URL/localStorage writes).');
  const context = await chrome.browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  await page.goto(`${srv.origin}/index.html`);
  await h.waitReady(page);
  const cases = {
    'llama3-8b (default)': ['--model', 'llama3-8b'],
    'llama3-70b ws=64 tp=8 pp=2': ['--model', 'llama3-70b', '--set', 'ws=64', '--set', 'tp=8', '--set', 'pp=2'],
    'deepseek-v3.2 ws=256 pp=8 ep=32': ['--model', 'deepseek-v3.2', '--set', 'ws=256', '--set', 'pp=8', '--set', 'ep=32'],
  };
  const base = `${srv.origin}/index.html`;
  for (const [name, args] of Object.entries(cases)) {
    const link = h.cliLink(args, base);
    const hashA = link.slice(link.indexOf('#'));
    const hashB = hashA + '&b=1';  // a second config, so every dispatch is a real change
    const times = await page.evaluate(([a, b]) => {
      const out = [];
      for (let i = 0; i < 40; i++) {
        const target = i % 2 ? b : a;
        history.replaceState(history.state, '', target);
        const before = document.getElementById('result').getAttribute('data-json');
        const t0 = performance.now();
        window.dispatchEvent(new HashChangeEvent('hashchange'));
        const t1 = performance.now();
        if (document.getElementById('result').getAttribute('data-json') === before) return null;
        out.push(t1 - t0);
      }
      return out;
    }, [hashA, hashB]);
    if (!times) { console.log(`${name}: the synthetic hashchange did not update #result`); continue; }
    const ms = (x) => `${x.toFixed(2)} ms`;
    // Even runs load the link as is, odd runs the same with b=1; skip the first two of each.
    for (const [label, runs] of [['', times.filter((_, i) => i % 2 === 0)], [' b=1', times.filter((_, i) => i % 2 === 1)]]) {
      const warm = runs.slice(2);
      console.log(`${(name + label).padEnd(38)} median ${ms(median(warm))}, min ${ms(Math.min(...warm))}, ` +
        `max ${ms(Math.max(...warm))}, first ${ms(runs[0])} (${warm.length} warm runs)`);
    }
  }

  // 4. idle CPU: the page loaded and settled, nothing touching it; then the same browser with
  // only about:blank open, as the floor of what chromium itself spends.
  const measureIdle = async (label) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const t0 = Date.now();
    const s0 = sampleTicks();
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const s1 = sampleTicks();
    const seconds = (Date.now() - t0) / 1000;
    let total = 0;
    const byKind = new Map();
    for (const [pid, ticks] of s1.processes) {
      const delta = ticks - (s0.processes.get(pid) ?? 0);
      total += delta;
      const kind = processKind(pid);
      byKind.set(kind, (byKind.get(kind) || 0) + delta);
    }
    const pct = (ticks) => `${(100 * ticks / CLK_TCK / seconds).toFixed(2)} %`;
    console.log(`${label}: ${s1.processes.size} processes, ${total} ticks in ${seconds.toFixed(2)} s = ` +
      `${(total / CLK_TCK * 1000).toFixed(0)} ms CPU = ${pct(total)} of one core`);
    for (const [kind, ticks] of [...byKind].sort((a, b) => b[1] - a[1])) {
      if (ticks > 0) console.log(`  process ${kind.padEnd(24)} ${String(ticks).padStart(4)} ticks  ${pct(ticks)}`);
    }
    const busy = [...s1.threads].map(([k, t]) => [k, t - (s0.threads.get(k) ?? 0)]).filter(([, d]) => d > 0)
      .sort((a, b) => b[1] - a[1]).slice(0, 4);
    for (const [key, ticks] of busy) {
      const [ids, ...name] = key.split(' ');
      console.log(`  thread  ${name.join(' ').padEnd(16)} in ${processKind(Number(ids.split('/')[0])).padEnd(10)} ${String(ticks).padStart(4)} ticks  ${pct(ticks)}`);
    }
  };
  console.log(`\n== 4. CPU while idle, ${IDLE_SECONDS} s (utime+stime of all chromium processes under node pid ${process.pid})`);
  // A freshly loaded page in a new context: the hashchange loop above wrote localStorage
  // hundreds of times, which the browser process commits to disk for a while afterwards.
  await context.close();
  const idleContext = await chrome.browser.newContext({ viewport: VIEWPORT });
  const idlePage = await idleContext.newPage();
  await idlePage.goto(`${srv.origin}/index.html#v1&model=llama3-70b&ws=64&tp=8&pp=2`);
  await h.waitReady(idlePage);
  await measureIdle('trainmem page idle');
  await idlePage.goto('about:blank');
  await measureIdle('baseline, same browser on about:blank');
  await idleContext.close();
  // Diagnostic: Emscripten's glfwInit (library_glfw.js) adds a window 'gamepadconnected'
  // listener, which makes Chromium run its gamepad polling thread in the browser process for as
  // long as the page is open. The same page with gamepad listeners dropped at registration:
  const noGamepad = await chrome.browser.newContext({ viewport: VIEWPORT });
  await noGamepad.addInitScript(() => {
    const add = window.addEventListener;
    window.addEventListener = function (type, ...rest) {
      if (/^gamepad/.test(type)) return undefined;
      return add.call(this, type, ...rest);
    };
  });
  const ngPage = await noGamepad.newPage();
  await ngPage.goto(`${srv.origin}/index.html#v1&model=llama3-70b&ws=64&tp=8&pp=2`);
  await h.waitReady(ngPage);
  await measureIdle('trainmem page idle, gamepad listeners blocked (diagnostic)');
  await noGamepad.close();
} finally {
  await chrome.close();
  await srv.close();
}
