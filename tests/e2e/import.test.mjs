// End-to-end test of the import (issue #9): a Megatron launch script dropped on the page becomes
// the current config — #result's config and the share link carry what the script says — and the
// import panel shows its report. Screenshots of the panel go to artifacts/import-*.png.
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

const SCRIPT = fs.readFileSync(path.join(h.REPO, 'tests/data/import/megatron_llama_fp8.sh'), 'utf8');

// Drops files on the page the way a browser does: a DataTransfer holding File objects.
for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`a dropped launch script becomes the config (${viewport.width}×${viewport.height})`, LIMIT, async () => {
    const context = await chrome.browser.newContext({ viewport });
    const page = await context.newPage();
    const log = h.watchPage(page);
    try {
      await page.goto(`${srv.origin}/index.html`);
      await h.waitReady(page);
      await h.dropFiles(page, [{ name: 'megatron_llama_fp8.sh', text: SCRIPT }]);
      // The script: world size 8 × 2, TP 2, PP 2, sequence 8192, full recompute, fp8, Megatron.
      await page.waitForFunction(() => {
        const r = JSON.parse(document.getElementById('result').getAttribute('data-json') || '{}');
        return r.config && r.config.world_size === 16 && r.config.framework === 'megatron';
      }, null, { timeout: 60_000 });
      const result = await h.readResult(page);
      assert.equal(result.config.parallelism.tensor_parallel_degree, 2);
      assert.equal(result.config.parallelism.pipeline_parallel_degree, 2);
      assert.equal(result.config.training.seq_len, 8192);
      assert.equal(result.config.training.fp8, true);
      assert.equal(result.config.activation_checkpoint.mode, 'full');
      assert.equal(result.model.total_params, 8030261248);  // the script's Llama 3 8B shape
      // The share link holds the imported config.
      await page.waitForFunction(() => window.location.hash.includes('tp=2'), null, { timeout: 10_000 });
      const hash = await page.evaluate(() => window.location.hash);
      assert.match(hash, /ws=16|world_size=16/);
      await h.settle(page, 500);
      fs.mkdirSync(h.ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(h.ARTIFACTS, `import-${viewport.width}x${viewport.height}.png`) });
      assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
    } finally {
      await context.close().catch(() => {});
    }
  });
}

// MindSpeed-LLM's FSDP2 trainer: the launch script and its YAML dropped together (the YAML is
// parsed by yaml-cpp compiled to WebAssembly); a broken YAML dropped next shows its error and
// leaves the imported config in place.
test('a dropped FSDP2 launch script with its YAML becomes the config; a broken YAML changes nothing', LIMIT, async () => {
  const context = await chrome.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const log = h.watchPage(page);
  const read = (name) => fs.readFileSync(path.join(h.REPO, 'tests/data/import', name), 'utf8');
  try {
    await page.goto(`${srv.origin}/index.html`);
    await h.waitReady(page);
    await h.dropFiles(page, [{ name: 'fsdp2_moe_A3.sh', text: read('fsdp2_moe_A3.sh') },
                           { name: 'fsdp2_moe_A3.yaml', text: read('fsdp2_moe_A3.yaml') }]);
    await page.waitForFunction(() => {
      const r = JSON.parse(document.getElementById('result').getAttribute('data-json') || '{}');
      return r.config && r.config.framework === 'torchtitan-npu' && r.config.world_size === 32;
    }, null, { timeout: 60_000 });
    const result = await h.readResult(page);
    // The script's --data.cutoff_len=8192 wins over the YAML's 4096; ep_size 8 from the YAML.
    assert.equal(result.config.training.seq_len, 8192);
    assert.equal(result.config.training.local_batch_size, 2);
    assert.equal(result.config.parallelism.expert_parallel_degree, 8);
    assert.equal(result.config.activation_checkpoint.mode, 'full');
    assert.equal(result.config.model, 'qwen3-30b-a3b');
    // The same YAML again, now broken: the import stops at its line and the config stays.
    await h.dropFiles(page, [{ name: 'fsdp2_moe_A3.yaml', text: 'parallel:\n  fsdp_size: [8\n' }]);
    await h.settle(page, 1500);
    const after = await h.readResult(page);
    assert.equal(after.config.world_size, 32, 'the broken YAML left the config alone');
    assert.equal(after.config.training.seq_len, 8192);
    fs.mkdirSync(h.ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(h.ARTIFACTS, 'import-fsdp2-broken-yaml.png') });
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  } finally {
    await context.close().catch(() => {});
  }
});

// A config.json describes a model, not a job: dropped on a DeepSpeed ZeRO-3 LoRA job it replaces
// the model and keeps the device, world size, framework, batch and the rest.
test('a dropped config.json replaces the model and keeps the job', LIMIT, async () => {
  const context = await chrome.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const log = h.watchPage(page);
  const model = {
    architectures: ['Qwen3ForCausalLM'], model_type: 'qwen3', hidden_size: 3584, num_hidden_layers: 40,
    num_attention_heads: 28, num_key_value_heads: 4, head_dim: 128, intermediate_size: 14336,
    vocab_size: 152064, max_position_embeddings: 32768, tie_word_embeddings: false,
  };
  try {
    await page.goto(`${srv.origin}/index.html#v1&model=qwen2.5-7b&fw=deepspeed&ws=8&b=2&s=4096&lora=8&zero=3&ac=full`);
    await h.waitReady(page);
    await h.dropFiles(page, [{ name: 'config.json', text: JSON.stringify(model) }]);
    await page.waitForFunction(() => {
      const r = JSON.parse(document.getElementById('result').getAttribute('data-json') || '{}');
      return r.config && typeof r.config.model === 'object' && r.config.model.hidden_size === 3584;
    }, null, { timeout: 60_000 });
    const result = await h.readResult(page);
    assert.equal(result.config.framework, 'deepspeed');
    assert.equal(result.config.world_size, 8);
    assert.equal(result.config.training.local_batch_size, 2);
    assert.equal(result.config.training.seq_len, 4096);
    assert.equal(result.config.training.lora_rank, 8);
    assert.equal(result.config.parallelism.zero_stage, 3);
    assert.equal(result.config.activation_checkpoint.mode, 'full');
    await h.settle(page, 500);
    fs.mkdirSync(h.ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(h.ARTIFACTS, 'import-config-json-keeps-job.png') });
    assert.deepEqual(log.pageErrors, [], 'uncaught page errors');
  } finally {
    await context.close().catch(() => {});
  }
});
