// End-to-end tests of the built page in headless chromium (playwright-core, TOOLCHAIN.md §8).
//
//   cd tests/e2e && SITE_DIR=…/build/web-release/site CLI=…/build/native-release/trainmem \
//     node --test --test-concurrency=1 ./*.test.mjs
//
// One static server (node:http, 127.0.0.1, ephemeral port) and one chromium for the file; each
// test gets a fresh browser context (fresh localStorage). The page contract checked here
// (web/index.html, src/platform/platform_web.cpp, src/app/app_actions.cpp):
//   #status → "ready" after the first frame, window.firstFrameMs set;
//   <output id="result" data-json> = `trainmem estimate --json` for the same config (compact);
//   #summary = aria-live text; the URL fragment holds the current config;
//   #…&embed=1 = compact read-only card; broken links keep what could be read and list what
//   could not in #link-errors; the last config comes back from localStorage without a fragment.
// Screenshots go to tests/e2e/artifacts/ (git-ignored).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as h from './harness.mjs';

const VIEWPORT = { width: 1440, height: 900 };
const STORAGE_KEY = 'trainmem.last_fragment';

const SEED_ARGS = h.SEED_ARGS;  // also fixes the layout test 3's click positions were measured on

// Configs given as share links (test 2): CLI args for `trainmem link` / `trainmem estimate`
// (plus CUSTOM_NAME, added in before()).
const CONFIGS = {
  'llama3-8b defaults': ['--model', 'llama3-8b'],
  'llama3-70b on h100-80gb, ws=64 tp=8 pp=2': ['--model', 'llama3-70b', '--set', 'device=h100-80gb',
    '--set', 'ws=64', '--set', 'tp=8', '--set', 'pp=2'],
  'qwen3-30b-a3b MoE with ep=8': ['--model', 'qwen3-30b-a3b', '--set', 'ws=16', '--set', 'ep=8',
    '--set', 'b=1', '--set', 's=4096'],
  'deepseek-v3.2 template mode on ascend-910b': ['--model', 'deepseek-v3.2', '--set', 'mode=template',
    '--set', 'framework=torchtitan-npu', '--set', 'device=ascend-910b', '--set', 'ws=256', '--set', 'pp=8',
    '--set', 'ep=32'],
  'llama3.1-70b megatron tp=4 pp=4 full AC': ['--model', 'llama3.1-70b', '--set', 'framework=megatron',
    '--set', 'ws=32', '--set', 'tp=4', '--set', 'pp=4', '--set', 'ac=full', '--set', 'device=a100-80gb'],
};

// A config given as a file (`trainmem link CONFIG.json`): a custom model from HF config.json
// fields (Llama 3.2 1B cut to 12 layers), a custom device, DeepSpeed ZeRO-2.
const CUSTOM_CONFIG = {
  version: 1, framework: 'deepspeed', world_size: 16,
  model: null,  // filled from presets/models/llama3.2-1b.json in before()
  device: { name: 'Lab card', memory_gib: 48 },
  training: { local_batch_size: 4, seq_len: 4096, attention: 'sdpa' },
  parallelism: { zero_stage: 2 },
  activation_checkpoint: { mode: 'full' },
  optimizer: { state_dtype: 'bfloat16' },
};
const CUSTOM_NAME = 'custom HF model + custom device, deepspeed ZeRO-2 (CONFIG.json)';

let srv, chrome, tmpDir;
const BASE = () => `${srv.origin}/index.html`;

before(async () => {
  assert.ok(fs.existsSync(path.join(h.SITE_DIR, 'index.html')), `no built site in ${h.SITE_DIR}`);
  assert.ok(fs.existsSync(h.CLI), `no CLI at ${h.CLI}`);
  fs.mkdirSync(h.ARTIFACTS, { recursive: true });
  for (const old of fs.readdirSync(h.ARTIFACTS)) {
    if (/^failure-.*\.png$/.test(old)) fs.rmSync(path.join(h.ARTIFACTS, old));
  }
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trainmem-e2e-'));
  const preset = JSON.parse(fs.readFileSync(path.join(h.REPO, 'presets/models/llama3.2-1b.json'), 'utf8'));
  const file = path.join(tmpDir, 'custom.json');
  fs.writeFileSync(file, JSON.stringify({ ...CUSTOM_CONFIG, model: { ...preset.config, num_hidden_layers: 12 } }));
  CONFIGS[CUSTOM_NAME] = [file];
  srv = await h.startServer(h.SITE_DIR);
  chrome = await h.launchBrowser();
});

after(async () => {
  await chrome?.close();
  await srv?.close();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

// A fresh context and page with everything recorded; `use` gets {page, log, context}.
async function withPage(use, { context: given } = {}) {
  const context = given || await chrome.browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const log = h.watchPage(page);
  try {
    await use({ page, log, context });
  } catch (err) {
    const name = `failure-${Date.now()}.png`;
    await page.screenshot({ path: path.join(h.ARTIFACTS, name) }).catch(() => {});
    const state = await h.readPageState(page).catch(() => null);
    if (state?.json) state.json = `${state.json.slice(0, 120)}… (${state.json.length} chars)`;
    err.message += `\n  (page state: ${JSON.stringify(state)}; screenshot artifacts/${name})`;
    throw err;
  } finally {
    await page.close().catch(() => {});
    if (!given) await context.close().catch(() => {});
  }
}

// Console errors, page errors, cross-origin requests, failed requests: none allowed.
function assertCleanLog(log) {
  assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  assert.deepEqual(log.consoleErrors, [], 'console errors');
  assert.deepEqual(h.crossOrigin(log.requests, srv.origin), [], 'requests that left the origin');
  assert.deepEqual(log.failed, [], 'failed requests');
}

async function assertCanvasNotBlank(page, file) {
  const stats = await h.canvasStats(page, path.join(h.ARTIFACTS, file));
  assert.ok(stats.width >= 200 && stats.height >= 150, `canvas too small: ${JSON.stringify(stats)}`);
  assert.ok(stats.distinctColors >= 16, `canvas looks blank (colours): ${JSON.stringify(stats)}`);
  assert.ok(stats.nonBackgroundFraction >= 0.01, `canvas looks blank (coverage): ${JSON.stringify(stats)}`);
  return stats;
}

// The page's #result against the CLI's estimate for the same config (parsed objects).
async function assertResultMatchesCli(page, cliArgs, what) {
  const fromPage = await h.readResult(page);
  const fromCli = h.cliEstimate(cliArgs);
  const diff = h.jsonDiff(fromPage, fromCli);
  if (diff.length) {
    assert.fail(`#result data-json (left) differs from \`trainmem estimate ${cliArgs.join(' ')} --json\` (right), ${what}, ` +
      `at ${diff.length} path(s):\n    ${diff.slice(0, 15).join('\n    ')}${diff.length > 15 ? '\n    …' : ''}` +
      `\n  ${buildTimes()}`);
  }
  assert.deepEqual(fromPage, fromCli);  // belt and braces: the same comparison by node
  return fromPage;
}

// Per-test limit, so a hung page fails the run instead of stalling it.
const LIMIT = { timeout: 120_000 };

const hashOf = (url) => url.slice(url.indexOf('#'));

// The page and the CLI must come from the same sources: say when each was built, so a
// mismatch from a stale build is told apart from a real one.
function buildTimes() {
  const at = (file) => { try { return fs.statSync(file).mtime.toISOString(); } catch { return 'missing'; } };
  return `(builds: CLI ${at(h.CLI)}, site trainmem.wasm ${at(path.join(h.SITE_DIR, 'trainmem.wasm'))};` +
    ' rebuild both if they straddle a change to src/core)';
}

test('1. the page renders: ready, canvas drawn, no console errors, nothing leaves the origin', LIMIT, async () => {
  await withPage(async ({ page, log }) => {
    const started = srv.requests.length;
    const response = await page.goto(BASE());
    assert.equal(response.status(), 200);
    await h.waitReady(page);
    await h.settle(page);
    const state = await h.readPageState(page);
    assert.equal(state.status, 'ready');
    const firstFrameMs = await page.evaluate(() => window.firstFrameMs);
    assert.ok(firstFrameMs > 0 && firstFrameMs < 30000, `firstFrameMs = ${firstFrameMs}`);
    await assertCanvasNotBlank(page, '1-default.png');

    // A first visit (empty localStorage, no fragment) shows the seed example on 8 × H100 with
    // torchtitan (v1 links' defaults, so a first visit and a link agree) and writes it to the
    // fragment; the fragment reproduces the estimate through the CLI.
    assert.match(state.hash, /^#v1&/, 'the fragment holds the config');
    assert.equal(state.hash, hashOf(h.cliLink(h.FIRST_VISIT_ARGS, BASE())), 'first visit shows the seed example');
    await assertResultMatchesCli(page, h.fragmentToCliArgs(state.hash), 'first visit');
    assert.ok(state.summary && state.summary.length > 10, `#summary is empty: ${state.summary}`);
    assert.match(state.summary, /GiB/, '#summary states its unit');

    assertCleanLog(log);
    // Server side: every request this page made was for a file of the site and found.
    const mine = srv.requests.slice(started);
    assert.ok(mine.some((r) => r.url.endsWith('.wasm')), 'the wasm was fetched from this server');
    assert.deepEqual(mine.filter((r) => r.status !== 200), [], 'requests the server could not answer');
    // MIME: the wasm must have been served as application/wasm (streaming compile).
    const wasm = await page.evaluate(async () => (await fetch('trainmem.wasm', { method: 'HEAD' })).headers.get('content-type'));
    assert.equal(wasm, 'application/wasm');
  });
});

test('2. #result matches `trainmem estimate --json` for configs opened as share links', LIMIT, async () => {
  const links = {};
  for (const [name, args] of Object.entries(CONFIGS)) {
    links[name] = h.cliLink(args, BASE());
    await withPage(async ({ page, log }) => {
      await page.goto(links[name]);
      await h.waitReady(page);
      const result = await assertResultMatchesCli(page, args, name);
      // The page keeps the (canonical) link in the address bar.
      const state = await h.readPageState(page);
      assert.equal(state.hash, hashOf(links[name]), `fragment after opening the link (${name})`);
      assert.equal(result.schema, 'trainmem.estimate/v1');
      assert.match(state.summary, /GiB/);
      assertCleanLog(log);
    });
  }
  // The same links followed inside one page (hashchange, no reload).
  await withPage(async ({ page, log }) => {
    await page.goto(BASE());
    await h.waitReady(page);
    for (const [name, args] of Object.entries(CONFIGS)) {
      const before = await page.getAttribute('#result', 'data-json');
      await page.evaluate((hash) => { window.location.hash = hash; }, hashOf(links[name]));
      await page.waitForFunction((old) => document.getElementById('result').getAttribute('data-json') !== old,
        before, { timeout: h.UI_WAIT });
      await assertResultMatchesCli(page, args, `${name}, via hashchange`);
    }
    await assertCanvasNotBlank(page, '2-after-hashchanges.png');
    assertCleanLog(log);
  });
});

test('3. editing through the UI changes the fragment and the result', LIMIT, async () => {
  // Positions measured at 1440×900 on the seed example, below the import panel
  // (artifacts/3-before.png shows them):
  // the "+" of "World size" (doubles it) and the "Local batch size" text field.
  const WORLD_SIZE_PLUS = { x: 411, y: 336 };
  const BATCH_FIELD = { x: 250, y: 720 };  // below Framework and method, which sits under the device
  const link = h.cliLink(SEED_ARGS, BASE());
  await withPage(async ({ page, log }) => {
    await page.goto(link);
    await h.waitReady(page);
    await h.settle(page);
    await page.screenshot({ path: path.join(h.ARTIFACTS, '3-before.png') });
    const before = await h.readPageState(page);
    assert.match(before.hash, /&ws=8(&|$)/);

    // Mouse: hover, press, release on "+".
    await h.imguiClick(page, WORLD_SIZE_PLUS.x, WORLD_SIZE_PLUS.y);
    await page.waitForFunction((old) => window.location.hash !== old, before.hash, { timeout: h.UI_WAIT })
      .catch(() => assert.fail(`clicking World size "+" at ${JSON.stringify(WORLD_SIZE_PLUS)} did not change the fragment (layout changed?)`));
    const afterClick = await h.readPageState(page);
    assert.match(afterClick.hash, /&ws=16(&|$)/, `fragment after doubling the world size: ${afterClick.hash}`);
    assert.notEqual(afterClick.json, before.json, '#result changed');
    const clickResult = await assertResultMatchesCli(page, h.fragmentToCliArgs(afterClick.hash), 'after World size +');
    assert.equal(clickResult.config.world_size, 16);
    assert.equal(clickResult.layout.dp_shard, 16);

    // Keyboard: click into the batch-size field, select all, type a new value.
    await h.imguiClick(page, BATCH_FIELD.x, BATCH_FIELD.y);
    await page.keyboard.press('Control+A');
    await page.waitForTimeout(100);
    await page.keyboard.type('6', { delay: 50 });
    await page.waitForFunction(() => /&b=6(&|$)/.test(window.location.hash), null, { timeout: h.UI_WAIT })
      .catch(() => assert.fail(`typing 6 into Local batch size at ${JSON.stringify(BATCH_FIELD)} did not reach the fragment`));
    await page.keyboard.press('Enter');
    await h.settle(page);
    const afterType = await h.readPageState(page);
    const typedResult = await assertResultMatchesCli(page, h.fragmentToCliArgs(afterType.hash), 'after typing b=6');
    assert.equal(typedResult.config.training.local_batch_size, 6);
    assert.equal(typedResult.config.world_size, 16, 'the earlier edit is kept');
    await page.screenshot({ path: path.join(h.ARTIFACTS, '3-after.png') });

    // The edited fragment, opened as a link in a fresh context, reproduces the same result.
    const edited = afterType.hash;
    await withPage(async ({ page: other }) => {
      await other.goto(BASE() + edited);
      await h.waitReady(other);
      assert.deepEqual(await h.readResult(other), typedResult, 'the edited link reproduces the estimate');
    });
    // And localStorage holds the edited config.
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), STORAGE_KEY), edited.slice(1));
    assertCleanLog(log);
  });
});

test('4. a broken link keeps what it could read (b=4) and shows what it could not', LIMIT, async () => {
  const broken = '#v1&tp=abc&b=4&bogus=1';
  let brokenBanner;
  await withPage(async ({ page, log }) => {
    await page.goto(BASE() + broken);
    await h.waitReady(page);
    await h.settle(page);
    await assertCanvasNotBlank(page, '4-broken-link.png');
    const state = await h.readPageState(page);
    const result = JSON.parse(state.json);
    assert.equal(result.config.training.local_batch_size, 4, 'b=4 was kept');
    assert.equal(result.config.parallelism.tensor_parallel_degree, 1, 'tp=abc fell back to the default');
    // Everything else is a v1 link's defaults: the CLI's estimate for b=4 with the one default
    // that changed since v1 froze them (selective AC's option, "2" in v1 links, "op" now).
    assert.deepEqual(h.jsonDiff(result, h.cliEstimate(['--set', 'b=4', '--set', 'acopt=2'])), [],
      `#result (left) = \`trainmem estimate --set b=4 --set acopt=2 --json\` (right): v1's defaults + b=4 ${buildTimes()}`);
    // The unreadable link stays in the address bar (app_actions.cpp: replaced on the next edit).
    assert.equal(state.hash, broken);
    assert.equal(state.status, 'ready', 'a broken link is not a page failure');
    assert.equal(state.statusState, 'ready');
    assertCleanLog(log);
    // A broken link does not become the reader's stored last config.
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), STORAGE_KEY), null);
    brokenBanner = h.decodePng(await page.screenshot({ clip: { x: 0, y: 40, width: VIEWPORT.width, height: 80 } }));
  });
  // The errors are drawn on the canvas only (the DOM mirror has no error field): compare the
  // area under the header with the same config from a clean link, which has no banner.
  await withPage(async ({ page }) => {
    await page.goto(BASE() + '#v1&b=4');
    await h.waitReady(page);
    await h.settle(page);
    const clean = h.decodePng(await page.screenshot({ clip: { x: 0, y: 40, width: VIEWPORT.width, height: 80 } }));
    let differing = 0;
    for (let i = 0; i < clean.pixels.length; i += clean.channels) {
      if (clean.pixels[i] !== brokenBanner.pixels[i] || clean.pixels[i + 1] !== brokenBanner.pixels[i + 1] ||
          clean.pixels[i + 2] !== brokenBanner.pixels[i + 2]) differing++;
    }
    const fraction = differing / (clean.width * clean.height);
    assert.ok(fraction > 0.05, `no banner under the header for the broken link (${(fraction * 100).toFixed(1)} % of pixels differ)`);
  });
});

test('5. embed mode renders a card and #result still matches', LIMIT, async () => {
  const args = CONFIGS['llama3-70b on h100-80gb, ws=64 tp=8 pp=2'];
  const link = h.cliLink(args, BASE()) + '&embed=1';
  await withPage(async ({ page, log }) => {
    await page.setViewportSize({ width: 640, height: 360 });  // the snippet's iframe size
    await page.goto(link);
    await h.waitReady(page);
    await h.settle(page);
    await assertCanvasNotBlank(page, '5-embed.png');
    await assertResultMatchesCli(page, args, 'embed=1');
    const state = await h.readPageState(page);
    assert.match(state.hash, /&embed=1(&|$)/, 'the fragment keeps embed=1');
    // An embedded card must not replace the reader's own last config (app_actions.cpp).
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), STORAGE_KEY), null);
    assertCleanLog(log);
  });
  // Embed is a different view from the full page: at the same size the pictures differ.
  await withPage(async ({ page }) => {
    await page.setViewportSize({ width: 640, height: 360 });
    await page.goto(h.cliLink(args, BASE()));
    await h.waitReady(page);
    await h.settle(page);
    await assertCanvasNotBlank(page, '5-full-640x360.png');
    const full = fs.readFileSync(path.join(h.ARTIFACTS, '5-full-640x360.png'));
    const embed = fs.readFileSync(path.join(h.ARTIFACTS, '5-embed.png'));
    assert.ok(!full.equals(embed), 'embed=1 draws the same picture as the full page');
  });
});

test('6. with no fragment, the last config comes back from localStorage', LIMIT, async () => {
  const args = CONFIGS['qwen3-30b-a3b MoE with ep=8'];
  const link = h.cliLink(args, BASE());
  const context = await chrome.browser.newContext({ viewport: VIEWPORT });
  try {
    let first;
    await withPage(async ({ page, log }) => {
      await page.goto(link);
      await h.waitReady(page);
      first = await h.readPageState(page);
      assert.equal(await page.evaluate((k) => localStorage.getItem(k), STORAGE_KEY), hashOf(link).slice(1));
      assertCleanLog(log);
    }, { context });
    await withPage(async ({ page, log }) => {
      await page.goto(BASE());
      await h.waitReady(page);
      const state = await h.readPageState(page);
      assert.equal(state.hash, hashOf(link), 'the fragment came back');
      assert.equal(state.json, first.json, 'the result came back');
      await assertResultMatchesCli(page, args, 'restored from localStorage');
      await assertCanvasNotBlank(page, '6-restored.png');
      assertCleanLog(log);
    }, { context });
  } finally {
    await context.close();
  }
});

test('7. a broken link opened as an embed card says what could not be read', LIMIT, async () => {
  const shots = {};
  for (const [name, hash] of [['broken', '#v1&model=llama3-70b&embed=1&tp=abc'], ['clean', '#v1&model=llama3-70b&embed=1']]) {
    await withPage(async ({ page, log }) => {
      await page.setViewportSize({ width: 640, height: 360 });
      await page.goto(BASE() + hash);
      await h.waitReady(page);
      await h.settle(page);
      shots[name] = await page.screenshot({ path: path.join(h.ARTIFACTS, `7-embed-${name}.png`) });
      assert.equal((await h.readResult(page)).config.parallelism.tensor_parallel_degree, 1);
      assert.match(await page.textContent('#link-errors'), name === 'broken' ? /^tp: / : /^$/, '#link-errors (embed)');
      assertCleanLog(log);
    });
  }
  // The card draws a warning line for the unreadable key: the pictures differ.
  assert.ok(!shots.broken.equals(shots.clean), 'the broken embed link draws exactly what the clean one draws');
});

test('8. what a link could not read is mirrored to the DOM (for screen readers and tests)', LIMIT, async () => {
  const readErrors = (page) => page.evaluate(() => {
    const box = document.getElementById('link-errors');
    return { text: box.textContent, hidden: box.hidden, role: box.getAttribute('role'),
      count: document.getElementById('status').getAttribute('data-link-errors') };
  });
  await withPage(async ({ page, log }) => {
    await page.goto(BASE() + '#v1&tp=abc&b=4&bogus=1');
    await h.waitReady(page);
    await page.waitForFunction(() => document.getElementById('link-errors').textContent !== '', null, { timeout: h.UI_WAIT });
    const errors = await readErrors(page);
    assert.deepEqual([errors.role, errors.hidden, errors.count], ['alert', false, '2'],
      '#link-errors is a shown alert; #status data-link-errors counts the unreadable keys');
    // In the link's own words: the key as written, what it expects; no "#" anywhere.
    const lines = errors.text.split('\n');
    assert.equal(lines.length, 2, errors.text);
    assert.ok(!errors.text.includes('#'), errors.text);
    assert.match(errors.text, /^tp: .*tp expects the tensor-parallel degree/m);
    assert.match(errors.text, /^bogus: is not a key of trainmem links/m, 'the unknown key "bogus" is named');
    assert.doesNotMatch(errors.text, /parallelism|training\./, 'no config group names');
    // Following a clean link in the same page clears the mirror.
    await page.evaluate(() => { window.location.hash = '#v1&b=4'; });
    await page.waitForFunction(() => document.getElementById('link-errors').textContent === '', null, { timeout: h.UI_WAIT });
    assert.deepEqual(await readErrors(page), { text: '', hidden: true, role: 'alert', count: null });
    assertCleanLog(log);
  });
});
