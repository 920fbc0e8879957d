// UX review 18's bugs, as the browser shows them: "Show layouts on N devices" opens the Layouts
// tab; no advice while a field is invalid; a number too large for a field is called too large,
// not "-1"; an unknown device id lists every device. Screenshots go to artifacts/review18-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const LIMIT = { timeout: 120_000 };
const DESKTOP = { viewport: { width: 1440, height: 900 } };
// The World size field on the first screen at 1440 × 900 (the import panel open above the
// Model and Device sections; measured on artifacts/review18-*.png, as app.test.mjs's + button).
const WORLD_SIZE_FIELD = { x: 263, y: 336 };
const session = h.sharedSession();

const mirror = async (page) => JSON.parse(await page.getAttribute('#explorer', 'data-json') || '{}');

async function shot(page, name) {
  await h.settle(page, 500);
  fs.mkdirSync(h.ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(h.ARTIFACTS, `review18-${name}.png`) });
}

// Clears the field with End and Backspace rather than Ctrl+A: ImGui reads a chord's modifier
// from the frame it lands in, and on a loaded machine Ctrl+A could arrive a frame apart from its
// Ctrl, leaving the old text in place ("-8" then "32" read "-832").
async function typeWorldSize(page, text) {
  await h.imguiClick(page, WORLD_SIZE_FIELD.x, WORLD_SIZE_FIELD.y);
  await page.keyboard.press('End');
  for (let i = 0; i < 24; ++i) await page.keyboard.press('Backspace', { delay: 10 });
  await page.keyboard.type(text, { delay: 20 });
}

// Llama 3 70B on 8 H100s fits nowhere on 8; the verdict's button moves to 32 devices and was
// meant to show their layouts, but the Estimate tab, still open in that frame, took the view
// back: the page stayed on Estimate.
test('review 18: "Show layouts on N devices" opens the Layouts tab', LIMIT, async () => {
  await session.withPage(DESKTOP, async ({ page, log }) => {
    await page.goto(`${session.base()}#v1&model=llama3-70b&ws=8&b=1&s=8192`);
    await h.waitReady(page);
    const button = await h.rectCenter(page, 'show_layouts');
    await h.imguiClick(page, button.x, button.y);
    await page.waitForFunction(() => /&ws=32(&|$)/.test(location.hash), null, { timeout: h.UI_WAIT });
    await page.waitForFunction(() => JSON.parse(document.getElementById('explorer').getAttribute('data-json')).view === 'layouts',
      null, { timeout: h.UI_WAIT }).catch(async () => assert.fail(`still on ${(await mirror(page)).view}`));
    await page.waitForFunction(() => JSON.parse(document.getElementById('explorer').getAttribute('data-json')).layouts?.current,
      null, { timeout: 60_000 });
    assert.ok((await mirror(page)).layouts.rows > 0, 'the Layouts tab lists the layouts that fit on 32');
    await shot(page, 'show-layouts');
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});

// Llama 3 70B on 32 H100s does not fit and has advice with Apply buttons. World size -8 is
// invalid: the estimate on screen is the last valid one, so the Advice card gives no steps
// (it said "It fits: no change needed." on a fitting job, and offered Apply on this one).
test('review 18: no advice while a field is invalid', LIMIT, async () => {
  await session.withPage(DESKTOP, async ({ page, log }) => {
    await page.goto(`${session.base()}#v1&model=llama3-70b&ws=32&b=1&s=8192`);
    await h.waitReady(page);
    await h.rectCenter(page, 'advice_apply_1');  // the advice is there while the form is valid
    await typeWorldSize(page, '-8');
    await page.waitForFunction(() => JSON.parse(document.getElementById('explorer').getAttribute('data-json')).rects?.field_error,
      null, { timeout: h.UI_WAIT }).catch(() => assert.fail('world size -8 was not marked invalid'));
    await h.settle(page, 400);
    const rects = (await mirror(page)).rects;
    assert.equal(rects.advice_apply_1, undefined, 'an Apply button is offered while a field is invalid');
    const text = await page.textContent('#results-text');
    assert.match(text, /No advice while an input is not valid/);
    assert.doesNotMatch(text, /Turn on full activation checkpointing/);
    await shot(page, 'advice-invalid-field');
    // Fixing the field brings the advice back.
    await typeWorldSize(page, '32');
    await page.keyboard.press('Enter');
    await h.rectCenter(page, 'advice_apply_1');
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});

// Twenty 9s in World size: the browser's sscanf stored the out-of-range number as -1, so the
// field read back "-1" with "must be at least 1, got -1".
test('review 18: a number too large for a field is called too large', LIMIT, async () => {
  await session.withPage(DESKTOP, async ({ page, log }) => {
    await page.goto(`${session.base()}#v1&model=llama3-8b&ws=8&b=2`);
    await h.waitReady(page);
    await typeWorldSize(page, '99999999999999999999');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => JSON.parse(document.getElementById('explorer').getAttribute('data-json')).field_errors,
      null, { timeout: h.UI_WAIT }).catch(() => assert.fail('no field error for a 20-digit world size'));
    const errors = (await mirror(page)).field_errors.join('\n');
    assert.doesNotMatch(errors, /-1\b/, errors);
    assert.match(errors, /world_size: .*(at most|too large)/, errors);
    await shot(page, 'huge-world-size');
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});

// device=a10g: not a preset, nothing close; the banner listed the first eight ids in
// alphabetical order and stopped at h100-80gb, leaving out the H200, H800, MI300X and RTX 4090.
test('review 18: an unknown device id lists every device id', LIMIT, async () => {
  await session.withPage(DESKTOP, async ({ page, log }) => {
    await page.goto(`${session.base()}#v1&model=llama3-8b&ws=8&device=a10g`);
    await h.waitReady(page);
    await page.waitForFunction(() => (document.getElementById('link-errors')?.textContent || '').includes('a10g'),
      null, { timeout: h.UI_WAIT });
    const errors = await page.textContent('#link-errors');
    for (const id of ['a100-40gb', 'h200-141gb', 'h800', 'mi300x', 'rtx-4090', 'ascend-910b']) {
      assert.ok(errors.includes(id), `${id} missing from: ${errors}`);
    }
    await shot(page, 'unknown-device');
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});
