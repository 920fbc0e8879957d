// Shared by app.test.mjs and bench.mjs: a tiny static server for the built site, the chromium
// launch recipe (TOOLCHAIN.md §8), page helpers for the trainmem page contract, a PNG decoder
// for "is the canvas blank?" checks, and the CLI wrapper.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(HERE, '../..');
export const SITE_DIR = path.resolve(process.env.SITE_DIR || path.join(REPO, 'build/web-release/site'));
export const CLI = path.resolve(process.env.CLI || path.join(REPO, 'build/native-release/trainmem'));
export const ARTIFACTS = path.join(HERE, 'artifacts');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// How long a test waits for the page to react to an input (a hash change, a focus, a panel).
// On a quiet machine the page reacts within a few frames; CI shares two cores with builds, so
// the wait is generous: a page that never reacts still fails, only later.
export const UI_WAIT = Number(process.env.UI_WAIT || 30000);

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-quic',
];

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.ttf': 'font/ttf',
};

// Serves `root` on 127.0.0.1:<ephemeral>. Every request is recorded in `requests`
// ({method, url, status}); paths outside root are refused.
export async function startServer(root = SITE_DIR) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const entry = { method: req.method, url: req.url, status: 0 };
    requests.push(entry);
    const send = (status, headers, body) => {
      entry.status = status;
      res.writeHead(status, headers);
      res.end(body);
    };
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    } catch {
      return send(400, { 'content-type': 'text/plain' }, 'bad request');
    }
    if (pathname.endsWith('/')) pathname += 'index.html';
    const file = path.resolve(root, '.' + pathname);
    if (file !== root && !file.startsWith(root + path.sep)) {
      return send(403, { 'content-type': 'text/plain' }, 'forbidden');
    }
    fs.readFile(file, (err, body) => {
      if (err) return send(404, { 'content-type': 'text/plain' }, 'not found');
      const type = MIME[path.extname(file).toLowerCase()] || 'application/octet-stream';
      send(200, { 'content-type': type, 'content-length': body.length, 'cache-control': 'no-store' },
        req.method === 'HEAD' ? undefined : body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const origin = `http://127.0.0.1:${port}`;
  return {
    server, port, origin, requests,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}

// chromium.launch() gives every launch a fresh, temporary user-data-dir of its own
// (playwright_chromiumdev_profile-*, deleted on close); it refuses an explicit --user-data-dir
// ("use launchPersistentContext"), which would allow only one context per browser.
export async function launchBrowser() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return { browser, close: () => browser.close().catch(() => {}) };
}

// Records everything a page does that a test asserts on: console errors, page errors,
// requests (their URLs, to check the origin) and failed requests.
export function watchPage(page) {
  const log = { consoleErrors: [], pageErrors: [], requests: [], failed: [] };
  page.on('console', (msg) => { if (msg.type() === 'error') log.consoleErrors.push(msg.text()); });
  page.on('pageerror', (err) => log.pageErrors.push(String(err && err.stack || err)));
  page.on('request', (req) => log.requests.push(req.url()));
  page.on('requestfailed', (req) => log.failed.push(`${req.url()} ${req.failure()?.errorText}`));
  return log;
}

// Requests that left `origin` (data: and blob: URLs stay in the page).
export function crossOrigin(urls, origin) {
  return urls.filter((u) => {
    if (u.startsWith('data:') || u.startsWith('blob:')) return false;
    try { return new URL(u).origin !== origin; } catch { return true; }
  });
}

// Waits for the page contract: #status "ready", window.firstFrameMs, #result data-json set.
export async function waitReady(page, timeout = 30000) {
  await page.waitForSelector('canvas#canvas', { state: 'attached', timeout });
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', null, { timeout });
  await page.waitForFunction(() => typeof window.firstFrameMs === 'number', null, { timeout });
  await page.waitForFunction(() => (document.getElementById('result')?.getAttribute('data-json') || '') !== '',
    null, { timeout });
}

export async function readResult(page) {
  const text = await page.getAttribute('#result', 'data-json');
  return JSON.parse(text);
}

export async function readPageState(page) {
  return page.evaluate(() => ({
    hash: window.location.hash,
    status: document.getElementById('status')?.textContent,
    statusState: document.getElementById('status')?.getAttribute('data-state'),
    summary: document.getElementById('summary')?.textContent,
    title: document.title,
    json: document.getElementById('result')?.getAttribute('data-json'),
  }));
}

// Waits until the page has drawn its last requested frame (the main loop pauses when idle),
// so a screenshot shows the settled layout. Best effort: a fixed short wait.
export async function settle(page, ms = 300) {
  await page.waitForTimeout(ms);
}

// Resolves after the page has drawn at least one more animation frame: the Emscripten main loop
// runs on requestAnimationFrame, so after two of them the event just sent has reached ImGui.
export async function nextFrames(page, extraMs = 50) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  if (extraMs) await page.waitForTimeout(extraMs);
}

// ImGui 1.86 wants the hover in one frame and the press in a later one (TOOLCHAIN.md §8: move,
// wait 100 ms, down, wait 100 ms, up); the frame waits keep that true on a loaded machine.
export async function imguiClick(page, x, y) {
  await page.mouse.move(x, y);
  await page.waitForTimeout(100);
  await nextFrames(page);
  await page.mouse.down();
  await page.waitForTimeout(100);
  await nextFrames(page);
  await page.mouse.up();
  await nextFrames(page);
}

// The seed example the page shows on a first visit (app_actions.cpp kSeedConfig), as CLI args.
// A first visit: the seed's Llama 3 8B example (b 2, s 2048, selective AC) on 8 devices with
// v1 links' defaults (H100 80GB, torchtitan) and today's per-op selective AC, written to the URL as
// `#v1&model=llama3-8b&ws=8&b=2&acopt=op`.
export const FIRST_VISIT_ARGS = ['--model', 'llama3-8b', '--set', 'world_size=8', '--set', 'b=2'];

// The seed's example as the seed runs it (Ascend 910B, torchtitan-npu, swap_optimizer).
export const SEED_ARGS = ['--model', 'llama3-8b', '--set', 'device=ascend-910b', '--set', 'framework=torchtitan-npu',
  '--set', 'world_size=8', '--set', 'b=2', '--set', 's=2048', '--set', 'ac=selective',
  '--set', 'optimizer.swap_optimizer=true'];

// ---- CLI ------------------------------------------------------------------------------------

// args: ['--model', 'llama3-8b', '--set', 'tp=8', ...]
export function cli(...args) {
  return execFileSync(CLI, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
export function cliLink(args, base) {
  return cli('link', ...args, '--base', base).trim();
}
export function cliEstimate(args) {
  return JSON.parse(cli('estimate', ...args, '--json'));
}
// The estimate the CLI computes for a link's fragment (decoded by the CLI from the fragment's
// keys): fragment "v1&model=x&tp=8" → ['--model','x','--set','tp=8'].
export function fragmentToCliArgs(fragment) {
  const args = [];
  for (const part of fragment.replace(/^#/, '').split('&')) {
    if (!part || part === 'v1' || part === 'embed=1') continue;
    const eq = part.indexOf('=');
    const key = decodeURIComponent(part.slice(0, eq));
    const value = decodeURIComponent(part.slice(eq + 1));
    if (key === 'model') args.push('--model', value);
    else args.push('--set', `${key}=${value}`);
  }
  return args;
}

// ---- PNG (8-bit, non-interlaced; what chromium screenshots are) -------------------------------

export function decodePng(buffer) {
  const sig = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  if (!buffer.subarray(0, 8).equals(sig)) throw new Error('not a PNG');
  let offset = 8, width = 0, height = 0, bitDepth = 0, colorType = 0, interlace = 0;
  const idat = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    const data = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      bitDepth = data[8]; colorType = data[9]; interlace = data[12];
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      break;
    }
    offset += 12 + length;
  }
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[colorType];
  if (bitDepth !== 8 || !channels || interlace !== 0) {
    throw new Error(`unsupported PNG: depth ${bitDepth} colour type ${colorType} interlace ${interlace}`);
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : null;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[x - channels] : 0;
      const b = prev ? prev[x] : 0;
      const c = prev && x >= channels ? prev[x - channels] : 0;
      let v = line[x];
      switch (filter) {
        case 0: break;
        case 1: v += a; break;
        case 2: v += b; break;
        case 3: v += (a + b) >> 1; break;
        case 4: {
          const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
          v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: throw new Error(`bad PNG filter ${filter}`);
      }
      out[x] = v & 255;
    }
  }
  return { width, height, channels, pixels };
}

// Distinct RGB colours and the share of pixels that differ from the most common one.
export function pixelStats(png) {
  const { width, height, channels, pixels } = png;
  const counts = new Map();
  for (let i = 0; i < width * height; i++) {
    const o = i * channels;
    const key = channels >= 3 ? (pixels[o] << 16) | (pixels[o + 1] << 8) | pixels[o + 2] : pixels[o];
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  let top = 0, topKey = 0;
  for (const [k, n] of counts) if (n > top) { top = n; topKey = k; }
  return {
    width, height,
    distinctColors: counts.size,
    nonBackgroundFraction: 1 - top / (width * height),
    background: '#' + topKey.toString(16).padStart(6, '0'),
  };
}

export async function canvasStats(page, file) {
  const box = await page.locator('canvas#canvas').boundingBox();
  const png = await page.screenshot({ clip: box, ...(file ? { path: file } : {}) });
  return pixelStats(decodePng(png));
}

// ---- JSON comparison with a readable answer -------------------------------------------------

// Paths at which two parsed JSON values differ: ["per_device_bytes.total: 1 ≠ 2", …].
export function jsonDiff(a, b, at = '', out = []) {
  const kind = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(a) !== kind(b)) {
    out.push(`${at || '(root)'}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`);
  } else if (kind(a) === 'array') {
    if (a.length !== b.length) out.push(`${at}: length ${a.length} ≠ ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) jsonDiff(a[i], b[i], `${at}[${i}]`, out);
  } else if (kind(a) === 'object') {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const path = at ? `${at}.${key}` : key;
      if (!(key in a)) out.push(`${path}: missing on the left, ${JSON.stringify(b[key])} on the right`);
      else if (!(key in b)) out.push(`${path}: ${JSON.stringify(a[key])} on the left, missing on the right`);
      else jsonDiff(a[key], b[key], path, out);
    }
  } else if (a !== b) {
    out.push(`${at || '(root)'}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`);
  }
  return out;
}

// One static server and one browser for a test file, started before its first test and closed
// after its last (call at the file's top level). withPage(contextOptions, use) gives each use a
// fresh browser context, its page and that page's log, and closes the context afterwards.
export function sharedSession() {
  const shared = { srv: null, chrome: null };
  before(async () => {
    shared.srv = await startServer(SITE_DIR);
    shared.chrome = await launchBrowser();
  });
  after(async () => {
    await shared.chrome?.close();
    await shared.srv?.close();
  });
  return {
    base: () => `${shared.srv.origin}/index.html`,
    async withPage(options, use) {
      const context = await shared.chrome.browser.newContext(options);
      const page = await context.newPage();
      const log = watchPage(page);
      try {
        await use({ page, log });
      } finally {
        await context.close().catch(() => {});
      }
    },
  };
}

// The centre of what the latest frame drew for `name` (the page mirrors each widget's rect in
// <output id="explorer" data-json> .rects), waiting up to UI_WAIT for it to be drawn.
export async function rectCenter(page, name) {
  await page.waitForFunction((n) => {
    const json = document.getElementById('explorer')?.getAttribute('data-json');
    return json && JSON.parse(json).rects?.[n];
  }, name, { timeout: UI_WAIT });
  const [x, y, w, hgt] = JSON.parse(await page.getAttribute('#explorer', 'data-json')).rects[name];
  return { x: x + w / 2, y: y + hgt / 2 };
}

// Drops text files on the page's canvas as a user drags them from a file manager: files are
// [{ name, text }].
export async function dropFiles(page, files) {
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.text], f.name, { type: 'text/plain' }));
    return dt;
  }, files);
  await page.dispatchEvent('canvas', 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent('canvas', 'drop', { dataTransfer: transfer });
}
