// UX review 19's bugs, as the browser shows them: a launch script that sources its model flags
// from a file not given names that file, and lists no error the page's kept model cured; a job
// file's comment that names the H100 is a hint like any other; the Measured card's notes and its
// sentence's metric, and a broken link's banner, read in Chinese on a Chinese page. Screenshots
// go to artifacts/review19-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const LIMIT = { timeout: 120_000 };
const DESKTOP = { viewport: { width: 1440, height: 900 } };
const session = h.sharedSession();

const mirror = async (page) => JSON.parse(await page.getAttribute('#explorer', 'data-json') || '{}');
const read = (dir, name) => fs.readFileSync(path.join(h.REPO, 'tests/data', dir, name), 'utf8');

async function shot(page, name) {
  await h.settle(page, 500);
  fs.mkdirSync(h.ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(h.ARTIFACTS, `review19-${name}.png`) });
}

// A Chinese page (the context's locale) comparing a torchtitan log: waits until the Measured
// card's translated words are mirrored on #measured.
async function compareLogInChinese(page) {
  await page.goto(`${session.base()}#v1&model=llama3-8b&ws=8&b=2&s=8192`);
  await h.waitReady(page);
  await page.waitForFunction(() => document.documentElement.getAttribute('lang') === 'zh-CN', null,
    { timeout: h.UI_WAIT });
  await h.dropFiles(page, [{ name: 'torchtitan_llama3_8b.log', text: read('compare', 'torchtitan_llama3_8b.log') }]);
  await page.waitForFunction(() => JSON.parse(document.getElementById('measured')?.getAttribute('data-json') || '{}').shown,
    null, { timeout: h.UI_WAIT }).catch(() => assert.fail('the card\'s words are not mirrored'));
}

// mindspeed_moe_A3.sh sources ./examples/model_args_moe.sh for its model. Dropped over Llama 3
// 8B, the page kept its model and the report said only "not stated in the files", while
// "Inconsistencies" still read "config: model: required …", an error of the import before the
// page's model was kept; the file to add was named nowhere.
test('review 19: an import names the file its script sources, and no error the page cured', LIMIT, async () => {
  await session.withPage(DESKTOP, async ({ page, log }) => {
    await page.goto(`${session.base()}#v1&model=llama3-8b&ws=8&b=2`);
    await h.waitReady(page);
    await h.dropFiles(page, [{ name: 'mindspeed_moe_A3.sh', text: read('import', 'mindspeed_moe_A3.sh') }]);
    await page.waitForFunction(() => JSON.parse(document.getElementById('explorer').getAttribute('data-json')).import,
      null, { timeout: h.UI_WAIT }).catch(() => assert.fail('the import report is not mirrored'));
    const report = (await mirror(page)).import;
    assert.match(report.wanted, /model_args_moe\.sh/, 'the file the script sources is named');
    for (const p of report.problems) assert.doesNotMatch(p, /model: required/, p);
    await shot(page, 'import-sourced-model');
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});

// tt_llama3_8b_job.toml says "sized for 32 H100 GPUs". Over an A100 page the import kept the
// A100: an H100 hint was taken for the import's own default, while any other device a comment
// names is the files'. Its 32 devices had likewise given way to the page's 8.
test('review 19: a job file whose comment names the H100 runs on the H100', LIMIT, async () => {
  await session.withPage(DESKTOP, async ({ page, log }) => {
    await page.goto(`${session.base()}#v1&model=qwen3-8b&device=a100-80gb&ws=8&b=4`);
    await h.waitReady(page);
    await h.dropFiles(page, [{ name: 'tt_llama3_8b_job.toml', text: read('import', 'tt_llama3_8b_job.toml') }]);
    await page.waitForFunction(() => {
      const r = JSON.parse(document.getElementById('result').getAttribute('data-json') || '{}');
      return r.config && r.config.model === 'llama3.1-8b';
    }, null, { timeout: 60_000 });
    const { config } = await h.readResult(page);
    assert.equal(config.device, 'h100-80gb');
    assert.equal(config.world_size, 32, 'the comment\'s device count is the files\' too, not the page\'s 8');
    assert.match(await page.textContent('#summary'), /H100/);
    await shot(page, 'import-h100-comment');
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});

// A torchtitan log compared on a Chinese page: the after-init note was English ("After model
// init, before training: …") and the sentence began with "Max reserved".
test('review 19: the Measured card reads in Chinese on a Chinese page', LIMIT, async () => {
  await session.withPage({ ...DESKTOP, locale: 'zh-CN' }, async ({ page, log }) => {
    await compareLogInChinese(page);
    const { shown } = JSON.parse(await page.getAttribute('#measured', 'data-json'));
    assert.match(shown.sentence, /^峰值预留（max reserved）实测为估算的 0\.77×/, shown.sentence);
    assert.equal(shown.notes.length, 1, shown.notes.join('\n'));
    const note = shown.notes[0];
    assert.doesNotMatch(note, /After model init|the estimate/, note);
    assert.match(note, /^模型初始化后、训练开始前：max reserved 3\.87 GiB（/, note);
    assert.match(note, /估算中参数占 3\.74 GiB。$/, note);
    await shot(page, 'measured-zh');
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});

// A broken link on a Chinese page: the banner's reasons were English inside Chinese frames
// ("tp：7 未应用，与链接的其余部分冲突：ws 64 is not divisible by tp·pp·cp·dpr = 7 (tp expects
// the tensor-parallel degree, …)", "当前为 a string (s expects …)").
test('review 19: a broken link\'s banner reads in Chinese on a Chinese page', LIMIT, async () => {
  await session.withPage({ viewport: { width: 390, height: 844 }, locale: 'zh-CN', isMobile: true, hasTouch: true },
    async ({ page, log }) => {
      await page.goto(`${session.base()}#v1&model=llama3-70b&ws=64&tp=7&pp=-2&s=abc&zero=9`);
      await h.waitReady(page);
      await page.waitForFunction(() => document.documentElement.getAttribute('lang') === 'zh-CN', null,
        { timeout: h.UI_WAIT });
      // One line per message (platform_web.cpp).
      await page.waitForFunction(() => (document.getElementById('link-errors')?.textContent || '').split('\n').length >= 4,
        null, { timeout: h.UI_WAIT });
      const lines = (await page.textContent('#link-errors')).split('\n').filter((l) => l);
      const line = (key) => lines.find((l) => l.startsWith(`${key}：`)) || assert.fail(`no ${key} line in ${lines.join('\n')}`);
      for (const l of lines) {
        assert.doesNotMatch(l, /expects|was not applied|must be|divisible|a string|a whole number/, l);
      }
      assert.match(line('tp'), /卡数 64 不能被 tp·pp·cp·dpr = 7 整除（tp：张量并行度，/);
      assert.match(line('pp'), /至少为 1，当前为 -2（pp：流水线并行度，/);
      assert.match(line('s'), /应为整数，当前为 字符串（s：序列长度/);
      assert.match(line('zero'), /须为 0、1、2 或 3（或 null），当前为 9/);
      await shot(page, 'link-banner-zh');
      assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
    });
});

// The same import on a Chinese page: the red line why it is not estimated was English
// ("parallelism.expert_parallel_degree: expert_parallel_degree 16 needs a mixture-of-experts
// model; …"), as its template was matched against "key: message".
test('review 19: an import\'s config error reads in Chinese on a Chinese page', LIMIT, async () => {
  await session.withPage({ ...DESKTOP, locale: 'zh-CN' }, async ({ page, log }) => {
    await page.goto(`${session.base()}#v1&model=llama3-8b&ws=8&b=2`);
    await h.waitReady(page);
    await page.waitForFunction(() => document.documentElement.getAttribute('lang') === 'zh-CN', null,
      { timeout: h.UI_WAIT });
    await h.dropFiles(page, [{ name: 'mindspeed_moe_A3.sh', text: read('import', 'mindspeed_moe_A3.sh') }]);
    await page.waitForFunction(() => JSON.parse(document.getElementById('explorer').getAttribute('data-json')).import,
      null, { timeout: h.UI_WAIT }).catch(() => assert.fail('the import report is not mirrored'));
    const report = (await mirror(page)).import;
    assert.deepEqual(report.errors,
      ['parallelism.expert_parallel_degree：专家并行度 16 需要 MoE 模型；此模型是 Dense 模型']);
    assert.match(report.wanted, /^任务引用了这里没有提供的文件：\.\/examples\/model_args_moe\.sh。/);
    // The fonts have no curly quotes: “打开文件…” was drawn "?打开文件…?".
    assert.doesNotMatch(report.wanted, /[“”]/, report.wanted);
    await shot(page, 'import-zh');
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  });
});

// The same log on a phone in Chinese: the metric's cell is what the three figures leave, and
// its name was cut to "峰值预留（r". It wraps now, inside its cell.
test('review 19: the Measured card\'s metric name fits its cell on a phone', LIMIT, async () => {
  await session.withPage({ viewport: { width: 390, height: 844 }, locale: 'zh-CN', isMobile: true, hasTouch: true },
    async ({ page, log }) => {
      await compareLogInChinese(page);
      // The one-column page draws what is on screen: scroll down to the card.
      for (let i = 0; i < 12 && !(await mirror(page)).rects?.measured_estimate_cell; ++i) {
        await page.mouse.move(200, 500);
        await page.mouse.wheel(0, 400);
        await h.settle(page, 400);
      }
      const { rects } = await mirror(page);
      assert.ok(rects.measured_estimate_cell, 'the Measured card was not reached');
      const [x, , w] = rects.measured_metric_name;
      const [figures] = rects.measured_estimate_cell;
      assert.ok(x + w <= figures, `the name ends at ${x + w}, the figures start at ${figures}`);
      await shot(page, 'measured-phone-zh');
      assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
    });
});
