// The page's words in a real browser (issue 10 §3, 6, 7, 8, 10): the language follows the
// browser and the link, the CJK font is fetched only when Chinese is shown, a broken link shows
// no verdict as if it were the reader's, the advice says how many devices would fit, and the
// embed card keeps what was estimated and its link inside 400 × 300 and 640 × 360 frames,
// light and dark.
//
//   cd tests/e2e && node --test --test-concurrency=1 ./words.test.mjs
//
// Screenshots go to tests/e2e/artifacts/words-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const LIMIT = { timeout: 120_000 };
const CJK_FONT = '/fonts/cjk-ui.ttf';

let srv;
let chrome;

before(async () => {
  fs.mkdirSync(h.ARTIFACTS, { recursive: true });
  srv = await h.startServer(h.SITE_DIR);
  chrome = await h.launchBrowser();
});

after(async () => {
  await chrome?.close();
  await srv?.close();
});

async function withPage(options, use) {
  const context = await chrome.browser.newContext({ viewport: { width: 1440, height: 900 }, ...options });
  const page = await context.newPage();
  const log = h.watchPage(page);
  try {
    await use({ page, log });
  } finally {
    await context.close().catch(() => {});
  }
}

function assertClean(log) {
  assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  assert.deepEqual(log.consoleErrors, [], 'console errors');
  assert.deepEqual(log.failed, [], 'failed requests');
}

const fontRequests = (log) => log.requests.filter((u) => new URL(u).pathname === CJK_FONT);

// Waits until the page shows Chinese: <html lang> is set once the glyphs are in.
async function waitChinese(page) {
  await page.waitForFunction(() => document.documentElement.getAttribute('lang') === 'zh-CN', null,
    { timeout: h.UI_WAIT });
  await h.settle(page, 500);
}

test('an English browser gets English and never fetches the CJK font', LIMIT, async () => {
  await withPage({ locale: 'en-US' }, async ({ page, log }) => {
    await page.goto(srv.origin + '/index.html');
    await h.waitReady(page);
    await h.settle(page, 800);
    await page.screenshot({ path: path.join(h.ARTIFACTS, 'words-desktop-1440x900.png') });
    const state = await h.readPageState(page);
    assert.match(state.summary, /usable/);
    assert.doesNotMatch(state.hash, /lang=/, 'an English page leaves lang out of the link');
    assert.deepEqual(fontRequests(log), [], 'the CJK font was fetched for an English page');
    assertClean(log);
  });
});

test('a zh-CN browser gets a Chinese page; the CJK font is fetched then, once', LIMIT, async () => {
  await withPage({ locale: 'zh-CN' }, async ({ page, log }) => {
    await page.goto(srv.origin + '/index.html');
    await h.waitReady(page);
    await waitChinese(page);
    await page.screenshot({ path: path.join(h.ARTIFACTS, 'words-zh-CN-1440x900.png') });
    const state = await h.readPageState(page);
    assert.match(await page.title(), /在 .* 上/, 'the title is Chinese');
    assert.match(state.summary, /可用/, `the summary is Chinese: ${state.summary}`);
    // The results as text (under the canvas, for readers and search) speak the page's language,
    // the core's warnings included.
    const text = await page.textContent('#results-text');
    assert.doesNotMatch(text, /caching allocator|budget margin/, `a warning left in English: ${text}`);
    assert.match(text, /提示/, text);
    // Chinese from the browser is the reader's own: a link they share leaves it out, so each
    // recipient's browser decides (the switch, or a link's lang=, writes it).
    assert.doesNotMatch(state.hash, /lang=/, 'the browser language is not written into links');
    assert.equal(fontRequests(log).length, 1, 'the CJK font is fetched exactly once');
    assertClean(log);
  });
});

test('a phone (390×844) and a Chinese phone: the verdict and its GiB read on the first screen', LIMIT, async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    await withPage({ locale, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
      async ({ page, log }) => {
        await page.goto(srv.origin + '/index.html');
        await h.waitReady(page);
        if (locale === 'zh-CN') await waitChinese(page); else await h.settle(page, 800);
        await page.screenshot({ path: path.join(h.ARTIFACTS, `words-phone-390x844-${locale}.png`) });
        assert.match((await h.readPageState(page)).summary, /GiB/);
        assertClean(log);
      });
  }
});

test('lang=zh in a link shows Chinese in an English browser; lang=en the other way', LIMIT, async () => {
  await withPage({ locale: 'en-US' }, async ({ page, log }) => {
    await page.goto(srv.origin + '/index.html#v1&model=llama3-70b&ws=16&lang=zh');
    await h.waitReady(page);
    await waitChinese(page);
    assert.match((await h.readPageState(page)).summary, /可用/);
    assert.equal(fontRequests(log).length, 1);
    assertClean(log);
  });
  await withPage({ locale: 'zh-CN' }, async ({ page, log }) => {
    await page.goto(srv.origin + '/index.html#v1&model=llama3-70b&ws=16&lang=en');
    await h.waitReady(page);
    await h.settle(page, 800);
    assert.match((await h.readPageState(page)).summary, /usable/);
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute('lang')), 'en');
    assertClean(log);
  });
});

test('a link that cannot be read in full shows no verdict as the reader\'s', LIMIT, async () => {
  await withPage({ locale: 'en-US' }, async ({ page, log }) => {
    // An unknown model: the page falls back to the default model, which the reader never chose.
    await page.goto(srv.origin + '/index.html#v1&model=llama9-1t&ws=8&tp=3');
    await h.waitReady(page);
    await h.settle(page, 800);
    await page.screenshot({ path: path.join(h.ARTIFACTS, 'words-broken-link.png') });
    const state = await h.readPageState(page);
    assert.match(state.summary, /could not be read in full; no verdict/, state.summary);
    assert.doesNotMatch(state.summary, /does not fit|: fits/, state.summary);
    const errors = await page.textContent('#link-errors');
    assert.match(errors, /^model: unknown model preset 'llama9-1t'/m, errors);
    assert.match(errors, /^tp: 3 was not applied/m, errors);
    assert.ok(!errors.includes('#'), errors);
    // One edit makes it the reader's own: the verdict comes back.
    await page.evaluate(() => { window.location.hash = '#v1&model=llama3-70b&ws=8'; });
    await page.waitForFunction(() => !/no verdict/.test(document.getElementById('summary').textContent),
      null, { timeout: h.UI_WAIT });
    assertClean(log);
  });
});

test('nothing fits: the advice says how many devices would', LIMIT, async () => {
  await withPage({ locale: 'en-US' }, async ({ page, log }) => {
    await page.goto(srv.origin + '/index.html#v1&model=deepseek-v3&ws=8');
    await h.waitReady(page);
    await h.settle(page, 800);
    await page.screenshot({ path: path.join(h.ARTIFACTS, 'words-deepseek-8-devices.png') });
    const result = await h.readResult(page);
    assert.equal(result.budget.fits, false);
    assert.ok(result.recommendations.every((r) => !r.fits), 'no single step fits on 8 devices');
    // By hand (advise_test.cpp): ≥ 133 devices for fp32 masters, grads and AdamW states alone.
    assert.ok(result.devices_needed >= 256, `devices_needed = ${result.devices_needed}`);
    // Only lowering steps, and none names a raw config key.
    let previous = result.per_device_bytes?.total ?? Infinity;
    for (const r of result.recommendations) {
      assert.ok(r.total_bytes < previous, `${r.action} does not lower the total`);
      previous = r.total_bytes;
      assert.doesNotMatch(r.action, /parallelism\.|_degree|= -1/, r.action);
    }
    assertClean(log);
  });
});

// The card at the two sizes a wiki gives it, light and dark: what was estimated is on it, and
// its "Open in trainmem" link (mirrored in #explorer) lies inside the frame.
for (const [width, height] of [[400, 300], [640, 360]]) {
  for (const scheme of ['light', 'dark']) {
    test(`embed card at ${width}×${height}, ${scheme}`, LIMIT, async () => {
      await withPage({ locale: 'en-US', viewport: { width, height }, colorScheme: scheme }, async ({ page, log }) => {
        await page.goto(srv.origin + '/index.html#v1&model=llama3-70b&ws=16&tp=8&b=2&s=4096&ac=full&embed=1');
        await h.waitReady(page);
        await h.settle(page, 800);
        await page.screenshot({ path: path.join(h.ARTIFACTS, `words-embed-${width}x${height}-${scheme}.png`) });
        const mirror = JSON.parse(await page.getAttribute('#explorer', 'data-json'));
        const link = mirror.rects?.embed_open_link;
        assert.ok(link, `no embed_open_link rect: ${JSON.stringify(mirror)}`);
        const [x, y, w, hgt] = link;
        assert.ok(x >= 0 && y >= 0 && x + w <= width && y + hgt <= height,
          `"Open in trainmem" at ${link} falls outside ${width}×${height}`);
        const verdict = mirror.rects.embed_verdict;
        assert.ok(verdict[0] + verdict[2] <= width, 'the verdict pill fits the width');
        assertClean(log);
      });
    });
  }
}

const rectOf = h.rectCenter;

async function clickAndReadClipboard(page, name) {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  const at = await rectOf(page, name);
  await h.imguiClick(page, at.x, at.y);
  await page.waitForFunction(async () => (await navigator.clipboard.readText()) !== '', null, { timeout: h.UI_WAIT });
  return page.evaluate(() => navigator.clipboard.readText());
}

test('the embed snippet has a title; the Markdown export says what was estimated and links back', LIMIT, async () => {
  await withPage({ locale: 'en-US' }, async ({ page, log }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.origin });
    await page.goto(srv.origin + '/index.html#v1&model=llama3-70b&ws=16&tp=8');
    await h.waitReady(page);
    await h.settle(page, 500);
    const snippet = await clickAndReadClipboard(page, 'copy_embed');
    assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/index\.html#v1&model=llama3-70b&ws=16&tp=8&embed=1" title="trainmem estimate: Llama 3 70B on 16 × NVIDIA H100 80GB \(SXM, HBM3\) · torchtitan · FSDP 2 · TP 8 · batch 8 × 2048 tokens · selective checkpointing \(1 block in 2\)"/, snippet);
    const at = await rectOf(page, 'export');
    await h.imguiClick(page, at.x, at.y);
    const markdown = await clickAndReadClipboard(page, 'export_markdown_copy');
    assert.match(markdown, /^\*\*Llama 3 70B on 16 × NVIDIA H100/, markdown);
    assert.match(markdown, /\[Open in trainmem ↗\]\(http:\/\/127\.0\.0\.1:\d+\/index\.html#v1&model=llama3-70b&ws=16&tp=8\)/, markdown);
    assertClean(log);
  });
});

test('the language switch shows Chinese and fetches the font then', LIMIT, async () => {
  await withPage({ locale: 'en-US' }, async ({ page, log }) => {
    await page.goto(srv.origin + '/index.html');
    await h.waitReady(page);
    await h.settle(page, 500);
    assert.deepEqual(fontRequests(log), []);
    const at = await rectOf(page, 'language_switch');
    await h.imguiClick(page, at.x, at.y);
    await waitChinese(page);
    assert.equal(fontRequests(log).length, 1);
    assert.match((await h.readPageState(page)).hash, /&lang=zh(&|$)/);
    assertClean(log);
  });
});
