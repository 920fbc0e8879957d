// End-to-end tests of the page shell (issue #10): wheel and touch scrolling, the one-column
// phone layout, the on-screen keyboard for number fields, browser history and Ctrl+Z, Tab
// through every control, dark mode, the results as text, and a first visit's requests.
//
//   cd tests/e2e && SITE_DIR=…/build/web-release/site node --test shell.test.mjs
//
// Positions come from the page itself where it can say them: <output id="explorer" data-json>
// carries CSS-pixel rectangles the app records each frame ("verdict", "inputs_top",
// "inputs_end", "nav_focus"). Screenshots go to tests/e2e/artifacts/shell-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const LIMIT = { timeout: 120_000 };
// Measured at 1440×900 on the first-visit page (artifacts/shell-desktop-1440x900.png): the
// "+" of World size (doubles it), as in app.test.mjs test 3. The y positions below are measured
// without the import panel at the top of the inputs; importShift() adds its height.
const WORLD_SIZE_PLUS = { x: 411, y: 220 };
const WORLD_SIZE_PHONE = { x: 230, dy: 175 };

let srv, chrome;
const BASE = () => `${srv.origin}/index.html`;

before(async () => {
  assert.ok(fs.existsSync(path.join(h.SITE_DIR, 'index.html')), `no built site in ${h.SITE_DIR}`);
  fs.mkdirSync(h.ARTIFACTS, { recursive: true });
  srv = await h.startServer(h.SITE_DIR);
  chrome = await h.launchBrowser();
});

after(async () => {
  await chrome?.close();
  await srv?.close();
});

async function withPage(options, use) {
  const context = await chrome.browser.newContext(options);
  const page = await context.newPage();
  const log = h.watchPage(page);
  try {
    await use({ page, log, context });
  } catch (err) {
    const name = `failure-shell-${Date.now()}.png`;
    await page.screenshot({ path: path.join(h.ARTIFACTS, name) }).catch(() => {});
    err.message += `\n  (screenshot artifacts/${name})`;
    throw err;
  } finally {
    await context.close().catch(() => {});
  }
}

// The rectangles the page recorded in its last frame.
async function rects(page) {
  const text = await page.getAttribute('#explorer', 'data-json');
  return text ? JSON.parse(text).rects || {} : {};
}

// How far the import panel pushes the other inputs down (the rects "import_end" − "inputs_top").
async function importShift(page) {
  const r = await rects(page);
  return r.import_end && r.inputs_top ? r.import_end[1] - r.inputs_top[1] : 0;
}

// Waits until rectangle `name` differs from `old` (by y), then returns it.
async function rectAfterChange(page, name, old, timeout = 5000) {
  await page.waitForFunction(([n, y]) => {
    const t = document.getElementById('explorer').getAttribute('data-json');
    const r = t && JSON.parse(t).rects[n];
    return r && Math.abs(r[1] - y) > 0.5;
  }, [name, old[1]], { timeout }).catch(() => {});
  return (await rects(page))[name];
}

async function open(page, hash = '') {
  await page.goto(BASE() + hash);
  await h.waitReady(page);
  await h.settle(page);
}

function assertClean(log) {
  assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  assert.deepEqual(log.consoleErrors, [], 'console errors');
  assert.deepEqual(log.failed, [], 'failed requests');
}

test('wheel: down moves the inputs up by the wheel distance, up brings them back', LIMIT, async () => {
  await withPage({ viewport: DESKTOP }, async ({ page, log }) => {
    await open(page);
    const top0 = (await rects(page)).inputs_top;
    assert.ok(top0, 'the page records where the inputs start');
    await page.mouse.move(200, 500);  // over the inputs column
    await h.nextFrames(page);
    await page.mouse.wheel(0, 300);   // Chromium: deltaMode 0, 300 CSS px towards the end
    const top1 = await rectAfterChange(page, 'inputs_top', top0);
    assert.ok(top1[1] < top0[1], `wheel down: the inputs moved up (${top0[1]} → ${top1[1]})`);
    // Natural and in pixels: 300 px of wheel scroll 300 px of content (unless the end is nearer).
    const end = (await rects(page)).inputs_end;
    assert.ok(Math.abs(top0[1] - top1[1] - 300) <= 2 || end[1] < DESKTOP.height,
      `moved ${top0[1] - top1[1]} px for 300 px of wheel`);
    // A small step up is a small step, not a jump to either end.
    await page.mouse.wheel(0, -10);
    const top2 = await rectAfterChange(page, 'inputs_top', top1);
    assert.ok(Math.abs(top2[1] - top1[1] - 10) <= 1.5, `wheel up 10 px moved ${top2[1] - top1[1]} px`);
    await page.mouse.wheel(0, -2000);
    const back = await rectAfterChange(page, 'inputs_top', top2);
    assert.equal(back[1], top0[1], 'wheel up all the way: back at the start');
    // A wheel that counts in lines (deltaMode 1, e.g. Firefox): 3 lines = 60 CSS px.
    await page.evaluate(() => {
      const canvas = document.getElementById('canvas');
      canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: 3, deltaMode: 1, clientX: 200, clientY: 500,
        bubbles: true, cancelable: true }));
    });
    const lines = await rectAfterChange(page, 'inputs_top', back);
    assert.ok(Math.abs(back[1] - lines[1] - 60) <= 1.5, `3 wheel lines moved ${back[1] - lines[1]} px`);
    assertClean(log);
  });
});

// A one-finger swipe from (x, y0) to (x, y1) as real TouchEvents on the canvas, `steps` moves
// `stepMs` apart, the finger lifted right after the last move (a flick) — dispatched inside the
// page so a busy test machine cannot stretch the gap before the lift.
async function swipe(page, x, y0, y1, steps = 8, stepMs = 16) {
  await page.evaluate(async ([x, y0, y1, steps, stepMs]) => {
    const canvas = document.getElementById('canvas');
    const touchAt = (y) => new Touch({ identifier: 7, target: canvas, clientX: x, clientY: y });
    const send = (type, y) => {
      const t = touchAt(y);
      canvas.dispatchEvent(new TouchEvent(type, { touches: type === 'touchend' ? [] : [t], changedTouches: [t],
        bubbles: true, cancelable: true }));
    };
    send('touchstart', y0);
    for (let i = 1; i <= steps; i++) {
      await new Promise((resolve) => setTimeout(resolve, stepMs));
      send('touchmove', y0 + (y1 - y0) * i / steps);
    }
    send('touchend', y1);
  }, [x, y0, y1, steps, stepMs]);
}

test('touch: a swipe up scrolls the page, keeps gliding after the finger lifts, and back', LIMIT, async () => {
  await withPage({ viewport: PHONE, hasTouch: true }, async ({ page, log }) => {
    await open(page);
    const v0 = (await rects(page)).verdict;
    const hash0 = (await h.readPageState(page)).hash;
    await swipe(page, 200, 600, 300);  // 300 px up in about 130 ms: a flick
    await h.nextFrames(page, 0);
    const v1 = (await rects(page)).verdict;
    assert.ok(v1[1] <= v0[1] - 250, `the swipe moved the page up (${v0[1]} → ${v1[1]})`);
    await page.waitForTimeout(600);
    const v2 = (await rects(page)).verdict;
    assert.ok(v2[1] < v1[1] - 5, `momentum: it kept moving after the finger lifted (${v1[1]} → ${v2[1]})`);
    // A slow drag back down, twice as far: the page returns to its top.
    await swipe(page, 200, 150, 750, 20, 40);
    await page.waitForTimeout(800);
    await swipe(page, 200, 150, 750, 20, 40);
    await page.waitForTimeout(600);
    const v3 = (await rects(page)).verdict;
    assert.equal(v3[1], v0[1], 'swiping down brings the verdict back');
    // A swipe does not click what it started on: the config is unchanged.
    assert.equal((await h.readPageState(page)).hash, hash0);
    assertClean(log);
  });
});

test('phone 390×844: one column, the verdict with its GiB on the first screen', LIMIT, async () => {
  await withPage({ viewport: PHONE, hasTouch: true }, async ({ page, log }) => {
    await open(page);
    const shot = path.join(h.ARTIFACTS, 'shell-phone-390x844.png');
    await page.screenshot({ path: shot });
    const verdict = (await rects(page)).verdict;
    assert.ok(verdict, 'the verdict card was drawn');
    const [x, y, w, hgt] = verdict;
    assert.ok(y >= 0 && y + hgt <= PHONE.height, `verdict card within the first screen: ${verdict}`);
    assert.ok(w >= PHONE.width * 0.8, `verdict card spans the width (one column): ${w} px`);
    // Its text is there in the DOM (the text results) and drawn on the canvas (pixels).
    const text = await page.textContent('#results-text p.verdict');
    assert.match(text, /\d+(\.\d+)? GiB/, `the verdict line states GiB: ${text}`);
    const png = h.decodePng(fs.readFileSync(shot));
    const clip = { x: Math.round(x), y: Math.round(y), w: Math.round(w), h: Math.round(hgt) };
    let ink = 0;
    for (let yy = clip.y; yy < clip.y + clip.h; yy++) {
      for (let xx = clip.x; xx < clip.x + clip.w; xx++) {
        const o = (yy * png.width + xx) * png.channels;
        if (png.pixels[o] + png.pixels[o + 1] + png.pixels[o + 2] < 3 * 128) ink++;
      }
    }
    assert.ok(ink / (clip.w * clip.h) > 0.02, `the verdict card has dark text drawn in it (${ink} px)`);
    // The header buttons do not cover the title: the header fits the width.
    const inputsTop = (await rects(page)).inputs_top;
    assert.ok(inputsTop[1] > y + hgt, 'the inputs come after the verdict (answer first)');
    assertClean(log);
  });
});

test('phone: tapping a number field focuses a decimal keyboard field; typing edits the config', LIMIT, async () => {
  await withPage({ viewport: PHONE, hasTouch: true }, async ({ page, log }) => {
    await open(page);
    const verdict = (await rects(page)).verdict;
    // The World size field, measured on artifacts/shell-phone-390x844.png: 175 px below where
    // the inputs start, in the value column.
    const top = (await rects(page)).inputs_top[1] + await importShift(page);
    await page.touchscreen.tap(WORLD_SIZE_PHONE.x, top + WORLD_SIZE_PHONE.dy);
    await page.waitForFunction(() => document.activeElement?.id === 'keyboard-proxy', null, { timeout: h.UI_WAIT });
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('inputmode')), 'decimal');
    const before = (await h.readPageState(page)).hash;
    // The tap activates the field at the next frames (Dear ImGui selects its text then): the
    // keys a user types after seeing the keyboard come after that, so wait for those frames.
    // Dear ImGui 1.86 sees a key only while it is down at a frame: a person's keystroke lasts
    // tens of milliseconds, Playwright's press none unless told (it raced the frame: the End
    // was lost and the 0 replaced the selected 8).
    await h.nextFrames(page, 100);
    await page.keyboard.press('End', { delay: 80 });
    await page.keyboard.insertText('0');  // 8 → 80
    await page.waitForFunction((old) => window.location.hash !== old, before, { timeout: h.UI_WAIT });
    assert.match((await h.readPageState(page)).hash, /&ws=80(&|$)/);
    assert.ok(verdict);
    assertClean(log);
  });
});

test('history: an edit is a history entry; Back, Forward, Ctrl+Z and Ctrl+Shift+Z walk it', LIMIT, async () => {
  await withPage({ viewport: DESKTOP }, async ({ page, log }) => {
    await open(page);
    const first = await h.readPageState(page);
    assert.match(first.hash, /&ws=8(&|$)/);
    const length0 = await page.evaluate(() => history.length);
    await h.imguiClick(page, WORLD_SIZE_PLUS.x, WORLD_SIZE_PLUS.y + await importShift(page));
    await page.waitForFunction(() => /&ws=16(&|$)/.test(location.hash), null, { timeout: h.UI_WAIT });
    assert.equal(await page.evaluate(() => history.length), length0 + 1, 'the edit made one new entry');
    const ws = async () => (await h.readResult(page)).config.world_size;
    assert.equal(await ws(), 16);

    await page.goBack();
    await page.waitForFunction(() => /&ws=8(&|$)/.test(location.hash), null, { timeout: h.UI_WAIT });
    await page.waitForFunction(() => JSON.parse(document.getElementById('result').getAttribute('data-json')).config.world_size === 8);
    assert.equal((await h.readPageState(page)).json, first.json, 'Back restores the config and its estimate');
    await page.goForward();
    await page.waitForFunction(() => /&ws=16(&|$)/.test(location.hash), null, { timeout: h.UI_WAIT });
    await page.waitForFunction(() => JSON.parse(document.getElementById('result').getAttribute('data-json')).config.world_size === 16);

    // Keyboard: Ctrl+Z undoes (history back), Ctrl+Shift+Z redoes.
    await page.mouse.move(900, 880);  // off the fields
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => /&ws=8(&|$)/.test(location.hash), null, { timeout: h.UI_WAIT });
    await page.keyboard.press('Control+Shift+z');
    await page.waitForFunction(() => /&ws=16(&|$)/.test(location.hash), null, { timeout: h.UI_WAIT });
    // A keystroke quicker than a frame (a busy machine): down and up in one task, so no frame
    // runs between them. Dear ImGui 1.86 only sees keys down at a frame; the page latches the chord.
    const quickChord = (shift) => page.evaluate((withShift) => {
      const send = (type, key, keyCode) => window.dispatchEvent(new KeyboardEvent(type,
        { key, keyCode, which: keyCode, ctrlKey: true, shiftKey: withShift, bubbles: true, cancelable: true }));
      send('keydown', 'Control', 17);
      if (withShift) send('keydown', 'Shift', 16);
      send('keydown', 'z', 90);
      send('keyup', 'z', 90);
      if (withShift) send('keyup', 'Shift', 16);
      send('keyup', 'Control', 17);
    }, shift);
    await quickChord(false);
    await page.waitForFunction(() => /&ws=8(&|$)/.test(location.hash), null, { timeout: h.UI_WAIT });
    await quickChord(true);
    await page.waitForFunction(() => /&ws=16(&|$)/.test(location.hash), null, { timeout: h.UI_WAIT });
    // Ctrl+Z at the first entry stays on the page.
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => /&ws=8(&|$)/.test(location.hash), null, { timeout: h.UI_WAIT });
    await page.keyboard.press('Control+z');
    await page.waitForTimeout(500);
    assert.match(page.url(), /index\.html#v1&/, 'still on the page');
    assertClean(log);
  });
});

test('Tab reaches buttons, combos, checkboxes and fields, in order', LIMIT, async () => {
  await withPage({ viewport: DESKTOP }, async ({ page, log }) => {
    await open(page);
    await page.focus('#canvas');
    const shift = await importShift(page);
    const seen = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      await h.nextFrames(page, 30);
      const r = (await rects(page)).nav_focus;
      if (r) seen.push(r);
    }
    const contains = (p) => seen.some(([x, y, w, hh]) => p.x >= x && p.x <= x + w && p.y >= y && p.y <= y + hh);
    assert.ok(seen.length >= 30, `Tab moved the focus (${seen.length} of 40 presses showed one)`);
    assert.ok(contains({ x: 200, y: 79 + shift }), 'the model combo was reached');
    assert.ok(contains({ x: WORLD_SIZE_PLUS.x, y: WORLD_SIZE_PLUS.y + shift }), 'the World size "+" button was reached');
    assert.ok(new Set(seen.map((r) => r.join())).size >= 20, 'Tab moved through many distinct controls');
    // Shift+Tab goes back to the previous one.
    const last = seen[seen.length - 1];
    await page.keyboard.press('Shift+Tab');
    await h.nextFrames(page, 30);
    const prev = (await rects(page)).nav_focus;
    assert.ok(prev && prev[1] <= last[1], `Shift+Tab went back (${last} → ${prev})`);
    await page.screenshot({ path: path.join(h.ARTIFACTS, 'shell-tab-focus.png') });
    assertClean(log);
  });
});

// A keyboard user tabs to a combo, opens it with Space, moves with the arrows and picks with
// Enter; none of those keys scrolls the document (the canvas is one tall page).
test('the keyboard opens a combo and picks an item; its keys do not scroll the page', LIMIT, async () => {
  await withPage({ viewport: DESKTOP }, async ({ page, log }) => {
    await open(page);
    await page.focus('#canvas');
    const combo = (await rects(page)).framework_combo;
    assert.ok(combo, 'the framework combo is on the page');
    // The focus frame is the combo's own rectangle (a pixel or two either way).
    const inside = (r) => r && Math.abs(r[0] - combo[0]) <= 3 && Math.abs(r[1] - combo[1]) <= 3 &&
      Math.abs(r[2] - combo[2]) <= 6 && Math.abs(r[3] - combo[3]) <= 6;
    let reached = false;
    for (let i = 0; i < 80 && !reached; i++) {
      await page.keyboard.press('Tab');
      await h.nextFrames(page, 30);
      reached = inside((await rects(page)).nav_focus);
    }
    assert.ok(reached, 'Tab reached the framework combo');
    const scrolled = () => page.evaluate(() => window.scrollY);
    await page.keyboard.press('Space');
    await h.nextFrames(page, 60);
    assert.equal(await scrolled(), 0, 'Space scrolled the page');
    await page.keyboard.press('ArrowDown');
    await h.nextFrames(page, 60);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /(^|&)fw=torchtitan-npu(&|$)/.test(location.hash), null, { timeout: h.UI_WAIT })
      .catch(() => assert.fail(`the combo did not pick the next framework: ${page.url()}`));
    assert.equal(await scrolled(), 0, 'the arrows or Enter scrolled the page');
    assert.equal((await h.readResult(page)).config.framework, 'torchtitan-npu');
    assertClean(log);
  });
});

// DP replicate = 3 does not divide 8 ranks; the row has no options that appear with it.
// A desktop types through key events; a phone's keyboard through the focused hidden field.
async function typeInvalidDpReplicate(page, tap, phone) {
  await tap();
  await page.keyboard.press('Control+A');
  if (phone) await page.keyboard.insertText('3');
  else await page.keyboard.type('3', { delay: 50 });
  await page.waitForFunction(() => JSON.parse(document.getElementById('explorer').getAttribute('data-json')).rects.field_error,
    null, { timeout: h.UI_WAIT }).catch(() => assert.fail('no field was marked as invalid after typing dp_replicate = 3'));
  await h.settle(page, 400);
  const result = await h.readResult(page);
  assert.equal(result.config.parallelism.data_parallel_replicate_degree, 1, 'the invalid draft is not estimated');
}

test('an invalid value shows its error without moving the fields (desktop and phone)', LIMIT, async () => {
  await withPage({ viewport: DESKTOP }, async ({ page, log }) => {
    await open(page, '#v1&model=llama3-8b&ws=8');
    const before = await rects(page);
    const shift = await importShift(page);
    // The field's row, measured on artifacts/shell-desktop-1440x900.png (below the Framework
    // and method section, which sits under the device).
    await typeInvalidDpReplicate(page, () => h.imguiClick(page, 250, 420 + shift), false);
    await page.screenshot({ path: path.join(h.ARTIFACTS, 'shell-invalid-desktop.png') });
    const after = await rects(page);
    assert.deepEqual(after.inputs_end, before.inputs_end, 'the fields below did not move');
    assert.ok(after.field_error[3] < 40, `the error marks one field row, not a block of text: ${after.field_error}`);
    assert.ok(Math.abs(after.field_error[1] - (410 + shift)) < 15, `the error is at the field edited: ${after.field_error}`);
    assertClean(log);
  });
  await withPage({ viewport: PHONE, hasTouch: true }, async ({ page, log }) => {
    await open(page, '#v1&model=llama3-8b&ws=8');
    // The verdict, the import panel and the first fields fill the first screen: scroll the
    // Parallelism rows into view the way a reader would, then measure.
    await page.mouse.move(200, 500);
    await page.mouse.wheel(0, 300);
    await h.settle(page, 800);
    const before = await rects(page);
    // One column: the verdict above the inputs gains a "last valid estimate" line; the page
    // scrolls by as much, so the field under the finger does not move.
    const phoneShift = await importShift(page);
    await typeInvalidDpReplicate(page, () => page.touchscreen.tap(WORLD_SIZE_PHONE.x, before.inputs_top[1] + phoneShift + 374), true);
    await page.screenshot({ path: path.join(h.ARTIFACTS, 'shell-invalid-phone.png') });
    const after = await rects(page);
    assert.ok(Math.abs(after.inputs_top[1] - before.inputs_top[1]) <= 1,
      `the inputs stayed under the finger (${before.inputs_top[1]} → ${after.inputs_top[1]})`);
    assertClean(log);
  });
});

test('clicking a Layouts row applies it without moving the table', LIMIT, async () => {
  await withPage({ viewport: DESKTOP }, async ({ page, log }) => {
    // Llama 3 70B on 64 H100s does not fit as it is: the verdict has a "what to change" line,
    // which goes once a fitting layout is applied (the verdict gets shorter).
    await open(page, '#v1&model=llama3-70b&ws=64');
    const tab = (await rects(page)).tab_layouts;
    await h.imguiClick(page, tab[0] + tab[2] / 2, tab[1] + tab[3] / 2);
    await page.waitForFunction(() => JSON.parse(document.getElementById('explorer').getAttribute('data-json')).rects.first_row,
      null, { timeout: h.UI_WAIT });
    await h.settle(page, 500);
    const before = await rects(page);
    const hash = (await h.readPageState(page)).hash;
    const row = before.first_row;
    await h.imguiClick(page, row[0] + 40, row[1] + row[3] * 3.5);  // the fourth row
    await page.waitForFunction((old) => location.hash !== old, hash, { timeout: h.UI_WAIT });
    await h.settle(page, 800);
    const after = await rects(page);
    assert.deepEqual(after.first_row, before.first_row, 'the table stayed where it was');
    await page.screenshot({ path: path.join(h.ARTIFACTS, 'shell-layouts-after-click.png') });
    assertClean(log);
  });
});

test('dark mode follows prefers-color-scheme, canvas and text alike', LIMIT, async () => {
  for (const scheme of ['dark', 'light']) {
    await withPage({ viewport: DESKTOP, colorScheme: scheme }, async ({ page, log }) => {
      await open(page);
      const shot = path.join(h.ARTIFACTS, `shell-${scheme}-1440x900.png`);
      const stats = h.pixelStats(h.decodePng(await page.screenshot({ path: shot })));
      const bg = parseInt(stats.background.slice(1), 16);
      const luma = 0.2126 * (bg >> 16) + 0.7152 * ((bg >> 8) & 255) + 0.0722 * (bg & 255);
      if (scheme === 'dark') assert.ok(luma < 50, `dark page background ${stats.background}`);
      else assert.ok(luma > 200, `light page background ${stats.background}`);
      const body = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(body, scheme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(246, 247, 249)');
      assertClean(log);
    });
  }
});

test('first visit: at most 12 requests, no console errors; the results are real text', LIMIT, async () => {
  await withPage({ viewport: DESKTOP }, async ({ page, log }) => {
    const started = srv.requests.length;
    await open(page);
    const mine = srv.requests.slice(started);
    assert.ok(mine.length <= 12, `first visit made ${mine.length} requests: ${mine.map((r) => r.url).join(' ')}`);
    assert.deepEqual(mine.filter((r) => r.status !== 200), [], 'requests the server could not answer');
    assertClean(log);
    // The results below the canvas: selectable text with the verdict and the components.
    const text = await page.textContent('#results-text');
    const result = await h.readResult(page);
    assert.match(text, /Parameters/);
    assert.ok(text.includes(`${(result.per_device_bytes.total / 2 ** 30).toFixed(2)} GiB`), 'the total in GiB');
    const selected = await page.evaluate(() => {
      const section = document.getElementById('results-text');
      const range = document.createRange();
      range.selectNodeContents(section);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      return selection.toString();
    });
    assert.match(selected, /GiB/, 'the text can be selected');
  });
});
