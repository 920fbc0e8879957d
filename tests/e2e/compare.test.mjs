// End-to-end test of "Measured in a run" (issue #11): a training log pasted into the page's
// text area is read, its peak stands beside the estimate of the same metric in
// <output id="measured" data-json>, and the share link carries it to a teammate.
// Where the text area is drawn comes from #explorer's rects (measured_paste, measured_compare).
// Screenshots go to artifacts/11-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import * as h from './harness.mjs';

const LIMIT = { timeout: 120_000 };
let srv;
let chrome;
const BASE = () => `${srv.origin}/index.html`;

// torchtitan's step line (torchtitan/components/metrics.py): max reserved in GiB, two decimals.
// 72.82 GiB = 72.82 × 2^30 B = 78189879623.68 → 78189879624 B.
const LOG = [
  '[rank0]:[titan] 2025-06-01 10:00:20,105 - root - INFO - step:  1  loss: 12.2451  grad_norm:  4.1234  memory: 61.07GiB(77.20%)  tps: 1,024  tflops: 59.30  mfu: 6.00%',
  '[rank0]:[titan] 2025-06-01 10:00:30,105 - root - INFO - step: 10  loss:  9.4939  grad_norm: 18.2500  memory: 72.82GiB(91.97%)  tps: 55,314  tflops: 412.06  mfu: 41.66%',
].join('\n');
const PEAK_BYTES = 78189879624;

before(async () => {
  srv = await h.startServer(h.SITE_DIR);
  chrome = await h.launchBrowser();
});

after(async () => {
  await chrome?.close();
  await srv?.close();
});

async function withPage(viewport, use) {
  // Clipboard permissions let the test put the log on the real clipboard, as a user copying it
  // from a terminal would, so Ctrl+V goes through the browser's own paste event.
  const context = await chrome.browser.newContext({
    viewport, permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  const log = h.watchPage(page);
  try {
    await use({ page, log });
  } catch (err) {
    const name = `failure-compare-${Date.now()}.png`;
    await page.screenshot({ path: path.join(h.ARTIFACTS, name) }).catch(() => {});
    err.message += `\n  (measured mirror: ${await page.getAttribute('#measured', 'data-json').catch(() => '?')}; screenshot artifacts/${name})`;
    throw err;
  } finally {
    await context.close().catch(() => {});
  }
}

async function readMeasured(page) {
  const text = await page.getAttribute('#measured', 'data-json').catch(() => null);
  return JSON.parse(text || '{}');
}

// Where the latest frame drew a widget (its centre), from #explorer's rects.
const rect = h.rectCenter;

test('11. a pasted training log stands beside the estimate and travels in the link', LIMIT, async () => {
  let sharedLink;
  let estimateTotal;
  await withPage({ width: 1440, height: 900 }, async ({ page, log }) => {
    await page.goto(BASE());
    await h.waitReady(page);
    await h.settle(page);
    estimateTotal = (await h.readResult(page)).per_device_bytes.total;

    // The log on the clipboard; click into the text area and Ctrl+V: ImGui reads what the
    // page's paste listener kept (platform LastPastedText).
    await page.evaluate((text) => navigator.clipboard.writeText(text), LOG);
    // Click into the text area, Ctrl+V, click Compare — until the comparison appears, within
    // UI_WAIT. On a loaded machine a click can land before the frame that lays the area out,
    // and the paste then goes nowhere; pasting again only repeats lines with the same peak.
    const deadline = Date.now() + h.UI_WAIT;
    let compared = false;
    while (!compared && Date.now() < deadline) {
      const area = await rect(page, 'measured_paste');
      await h.imguiClick(page, area.x, area.y);
      await page.keyboard.press('Control+V');
      await h.nextFrames(page, 200);
      const button = await rect(page, 'measured_compare');  // where the latest frame drew it
      await h.imguiClick(page, button.x, button.y);
      compared = await page.waitForFunction(() => {
        const json = document.getElementById('measured')?.getAttribute('data-json');
        return json && JSON.parse(json).comparison;
      }, null, { timeout: 3000 }).then(() => true, () => false);
    }
    assert.ok(compared, `no comparison within ${h.UI_WAIT} ms of pasting the log and clicking Compare`);

    const measured = await readMeasured(page);
    assert.equal(measured.measured, true);
    assert.deepEqual(measured.errors, []);
    const first = measured.comparison.measured[0];
    assert.equal(first.metric, 'reserved');
    assert.equal(first.peak_bytes, PEAK_BYTES, 'the larger step line, in GiB × 2^30');
    assert.equal(first.estimate_bytes, estimateTotal, 'beside the estimate\'s total (max reserved)');
    assert.equal(first.rank, 0);
    assert.match(measured.comparison.sentence, /Max reserved measured/);

    // The link carries the measurement compactly.
    await page.waitForFunction(() => /&m=reserved:72\.82GiB@r0/.test(window.location.hash), null, { timeout: h.UI_WAIT })
      .catch(async () => assert.fail(`fragment without m=: ${await page.evaluate(() => window.location.hash)}`));
    sharedLink = await page.evaluate(() => window.location.href);
    await h.settle(page);
    await page.screenshot({ path: path.join(h.ARTIFACTS, '11-measured-1440.png') });
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
    assert.deepEqual(log.consoleErrors, [], 'console errors');
  });

  // A teammate opens the link on a phone-sized screen: the same measured figure, no paste.
  await withPage({ width: 390, height: 844 }, async ({ page, log }) => {
    await page.goto(sharedLink);
    await h.waitReady(page);
    await page.waitForFunction(() => {
      const json = document.getElementById('measured')?.getAttribute('data-json');
      return json && JSON.parse(json).comparison;
    }, null, { timeout: h.UI_WAIT });
    const measured = await readMeasured(page);
    const first = measured.comparison.measured[0];
    assert.equal(first.metric, 'reserved');
    assert.equal(first.peak_bytes, PEAK_BYTES, 'the link keeps the figure to the byte (3 decimals of GiB)');
    assert.equal(first.estimate_bytes, estimateTotal);
    await h.settle(page);
    await page.screenshot({ path: path.join(h.ARTIFACTS, '11-measured-390.png') });
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});

// The measurement belongs to the config it was taken with. An edit after it greys the ratios,
// names the change, and links leave m= out; "Back to the measured config" brings both back.
test('11. a measurement stays with its config: an edit names the change and drops it from links', LIMIT, async () => {
  await withPage({ width: 1440, height: 900 }, async ({ page, log }) => {
    await page.goto(`${BASE()}#v1&model=llama3-8b&ws=8&b=2&m=reserved:38.52GiB@r0`);
    await h.waitReady(page);
    await page.waitForFunction(() => {
      const json = document.getElementById('measured')?.getAttribute('data-json');
      return json && JSON.parse(json).comparison;
    }, null, { timeout: h.UI_WAIT });
    assert.deepEqual((await readMeasured(page)).config_changes, []);
    // World size "+" (as shell.test.mjs finds it): 8 → 16.
    const rects = JSON.parse(await page.getAttribute('#explorer', 'data-json')).rects;
    const shift = rects.import_end && rects.inputs_top ? rects.import_end[1] - rects.inputs_top[1] : 0;
    await h.imguiClick(page, 411, 220 + shift);
    await page.waitForFunction(() => /(^|&)ws=16(&|$)/.test(location.hash), null, { timeout: h.UI_WAIT })
      .catch(async () => assert.fail(`the world size did not change: ${await page.evaluate(() => location.hash)}`));
    await page.waitForFunction(() => {
      const json = document.getElementById('measured')?.getAttribute('data-json');
      return json && JSON.parse(json).config_changes.length > 0;
    }, null, { timeout: h.UI_WAIT });
    assert.deepEqual((await readMeasured(page)).config_changes, ['ws 8 → 16']);
    assert.doesNotMatch(await page.evaluate(() => location.hash), /&m=/, 'a link of another config carries the measurement');
    await h.settle(page);
    await page.screenshot({ path: path.join(h.ARTIFACTS, '11-measured-config-changed.png') });
    const back = await rect(page, 'measured_restore');
    await h.imguiClick(page, back.x, back.y);
    await page.waitForFunction(() => /(^|&)ws=8&.*m=reserved/.test(location.hash), null, { timeout: h.UI_WAIT })
      .catch(async () => assert.fail(`not back to the measured config: ${await page.evaluate(() => location.hash)}`));
    assert.deepEqual((await readMeasured(page)).config_changes, []);
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});

test('11. a link whose m= cannot be read says so and keeps the estimate', LIMIT, async () => {
  await withPage({ width: 1440, height: 900 }, async ({ page }) => {
    // The item that could not be read is named; the estimate is shown as usual.
    await page.goto(`${BASE()}#v1&model=llama3-8b&ws=8&b=2&m=reserved:nanGiB`);
    await h.waitReady(page);
    await page.waitForFunction(() => {
      const json = document.getElementById('measured')?.getAttribute('data-json');
      return json && JSON.parse(json).errors?.length > 0;
    }, null, { timeout: h.UI_WAIT });
    const measured = await readMeasured(page);
    assert.equal(measured.measured, false);
    assert.match(measured.errors[0], /reserved:nanGiB/);
  });
});

// Space, PageDown and the arrows type into a text field; the document must not scroll under it
// (the browser scrolls on those keys unless the page holds still while a field has the keyboard).
test('11. typing into the measured-log box does not scroll the page', LIMIT, async () => {
  await withPage({ width: 1440, height: 900 }, async ({ page, log }) => {
    await page.goto(BASE());
    await h.waitReady(page);
    await h.settle(page);
    const before = await page.evaluate(() => window.scrollY);
    const deadline = Date.now() + h.UI_WAIT;
    let typing = false;
    while (!typing && Date.now() < deadline) {
      const area = await rect(page, 'measured_paste');
      await h.imguiClick(page, area.x, area.y);
      await h.nextFrames(page, 100);
      typing = await page.evaluate(() => window.tmTextInputActive === true);
    }
    assert.ok(typing, 'the measured-log box did not take the keyboard');
    await page.keyboard.type('step 10 memory 61 GiB');
    await page.keyboard.press('PageDown');
    await page.keyboard.press('ArrowDown');
    await h.nextFrames(page, 200);
    assert.equal(await page.evaluate(() => window.scrollY), before, 'the page scrolled while typing');
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});
