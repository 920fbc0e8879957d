// End-to-end test of the explorer (issue #5): the Memory map and Layouts tabs beside the
// estimate, in headless chromium (run with app.test.mjs, same command and environment).
//
// Where things are drawn comes from <output id="explorer" data-json> (src/app/app_explorer.cpp):
// the view, whether each result is current, timings, and the CSS-pixel rectangles of the tabs,
// the heatmap plot and the first table row. Screenshots go to artifacts/9-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import * as h from './harness.mjs';

const VIEWPORT = { width: 1440, height: 900 };
const LIMIT = { timeout: 120_000 };
let srv;
let chrome;
const BASE = () => `${srv.origin}/index.html`;

before(async () => {
  srv = await h.startServer(h.SITE_DIR);
  chrome = await h.launchBrowser();
});

after(async () => {
  await chrome?.close();
  await srv?.close();
});

async function withPage(use) {
  const context = await chrome.browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const log = h.watchPage(page);
  try {
    await use({ page, log });
  } catch (err) {
    const name = `failure-explorer-${Date.now()}.png`;
    await page.screenshot({ path: path.join(h.ARTIFACTS, name) }).catch(() => {});
    err.message += `\n  (explorer mirror: ${await page.getAttribute('#explorer', 'data-json').catch(() => '?')}; screenshot artifacts/${name})`;
    throw err;
  } finally {
    await context.close().catch(() => {});
  }
}

function assertCleanLog(log) {
  assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  assert.deepEqual(log.consoleErrors, [], 'console errors');
  assert.deepEqual(log.failed, [], 'failed requests');
}

// The page's #result against `trainmem estimate --json` for the same config.
async function assertResultMatchesCli(page, cliArgs, what) {
  const fromPage = await h.readResult(page);
  const diff = h.jsonDiff(fromPage, h.cliEstimate(cliArgs));
  assert.deepEqual(diff, [], `#result (left) vs \`trainmem estimate ${cliArgs.join(' ')} --json\` (right), ${what}`);
  return fromPage;
}

async function readExplorer(page) {
  return JSON.parse((await page.getAttribute('#explorer', 'data-json')) || '{}');
}

// Polls from node: the page's CSP forbids evaluating a predicate built from text in the page.
async function waitExplorer(page, predicate, what, timeout = 10000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const mirror = await readExplorer(page);
    if (predicate(mirror)) return mirror;
    if (Date.now() > deadline) assert.fail(`explorer: ${what} (mirror: ${JSON.stringify(mirror)})`);
    await page.waitForTimeout(100);
  }
}

const centerOf = ([x, y, width, height]) => ({ x: x + width / 2, y: y + height / 2 });

test('the explorer: the memory map renders and a cell click applies; a layout row applies', LIMIT, async () => {
  await withPage(async ({ page, log }) => {
    await page.goto(h.cliLink(h.SEED_ARGS, BASE()));
    await h.waitReady(page);
    await h.settle(page);
    let mirror = await readExplorer(page);
    assert.equal(mirror.view, 'estimate', 'the estimate is the first view');
    assert.equal(mirror.heatmap, undefined, 'nothing is computed before the explorer is opened');
    assert.equal(mirror.layouts, undefined);

    // Memory map: open it, wait for the shader's picture, sample one pixel per cell.
    let tab = centerOf(mirror.rects.tab_memory_map);
    await h.imguiClick(page, tab.x, tab.y);
    mirror = await waitExplorer(page, (m) => m.view === 'memory_map' && m.heatmap?.current && m.heatmap?.rendered && m.rects.plot,
      'the memory map did not render');
    await h.settle(page);
    const { x_values: xs, y_values: ys } = mirror.heatmap;
    assert.deepEqual([mirror.heatmap.x, mirror.heatmap.y], ['b', 's']);
    const [px, py, pw, ph] = mirror.rects.plot;
    const cellCenter = (i, j) => ({ x: px + (i + 0.5) * pw / xs.length, y: py + ph - (j + 0.5) * ph / ys.length });
    const png = h.decodePng(await page.screenshot({ path: path.join(h.ARTIFACTS, '9-memory-map.png') }));
    const colours = new Set();
    for (let i = 0; i < xs.length; i++) {
      for (let j = 0; j < ys.length; j++) {
        // A quarter cell off centre: the centre holds the cell's number.
        const at = cellCenter(i, j);
        const o = (Math.round(at.y - ph / ys.length / 4) * png.width + Math.round(at.x - pw / xs.length / 4)) * png.channels;
        colours.add(`${png.pixels[o]},${png.pixels[o + 1]},${png.pixels[o + 2]}`);
      }
    }
    assert.ok(colours.size >= 10, `the heatmap cells show ${colours.size} distinct colours`);

    // Click the cell b=4, s=1024 (neither is a default, so both appear in the fragment).
    const before = await h.readPageState(page);
    const cell = cellCenter(xs.indexOf(4), ys.indexOf(1024));
    await h.imguiClick(page, cell.x, cell.y);
    await page.waitForFunction(() => /&b=4(&|$)/.test(location.hash) && /&s=1024(&|$)/.test(location.hash), null, { timeout: h.UI_WAIT })
      .catch(() => assert.fail('clicking the heatmap cell b=4, s=1024 did not reach the fragment'));
    await h.settle(page);
    const afterCell = await h.readPageState(page);
    assert.notEqual(afterCell.json, before.json, '#result changed');
    const cellResult = await assertResultMatchesCli(page, h.fragmentToCliArgs(afterCell.hash), 'after the heatmap click');
    assert.equal(cellResult.config.training.local_batch_size, 4);
    assert.equal(cellResult.config.training.seq_len, 1024);

    // Layouts: open the tab, click the first row (rank 1 = the search's cheapest layout).
    tab = centerOf(mirror.rects.tab_layouts);
    await h.imguiClick(page, tab.x, tab.y);
    mirror = await waitExplorer(page, (m) => m.view === 'layouts' && m.layouts?.current && m.rects.first_row,
      'the layout table did not appear');
    assert.ok(mirror.layouts.rows > 0 && mirror.layouts.valid >= mirror.layouts.rows, JSON.stringify(mirror.layouts));
    await page.screenshot({ path: path.join(h.ARTIFACTS, '9-layouts.png') });
    const search = JSON.parse(h.cli('search', ...h.fragmentToCliArgs(afterCell.hash), '--json', '--limit', '100'));
    assert.equal(search.layouts.length, mirror.layouts.rows, 'the page lists what `trainmem search --limit 100` finds');
    const row = centerOf(mirror.rects.first_row);
    await h.imguiClick(page, row.x, row.y);
    await page.waitForFunction((old) => location.hash !== old, afterCell.hash, { timeout: h.UI_WAIT })
      .catch(() => assert.fail('clicking the first layout row did not change the fragment'));
    await h.settle(page);
    const afterRow = await h.readPageState(page);
    const rowResult = await assertResultMatchesCli(page, h.fragmentToCliArgs(afterRow.hash), 'after the layout click');
    assert.deepEqual(rowResult.config, search.layouts[0].config, 'the page now holds the first layout of the search');
    assertCleanLog(log);
  });
});
