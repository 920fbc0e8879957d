// UX review 17's bugs, as the browser shows them: an import that states part of a job keeps the
// rest of the page's job; the Measured card names a change back to a default value; a link that
// is not fully read gives no advice and marks the field it could not apply; a key given twice is
// named without withholding the verdict. Screenshots go to artifacts/review17-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const LIMIT = { timeout: 120_000 };
let srv;
let chrome;

before(async () => {
  srv = await h.startServer(h.SITE_DIR);
  chrome = await h.launchBrowser();
});

after(async () => {
  await chrome?.close();
  await srv?.close();
});

const BASE = () => `${srv.origin}/index.html`;

async function withPage(viewport, use) {
  const context = await chrome.browser.newContext({ viewport });
  const page = await context.newPage();
  const log = h.watchPage(page);
  try {
    await use({ page, log });
  } finally {
    await context.close().catch(() => {});
  }
}

async function shot(page, name) {
  await h.settle(page, 500);
  fs.mkdirSync(h.ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(h.ARTIFACTS, `review17-${name}.png`) });
}

const ZERO2 = JSON.stringify({
  train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: 8,
  fp16: { enabled: true, loss_scale: 0 },
  zero_optimization: { stage: 2, overlap_comm: true, contiguous_gradients: true },
  optimizer: { type: 'AdamW', params: { lr: 2e-5 } },
});

// A plain ZeRO-2 JSON over Qwen2.5 7B on 16 × A100 at s 4096: the file's ZeRO stage, precision
// and micro-batch replace the page's; its model, device, devices and sequence stay.
test('review 17: a DeepSpeed JSON imported over a job keeps what it does not state', LIMIT, async () => {
  await withPage({ width: 1440, height: 900 }, async ({ page, log }) => {
    await page.goto(`${BASE()}#v1&model=qwen2.5-7b&device=a100-80gb&ws=16&b=2&s=4096&ac=full`);
    await h.waitReady(page);
    await h.dropFiles(page, [{ name: 'ds_z2.json', text: ZERO2 }]);
    await page.waitForFunction(() => {
      const r = JSON.parse(document.getElementById('result').getAttribute('data-json') || '{}');
      return r.config && r.config.framework === 'deepspeed';
    }, null, { timeout: 60_000 });
    const { config } = await h.readResult(page);
    assert.equal(config.model, 'qwen2.5-7b');
    assert.equal(config.device, 'a100-80gb');
    assert.equal(config.world_size, 16);
    assert.equal(config.training.seq_len, 4096);
    assert.equal(config.activation_checkpoint.mode, 'full');
    assert.equal(config.training.local_batch_size, 4, 'the file states the micro-batch');
    assert.equal(config.parallelism.zero_stage, 2);
    await shot(page, 'import-ds-over-job');
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});

// The Measured card: b 2 → 8 (8 is v1's default, which the link leaves out) is named as such.
test('review 17: a change back to a default value is named with the value', LIMIT, async () => {
  await withPage({ width: 1440, height: 900 }, async ({ page, log }) => {
    await page.goto(`${BASE()}#v1&model=llama3-8b&ws=8&b=2&m=reserved:38.52GiB@r0`);
    await h.waitReady(page);
    const measured = async () => JSON.parse(await page.getAttribute('#measured', 'data-json') || '{}');
    await page.waitForFunction(() => {
      const json = document.getElementById('measured')?.getAttribute('data-json');
      return json && JSON.parse(json).comparison;
    }, null, { timeout: h.UI_WAIT });
    await page.evaluate(() => { window.location.hash = '#v1&model=llama3-8b&ws=8'; });
    await page.waitForFunction(() => {
      const json = document.getElementById('measured')?.getAttribute('data-json');
      return json && JSON.parse(json).config_changes.length > 0;
    }, null, { timeout: h.UI_WAIT });
    assert.deepEqual((await measured()).config_changes, ['b 2 → 8']);
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});

// tp=3 on 8 devices is not applied: no verdict, no advice, and the Tensor parallel field is
// outlined like a field error, until the reader edits something.
test('review 17: a link not fully read gives no advice and marks the rejected field', LIMIT, async () => {
  await withPage({ width: 1440, height: 900 }, async ({ page, log }) => {
    await page.goto(`${BASE()}#v1&model=llama3-8b&ws=8&b=2&tp=3`);
    await h.waitReady(page);
    await page.waitForFunction(() => (document.getElementById('link-errors')?.textContent || '').includes('tp'),
      null, { timeout: h.UI_WAIT });
    await page.waitForFunction(() => JSON.parse(document.getElementById('explorer').getAttribute('data-json') || '{}').rects?.field_error,
      null, { timeout: h.UI_WAIT }).catch(() => assert.fail('the field of the rejected tp=3 is not marked'));
    const text = await page.textContent('#results-text');
    assert.doesNotMatch(text, /no change needed/, 'advice claims the job fits while the verdict is withheld');
    assert.match(text, /No advice while the link is not fully read/);
    await shot(page, 'link-tp3');
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});

// b=2&b=4: the last value is used and the banner says so; the link was read, so the verdict is
// shown.
test('review 17: a key given twice is named and the verdict stays', LIMIT, async () => {
  await withPage({ width: 1440, height: 900 }, async ({ page, log }) => {
    await page.goto(`${BASE()}#v1&model=llama3-8b&ws=8&b=2&b=4`);
    await h.waitReady(page);
    await page.waitForFunction(() => (document.getElementById('link-errors')?.textContent || '').includes('given twice'),
      null, { timeout: h.UI_WAIT }).catch(() => assert.fail('the repeated key b is not named'));
    const errors = await page.textContent('#link-errors');
    assert.match(errors, /^b: given twice \(2, then 4\)/m);
    const state = await h.readPageState(page);
    assert.equal(JSON.parse(state.json).config.training.local_batch_size, 4);
    assert.doesNotMatch(state.summary, /not fully read|not be read/i, 'the verdict is withheld for a link that was read');
    await shot(page, 'link-dup');
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});

// A lang=zh link's banner is in Chinese: the lines are written again once the Chinese font has
// arrived (the link is read before it).
test('review 17: a Chinese link names its repeated key in Chinese', LIMIT, async () => {
  await withPage({ width: 390, height: 844 }, async ({ page, log }) => {
    await page.goto(`${BASE()}#v1&model=llama3-8b&ws=8&b=2&b=4&lang=zh`);
    await h.waitReady(page);
    await page.waitForFunction(() => (document.getElementById('link-errors')?.textContent || '').includes('出现了两次'),
      null, { timeout: h.UI_WAIT }).catch(async () => assert.fail(`the banner is not in Chinese: ${await page.textContent('#link-errors')}`));
    await shot(page, 'link-dup-zh-390');
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});
