#!/usr/bin/env python3
"""MindSpeed-LLM CI memory baselines as trainmem calibration rows.

MindSpeed-LLM (github.com/Ascend/MindSpeed-LLM) keeps, for each CI case, a baseline JSON
(tests/st/baseline_results/<case>.json, tests/pipeline/baseline/<case>.json) next to the launch
script that produced it (tests/st/shell_scripts/<case>.sh, tests/pipeline/<model>/<case>.sh).
Its "memo info" list holds, per logged rank, Megatron's report_memory figures after the FIRST
iteration (MB = MiB): 'max allocated memory' = torch.npu.max_memory_allocated().

This tool walks the history of both baseline folders in a local git mirror of MindSpeed-LLM,
takes for each case the newest commit whose baseline has a "memo info" list and whose launch
script exists at that same commit (baseline and script then describe one run), imports the
script with trainmem's own importer (`trainmem import --json`), applies the hand corrections
listed in CORRECTIONS (each one a finding about the importer, written into `config_corrected`),
and writes rows in the schema of tests/data/calibration.jsonl. `measured` is
{metric: max_allocated, stage: max, iteration: 1, peak_gib: max over reported ranks}, which
bench/accuracy.cpp compares with the estimate's first_iteration_peak_allocated of the largest
stage. With --table it also runs `trainmem estimate --json` on every row and prints a table.

Python 3 standard library only.

  tools/mindspeed_ci_rows.py --mirror /work/.mirror/Ascend+MindSpeed-LLM/repo \
      --trainmem build/native-release/trainmem --out tests/data/mindspeed_ci.jsonl --table
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

GIB = 1024.0**3
MIB = 1024.0**2
FOLDERS = ["tests/st/baseline_results", "tests/pipeline/baseline"]
DEVICE_NOTE = ("Ascend Atlas A2 training series (910B, 64GB HBM) - MindSpeed-LLM CI machine "
               "(assumed; CI requires >=64GB NPUs)")

# Cases trainmem cannot express, by name pattern, with the reason. Checked in order.
SKIP = [
    (r"qlora", "QLoRA (a 4-bit quantized frozen base) is not in trainmem's config schema; "
               "plain LoRA is (training.lora_rank)"),
    (r"^(dpo|simpo)_", "preference training (DPO/SimPO): a chosen+rejected pair per sample and a "
                       "frozen reference model (or its precomputed log-probs) are not modelled"),
    (r"^(train_orm|train_prm|reward)_|_prm_", "reward-model training (ORM/PRM/reward): value head "
                                                "instead of the vocabulary output, pairwise batches"),
    (r"^(ray_|trl_|test_rlhf)", "RL post-training (several models in one job)"),
    (r"high_availability", "fault-injection case, no steady training peak"),
]

# Cases skipped by a flag of their launch script (a case name does not always say it).
SKIP_FLAGS = [
    (r"--qlora\b", "QLoRA (--qlora): a 4-bit quantized frozen base is not in trainmem's config "
                   "schema; plain LoRA is (training.lora_rank)"),
    (r"--stage\s+(dpo|simpo|orm|prm|rm)\b", "post-training stage other than pretrain/SFT"),
    (r"--linear-num-key-heads|qwen3_next_spec", "Qwen3-Next hybrid (Gated DeltaNet linear "
                                                 "attention): the importer builds the layers; "
                                                 "left out until each case's recompute is "
                                                 "checked: block recompute of fewer than a "
                                                 "stage's layers has no config key (estimated as "
                                                 "full recompute)"),
    (r"mamba_spec|--mamba-", "Mamba-2 (MindSpeed-LLM pretrain_mamba.py, --mamba-*): the importer "
                             "builds the Mamba-2 model, but the vocabulary is a SentencePiece "
                             "file's it cannot read (mamba2_*.model), and MindSpeed's pure-PyTorch "
                             "SSD (tasks/models/ssm/state_space_duality.py) keeps far more "
                             "activations than mamba_ssm's fused scan the estimate counts"),
]

# Hand corrections for what `trainmem import` reads wrongly from a script: case ->
# [(dotted key, value, why)]. A value of None deletes the key. Applied after the import; each
# is reported in the row's `config_corrected` (these are importer findings).
BAICHUAN2_VOCAB = ("model.vocab_size", 125696,
                   "Baichuan2-13B tokenizer: HF config vocab_size 125696, already a multiple of "
                   "make-vocab-size-divisible-by x TP; the importer listed the vocabulary as missing and assumed 32000")
CORRECTIONS = {
    "baichuan2_13b_tp8_pp1_mcore": {"set": [BAICHUAN2_VOCAB]},
    "baichuan2_13B_tp8_pp1_ptd": {"set": [BAICHUAN2_VOCAB]},
    "tune_qwen7b_tp8_pp1_full_ptd": {"set": [(
        "model.vocab_size", 151936,
        "Qwen-7B tokenizer (/data/qwen-7b/): 151851 tokens padded to a multiple of "
        "make-vocab-size-divisible-by 16 x TP 8 = 128 -> 151936; the importer listed the "
        "vocabulary as missing and assumed 32000")]},
}

# Importer gaps that apply to every script with a given flag: flag -> (dotted key, value, why).
# Rows whose figure the launch script cannot explain (kept, marked ambiguous, with why).
AMBIGUOUS = {
    "chatglm3_gqa_cp4":
        "its 'max allocated memory' (29104.03466796875 MiB on every rank) is bit-identical to "
        "chatglm3_gqa_cp8's, recorded a year earlier for another layout (CP8, Ulysses 4, 8 NPUs), "
        "while its 'allocated memory' differs (7180.8 vs 5386.2 MiB): the max was evidently "
        "copied, not measured",
    "tune_llama2_tp2_pp4_vpp2_mcore_full":
        "SFT with --no-pad-to-seq-lengths: each batch is padded to its longest sample, not to "
        "--seq-length, so the activations depend on the data (alpaca samples are far shorter than "
        "4096); the config's seq_len is an upper bound",
    "tune_qwen7b_tp8_pp1_full_ptd":
        "SFT with --variable-seq-lengths: batches are padded to their longest sample, so the "
        "activations depend on the data; the config's seq_len is an upper bound",
    "minicpm_2b_tp1_pp1":
        "the reported 'allocated memory' after iteration 1 (1404.7 MiB, unchanged since 2025-04) "
        "is below the bf16 weights plus fp32 main-grad buffer alone of the model the script "
        "describes (2 layers, hidden 2304, ffn 5760, tied vocab 122753: 405M parameters x 6 B "
        "= 2318 MiB), so the run cannot have been this script's model as read",
}

# Each entry: (regex that must match the script, regex that must NOT match (or None), key, value,
# why). The value may be a function of the config.
FLAG_CORRECTIONS = [
    (r".", None, "device", lambda cfg: cfg.get("device") if str(cfg.get("device", "")).startswith(
        "ascend") else "ascend-910b",
     "MindSpeed-LLM CI runs on Ascend NPUs; the importer guessed a GPU for scripts without an "
     "Ascend environment line"),
    (r".", r"--use-mcore-models|--use-flash-attn", "training.attention", "eager",
     "MindSpeed-LLM legacy model (no --use-mcore-models) without --use-flash-attn runs unfused "
     "core attention; the importer decides so only for scripts it recognises as MindSpeed ones"),
    (r"(?s)(?=.*--num-experts\s+\d)(?=.*--use-mcore-models)", r"--expert-tensor-parallel-size",
     "parallelism.expert_tensor_parallel_degree",
     lambda cfg: cfg.get("parallelism", {}).get("tensor_parallel_degree", 1)
     if cfg.get("parallelism", {}).get("tensor_parallel_degree", 1) > 1 else None,
     "no --expert-tensor-parallel-size: Megatron sets it to the tensor-parallel size "
     "(megatron/training/arguments.py validate_args, and before ETP existed experts were always "
     "split by TP); the importer left trainmem's default 1. MindSpeed-LLM's legacy (non-mcore) "
     "MoE is another implementation and is left as imported"),
    (r"--geglu\b|--gelu-tanh\b", None, "model.mlp_kind", "gated",
     "--geglu / --gelu-tanh make MindSpeed-LLM's MLP gated (mindspeed_llm/core/transformer/"
     "mlp.py core_mlp_init: gated_linear_unit = True, ffn_hidden_size *= 2); the importer "
     "ignored them"),
]


def git(mirror, *args):
    return subprocess.run(["git", "-C", mirror] + list(args), capture_output=True, text=True,
                          check=False).stdout


def blob_exists(mirror, commit, path):
    return git(mirror, "cat-file", "-t", f"{commit}:{path}").strip() == "blob"


def find_script(mirror, commit, json_path, case):
    """The launch script of a baseline at one commit, or None."""
    if json_path.startswith("tests/st/"):
        p = f"tests/st/shell_scripts/{case}.sh"
        if blob_exists(mirror, commit, p):
            return p
    names = git(mirror, "ls-tree", "-r", "--name-only", commit, "tests").split("\n")
    hits = [n for n in names if n.lower().endswith("/" + case.lower() + ".sh")]
    pipeline = [h for h in hits if h.startswith("tests/pipeline/")]
    st = [h for h in hits if h.startswith("tests/st/")]
    if json_path.startswith("tests/pipeline/") and pipeline:
        return pipeline[0]
    return (st or pipeline or [None])[0]


def discover(mirror):
    """case -> {json, commit, date, script, memo}; the newest commit with a memo info list."""
    log = git(mirror, "log", "--all", "--name-only", "--format=", "--", *FOLDERS)
    paths = sorted({l for l in log.split("\n") if l.endswith(".json")})
    cases, no_memo = {}, {}
    for path in paths:
        case = os.path.basename(path)[:-5]
        found = None
        for line in git(mirror, "log", "--all", "--format=%H %cs", "--", path).split("\n"):
            if not line:
                continue
            commit, date = line.split()
            text = git(mirror, "show", f"{commit}:{path}")
            if not text:
                continue  # the commit deleted the file
            try:
                memo = json.loads(text).get("memo info")
            except (json.JSONDecodeError, AttributeError):
                continue
            if not memo:
                continue
            script = find_script(mirror, commit, path, case)
            if script is None:
                continue
            found = dict(json=path, commit=commit, date=date, script=script, memo=memo)
            break
        if found is None:
            no_memo[case] = path
            continue
        prev = cases.get(case)
        if prev is None or found["date"] > prev["date"]:
            cases[case] = found
    for c in cases:
        no_memo.pop(c, None)
    # The same run filed under two case names (identical memo lists): keep the newer name.
    duplicates = {}
    by_memo = {}
    for case in sorted(cases, key=lambda c: cases[c]["date"], reverse=True):
        key = json.dumps(sorted((m.get("rank"), m.get("allocated memory"), m.get("max allocated memory"))
                                for m in cases[case]["memo"]))
        if key in by_memo:
            duplicates[case] = by_memo[key]
        else:
            by_memo[key] = case
    for case in duplicates:
        del cases[case]
    return cases, no_memo, duplicates


def set_key(cfg, dotted, value):
    parts = dotted.split(".")
    node = cfg
    for p in parts[:-1]:
        node = node.setdefault(p, {})
    if value is None:
        node.pop(parts[-1], None)
    else:
        node[parts[-1]] = value


def get_key(cfg, dotted):
    node = cfg
    for p in dotted.split("."):
        if not isinstance(node, dict) or p not in node:
            return None
        node = node[p]
    return node


def import_script(trainmem, script_text, case, workdir):
    path = os.path.join(workdir, case + ".sh")
    with open(path, "w") as f:
        f.write(script_text)
    r = subprocess.run([trainmem, "import", "--json", path], capture_output=True, text=True,
                       check=False)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return json.loads(r.stdout), None


def estimate(trainmem, cfg, workdir):
    path = os.path.join(workdir, "cfg.json")
    with open(path, "w") as f:
        json.dump(cfg, f)
    r = subprocess.run([trainmem, "estimate", "--json", path], capture_output=True, text=True,
                       check=False)
    if r.returncode != 0:
        return None, (r.stderr.strip() or r.stdout.strip())
    return json.loads(r.stdout), None


def features(cfg, script_text):
    """A short feature string for the table (from the config and the script's flags)."""
    p = cfg.get("parallelism", {})
    m = cfg.get("model", {})
    out = [f"TP{p.get('tensor_parallel_degree', 1)}", f"PP{p.get('pipeline_parallel_degree', 1)}"]
    if p.get("pipeline_parallel_layers_per_stage"):
        out.append(f"VPP(l{p['pipeline_parallel_layers_per_stage']})")
    cp = p.get("context_parallel_degree", 1)
    if cp > 1:
        u = p.get("ulysses_degree_in_cp", 1)
        algo = "ulysses" if u == cp else "ring" if u == 1 else f"hybrid(u{u})"
        if "adaptive_cp_algo" in script_text:
            algo = "adaptive"
        out.append(f"CP{cp}:{algo}")
    if p.get("expert_parallel_degree", 1) > 1:
        out.append(f"EP{p['expert_parallel_degree']}")
    if m.get("num_local_experts") or m.get("n_routed_experts") or m.get("num_experts"):
        out.append("MoE")
    if cfg.get("training", {}).get("mtp") or "--mtp-num-layers" in script_text:
        out.append("MTP")
    ac = cfg.get("activation_checkpoint", {}).get("mode", "none")
    if ac != "none":
        out.append(f"rc:{ac}")
    for flag, short in [("--swap-attention", "swap-attn"), ("--swap-optimizer", "swap-opt"),
                        ("--reuse-fp32-param", "reuse-fp32"), ("--recompute-activation-function",
                                                               "rc-act"),
                        ("--o2-optimizer", "o2-opt"), ("--o2-gradient", "o2-grad"),
                        ("--use-distributed-optimizer", "distopt"),
                        ("--moe-zero-memory", "moe-zero-mem")]:
        if flag in script_text:
            out.append(short)
    out.append("flash" if cfg.get("training", {}).get("attention") == "flash" else "eager-attn")
    out.append("legacy" if "--use-mcore-models" not in script_text else "mcore")
    return " ".join(out)


def build_row(case, info, imported, corrections, commit_short):
    cfg = imported["config"]
    cfg["mode"] = "detailed"
    # A rank reported twice (llama2_tp2_pp1_ha_save_ptd logs a second report after its
    # checkpoint save): the first report is the one after iteration 1.
    memo, seen = [], set()
    for m in info["memo"]:
        if m.get("rank") not in seen:
            seen.add(m.get("rank"))
            memo.append(m)
    ranks = [(m.get("rank"), m.get("max allocated memory", 0.0) / 1024.0,
              m.get("allocated memory", 0.0) / 1024.0) for m in memo]
    peak = max(r[1] for r in ranks)
    src = f"Ascend/MindSpeed-LLM@{commit_short}:{info['json']}"
    notes = (
        f"MindSpeed-LLM CI baseline '{info['json']}' (commit {commit_short}, {info['date']}), "
        f"launch script '{info['script']}' at the same commit, imported with `trainmem import "
        f"--json`. 'memo info' per rank = Megatron report_memory after the first iteration "
        f"(log-interval 1), parsed by tests/test_tools/acquire_json.py: "
        f"torch.npu.max_memory_allocated() over fwd+bwd+optimizer step of iteration 1, MB = MiB. "
        f"Ranks (rank, max_alloc GiB, alloc GiB): "
        f"{[(r[0], round(r[1], 3), round(r[2], 3)) for r in ranks]}. peak_gib = max over the "
        f"reported ranks{' (first report of each rank; later reports dropped: ' + str(len(info['memo']) - len(memo)) + ')' if len(memo) < len(info['memo']) else ''}. Import notes: {imported.get('notes', [])}. Ignored by the importer: "
        f"{sorted({i['key'].split()[0] for i in imported.get('ignored', []) if 'memory' in i['reason'] or 'modelled' in i['reason']})}.")
    row = {
        "id": f"msci-{case}",
        "source": src + f" (+{info['script']})",
        "ambiguous": False,
        "config": cfg,
        "measured": {"metric": "max_allocated", "peak_gib": round(peak, 3), "stage": "max",
                     "iteration": 1},
        "notes": notes,
        "precision": {"bfloat16": "bf16-mixed fp32-master", "float16": "fp16-mixed fp32-master"}.get(
            cfg.get("training", {}).get("mixed_precision_param"), "fp32"),
        "hardware": DEVICE_NOTE,
    }
    if corrections:
        row["config_corrected"] = "; ".join(corrections)
    if case in AMBIGUOUS:
        row["ambiguous"] = True
        row["notes"] += " AMBIGUOUS: " + AMBIGUOUS[case]
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mirror", default="/work/.mirror/Ascend+MindSpeed-LLM/repo")
    ap.add_argument("--trainmem", default="build/native-release/trainmem")
    ap.add_argument("--out", default="tests/data/mindspeed_ci.jsonl")
    ap.add_argument("--table", action="store_true", help="estimate every row and print a table")
    args = ap.parse_args()

    cases, no_memo, duplicates = discover(args.mirror)
    rows, skipped, import_failures, rejected, results = [], [], [], [], []
    with tempfile.TemporaryDirectory() as work:
        for case in sorted(cases):
            info = cases[case]
            commit_short = info["commit"][:10]
            text = git(args.mirror, "show", f"{info['commit']}:{info['script']}")
            reason = next((why for pat, why in SKIP if re.search(pat, case)), None)
            reason = reason or next((why for pat, why in SKIP_FLAGS if re.search(pat, text)), None)
            if reason:
                skipped.append((case, reason))
                continue
            imported, err = import_script(args.trainmem, text, case, work)
            corrections = []
            if imported is None:
                import_failures.append((case, err))
                fix = CORRECTIONS.get(case, {}).get("config")
                if fix is None:
                    continue
                imported = {"config": json.loads(json.dumps(fix)), "notes": [], "ignored": []}
                corrections.append("the importer refused the script; config written by hand "
                                   "from the script's flags")
            cfg = imported["config"]
            for flag, unless, key, value, why in FLAG_CORRECTIONS:
                if re.search(flag, text) and not (unless and re.search(unless, text)):
                    old = get_key(cfg, key)
                    value = value(cfg) if callable(value) else value
                    if value is None:
                        continue
                    if old != value:
                        set_key(cfg, key, value)
                        corrections.append(f"{key} {json.dumps(old)} -> {json.dumps(value)} ({why})")
            for key, value, why in CORRECTIONS.get(case, {}).get("set", []):
                old = get_key(cfg, key)
                set_key(cfg, key, value)
                corrections.append(f"{key} {json.dumps(old)} -> {json.dumps(value)} ({why})")
            row = build_row(case, info, imported, corrections, commit_short)
            padding = re.search(r"--(variable-seq-lengths|no-pad-to-seq-lengths)\b", text)
            if padding and not row["ambiguous"]:
                # Every SFT script that pads a batch only to its longest sample, by the same rule
                # as the named cases above.
                row["ambiguous"] = True
                row["notes"] += (f" AMBIGUOUS: SFT with --{padding.group(1)}: batches are padded "
                                 "to their longest sample, so the activations depend on the data; "
                                 "the config's seq_len is an upper bound")
            rows.append(row)
            if args.table:
                est, eerr = estimate(args.trainmem, row["config"], work)
                if est is None:
                    rejected.append((case, eerr))
                    continue
                stages = est.get("pipeline_stages") or []
                if stages:
                    e = max(s["first_iteration_peak_allocated"] for s in stages)
                else:
                    e = est["per_device_bytes"]["first_iteration_peak_allocated"]
                meas = row["measured"]["peak_gib"]
                results.append((case + ("*" if row.get("ambiguous") else ""),
                                features(row["config"], text), meas, e / GIB,
                                100.0 * (e / GIB - meas) / meas))

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows to {args.out}")
    print(f"\nskipped ({len(skipped)}):")
    for case, why in skipped:
        print(f"  {case}: {why}")
    print(f"\nduplicates (identical memo info, the newer case name kept) ({len(duplicates)}): "
          + ", ".join(f"{a} = {b}" for a, b in sorted(duplicates.items())))
    print(f"\nno 'memo info' with a launch script in any commit ({len(no_memo)}): "
          f"{', '.join(sorted(no_memo))}")
    print(f"\nimporter refused ({len(import_failures)}):")
    for case, err in import_failures:
        print(f"  {case}:")
        in_problems = False
        for line in err.splitlines():
            if line.startswith("problems"):
                in_problems = True
            elif in_problems and not line.startswith(" "):
                in_problems = False
            if in_problems or "error" in line.lower():
                print(f"      {line.strip()}")
    if args.table:
        print(f"\nestimate rejected ({len(rejected)}):")
        for case, err in rejected:
            print(f"  {case}: {err}")
        print(f"\n{'case':<44} {'features':<62} {'meas GiB':>8} {'est GiB':>8} {'err %':>7}")
        for case, feat, meas, est, err in sorted(results, key=lambda r: r[4]):
            print(f"{case:<44} {feat:<62} {meas:8.2f} {est:8.2f} {err:+7.1f}")
        print("(* = ambiguous row, left out of the figures below)")
        clean = [r for r in results if not r[0].endswith("*")]
        errs = sorted(abs(r[4]) for r in clean)
        if errs:
            p90 = errs[min(len(errs) - 1, int(round(0.9 * (len(errs) - 1))))]
            print(f"\nrows {len(errs)}  median |error| {statistics.median(errs):.1f}%  "
                  f"p90 {p90:.1f}%  under by >10%: {sum(1 for r in clean if r[4] < -10)}  "
                  f"over by >10%: {sum(1 for r in clean if r[4] > 10)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
