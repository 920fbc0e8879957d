#!/usr/bin/env python3
"""Measured rows from Megatron-LM's functional tests: one trainmem calibration row per training
test case that publishes H100 memory figures.

    tools/megatron_ci_rows.py MIRROR [--trainmem BIN] [--out FILE] [--skipped FILE]

MIRROR is a git directory of NVIDIA/Megatron-LM (read with `git show`, no work tree needed).
For every tests/functional_tests/test_cases/{gpt,moe,mixtral,hybrid}/<case>/ that has both
model_config.yaml and golden_values_dev_dgx_h100.json:

* MODEL_ARGS become a `torchrun ... pretrain_gpt.py` launch script the way the CI's
  tests/functional_tests/shell_test_utils/_run_training.sh turns them into arguments
  (`true` -> the bare flag, `[a b]` -> its words, anything else -> `--flag value`), with
  ENV_VARS exported above it. The world size is the CI's: `nodes` x `gpus` of the
  tests/test_utils/recipes/h100/*.yaml recipe that lists the case (every training recipe says
  nodes 1, gpus 8), and _run_training.sh's defaults (GPUS_PER_NODE 8, NUM_NODES 1) for a
  case no recipe lists.
* `trainmem import --json` reads the script; its `config` is the row's config (device
  h100-80gb, detailed mode).
* The measurement is `mem-max-allocated-bytes`: torch.cuda.memory_stats()
  ['allocated_bytes.all.peak'] logged by megatron/training/training.py on the last rank only
  (the last pipeline stage), never reset, so it is a running maximum. The row takes the largest
  value from iteration 3 on (after the first optimizer step has created the optimizer states).

Rows follow tests/data/calibration.jsonl: `id`, `source`, `config`, `measured` {metric
max_allocated, peak_gib, stage last}, `notes`; and `precision` / `hardware` as the `mg-` rows.
Cases trainmem cannot express or that are not a training run are listed with the reason.
Python 3 standard library only.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

CASES = "tests/functional_tests/test_cases"
RECIPES = "tests/test_utils/recipes/h100"
FAMILIES = ("gpt", "moe", "mixtral", "hybrid")
GOLDEN = "golden_values_dev_dgx_h100.json"
GIB = 1024.0**3

# Paths the CI passes in (recipes' ARGUMENTS); only their file names matter to the importer
# (vocab.json / merges.txt -> the GPT-2 BPE tokenizer).
CI_VARS = {
    "DATA_PATH": "/mnt/artifacts",
    "DATA_CACHE_PATH": "/workspace/data/cache",
    "OUTPUT_PATH": "/output",
    "TENSORBOARD_PATH": "/output/tensorboard",
    "CHECKPOINT_SAVE_PATH": "/output/checkpoints",
    "CHECKPOINT_LOAD_PATH": "/mnt/artifacts",
}

# MODEL_ARGS that change what the run is beyond trainmem's schema: (flag, why). A case with one
# of them is skipped and listed, not estimated with the flag silently dropped.
UNEXPRESSIBLE = [
    ("--use-megatron-fsdp", "Megatron-FSDP (parameter sharding inside Megatron) has no trainmem layout"),
    ("--fine-grained-activation-offloading", "per-module activation offload to the host is not modelled"),
    ("--offload-modules", "per-module activation offload to the host is not modelled"),
    ("--export-kd-teacher-load", "knowledge distillation keeps a teacher model trainmem does not count"),
    ("--flextron", "Flextron's elastic router and nested-width masks are not modelled"),
]


def git(mirror, *args):
    return subprocess.run(["git", "-C", mirror, *args], check=True, capture_output=True,
                          text=True).stdout


def strip_comment(text):
    """YAML comment: a '#' at the start or after whitespace, outside quotes."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i]
    return text


def unquote(value):
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def read_model_config(text):
    """The two mappings the CI reads (MODEL_ARGS, ENV_VARS) and the top-level scalars
    (TEST_TYPE, MODE, ...) of a model_config.yaml: flat `key: value` lines only, which is all
    these files use."""
    sections, scalars, current = {}, {}, None
    for raw in text.splitlines():
        line = strip_comment(raw).rstrip()
        if not line.strip():
            continue
        if not line[0].isspace():
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if value:
                scalars[key] = unquote(value)
                current = None
            else:
                current = sections.setdefault(key, [])
            continue
        if current is None:
            continue
        key, sep, value = line.strip().partition(": ")
        if not sep:  # "--flag:" with nothing after it
            key, value = line.strip().rstrip(":"), ""
        current.append((unquote(key), unquote(value)))
    return sections, scalars


def substitute(value):
    return re.sub(r"\$\{(\w+)\}", lambda m: CI_VARS.get(m.group(1), "/" + m.group(1).lower()),
                  value)


def shell_quote(word):
    if re.fullmatch(r"[A-Za-z0-9_./:=,+-]+", word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def argv_words(model_args):
    """MODEL_ARGS -> argument words, as _run_training.sh builds them (see module doc)."""
    words = []
    for key, value in model_args:
        value = substitute(str(value))
        if value == "true":
            words.append(key)
        elif value == "" or value == "false":
            # _run_training.sh drops empty values; `false` would reach argparse as a word, which
            # a store_true flag refuses: no case writes it, and it is treated as absent.
            continue
        elif re.fullmatch(r"\[[^]]+\]", value):
            words.append(key)
            words.extend(value[1:-1].split())
        else:
            words.extend([key, value])
    return words


def recipe_world_sizes(mirror, commit):
    """test case -> (nodes * gpus, recipe path) from the H100 recipes that list it."""
    sizes = {}
    for path in git(mirror, "ls-tree", "--name-only", commit, RECIPES + "/").split():
        text = git(mirror, "show", f"{commit}:{path}")
        nodes = re.search(r"^\s*nodes:\s*(\d+)", text, re.M)
        gpus = re.search(r"^\s*gpus:\s*(\d+)", text, re.M)
        model = re.search(r"^\s*model:\s*(\S+)", text, re.M)
        if not (nodes and gpus and model):
            continue
        world = int(nodes.group(1)) * int(gpus.group(1))
        for names in re.findall(r"test_case:\s*\[([^]]*)\]", text):
            for name in names.split(","):
                name = name.strip()
                if name:
                    sizes.setdefault((model.group(1), name), []).append((world, path))
    return sizes


def steady_peak(golden):
    """Largest mem-max-allocated-bytes from iteration 3 on, its iteration, and the median
    mem-allocated-bytes over the same iterations."""
    peak = golden.get("mem-max-allocated-bytes", {}).get("values", {})
    cur = golden.get("mem-allocated-bytes", {}).get("values", {})
    steps = sorted((int(k), v) for k, v in peak.items() if v not in (None, "nan") and int(k) >= 3)
    if not steps:
        return None
    it, value = max(steps, key=lambda kv: kv[1])
    static = sorted(v for k, v in cur.items() if v not in (None, "nan") and int(k) >= 3)
    return (float(value), it, static[len(static) // 2] if static else None, len(steps))


def features(words):
    """Short labels of the memory-relevant settings, for the table."""
    a = {}
    i = 0
    while i < len(words):
        if words[i].startswith("--"):
            key = words[i]
            vals = []
            while i + 1 < len(words) and not words[i + 1].startswith("--"):
                vals.append(words[i + 1])
                i += 1
            a[key] = " ".join(vals) if vals else True
        i += 1
    out = []
    for flag, label in (("--tensor-model-parallel-size", "TP"),
                        ("--pipeline-model-parallel-size", "PP"),
                        ("--context-parallel-size", "CP"),
                        ("--expert-model-parallel-size", "EP"),
                        ("--expert-tensor-parallel-size", "ETP")):
        if flag in a and str(a[flag]) != "1":
            out.append(f"{label}{a[flag]}")
    if "--num-layers-per-virtual-pipeline-stage" in a:
        out.append(f"VPPl{a['--num-layers-per-virtual-pipeline-stage']}")
    if "--num-virtual-stages-per-pipeline-rank" in a:
        out.append(f"VPP{a['--num-virtual-stages-per-pipeline-rank']}")
    if "--pipeline-model-parallel-layout" in a:
        out.append("layout")
    pattern = str(a.get("--hybrid-layer-pattern", ""))
    if pattern:
        # '|' segments: PP × virtual stages (megatron/training/arguments.py)
        out.append(f"hybrid-{pattern.split('/')[0].count('|') + 1}seg")
    if "--num-experts" in a:
        out.append(f"E{a['--num-experts']}top{a.get('--moe-router-topk', 2)}")
        out.append(a.get("--moe-token-dispatcher-type", "allgather"))
        if "--moe-grouped-gemm" in a:
            out.append("gGEMM")
    if "--mtp-num-layers" in a:
        out.append(f"MTP{a['--mtp-num-layers']}")
    if "--multi-latent-attention" in a:
        out.append("MLA")
    if "--fp8-format" in a:
        out.append(f"fp8-{a['--fp8-format']}/{a.get('--fp8-recipe', 'delayed')}")
    if "--fp16" in a:
        out.append("fp16")
    if "--recompute-granularity" in a:
        out.append(f"rc-{a['--recompute-granularity']}")
    if a.get("--attention-backend") == "unfused" or a.get("--transformer-impl") == "local":
        out.append("unfused-attn")
    if "--use-distributed-optimizer" in a:
        out.append("distopt")
    if "--sequence-parallel" in a:
        out.append("SP")
    if "--swiglu" in a:
        out.append("swiglu")
    if "--cross-entropy-loss-fusion" in a:
        out.append("CEfusion")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mirror")
    ap.add_argument("--commit", default="HEAD")
    ap.add_argument("--trainmem", default="/work/main/build/native-release/trainmem")
    ap.add_argument("--out", default="tests/data/megatron_ci.jsonl")
    ap.add_argument("--skipped", default=None, help="write the skipped cases (JSON lines) here")
    opts = ap.parse_args()
    commit = git(opts.mirror, "rev-parse", opts.commit).strip()
    worlds = recipe_world_sizes(opts.mirror, commit)
    rows, skipped = [], []
    tmp = tempfile.mkdtemp(prefix="megci-")
    for family in FAMILIES:
        listing = git(opts.mirror, "ls-tree", "--name-only", commit, f"{CASES}/{family}/").split()
        for folder in listing:
            case = folder.rsplit("/", 1)[1]
            files = git(opts.mirror, "ls-tree", "--name-only", commit, folder + "/").split()
            names = {f.rsplit("/", 1)[1] for f in files}
            if "model_config.yaml" not in names or GOLDEN not in names:
                continue

            def skip(why):
                skipped.append({"case": f"{family}/{case}", "why": why})

            sections, scalars = read_model_config(
                git(opts.mirror, "show", f"{commit}:{folder}/model_config.yaml"))
            mode = scalars.get("MODE", "pretraining")
            test_type = scalars.get("TEST_TYPE", "")
            if mode in ("inference", "rl"):
                skip(f"MODE {mode}: not a training run")
                continue
            if test_type == "release":
                skip("TEST_TYPE release: no H100 recipe in the tree says its node count")
                continue
            if "MODEL_ARGS" not in sections:
                skip("no MODEL_ARGS")
                continue
            words = argv_words(sections["MODEL_ARGS"])
            joined = " ".join(words)
            why = next((w for flag, w in UNEXPRESSIBLE
                        if re.search(re.escape(flag) + r"(\s|$)", joined)), None)
            if why:
                skip(why)
                continue
            golden = json.loads(git(opts.mirror, "show", f"{commit}:{folder}/{GOLDEN}"))
            peak = steady_peak(golden)
            if peak is None:
                skip("no mem-max-allocated-bytes from iteration 3 on in " + GOLDEN)
                continue
            where = worlds.get((family, case)) or worlds.get(("gpt" if family == "mixtral" else family, case))
            if where:
                world, recipe = where[0]
                world_note = f"world {world} from {recipe} (nodes x gpus)"
            else:
                world, recipe = 8, None
                world_note = ("world 8: no H100 recipe lists the case; _run_training.sh defaults "
                              "GPUS_PER_NODE=8, NUM_NODES=1")
            env = sections.get("ENV_VARS", [])
            script = ["#!/bin/bash"]
            script += [f"export {k}={shell_quote(substitute(str(v)))}" for k, v in env if k]
            script.append(f"GPUS_PER_NODE={world}")
            script.append("NNODES=1")
            script.append("torchrun --nproc_per_node $GPUS_PER_NODE --nnodes $NNODES pretrain_gpt.py \\")
            script.append("  " + " \\\n  ".join(shell_quote(w) for w in words))
            path = os.path.join(tmp, case + ".sh")
            with open(path, "w") as f:
                f.write("\n".join(script) + "\n")
            run = subprocess.run([opts.trainmem, "import", "--json", path], capture_output=True,
                                 text=True)
            try:
                imported = json.loads(run.stdout)
            except json.JSONDecodeError:
                skip("trainmem import failed: " + (run.stderr.strip().splitlines() or ["?"])[-1])
                continue
            config = imported.get("config")
            if not config:
                skip("trainmem import gave no config: " + json.dumps(imported.get("problems")))
                continue
            config["device"] = "h100-80gb"
            config["mode"] = "detailed"
            value, it, static, nsteps = peak
            ignored = [i["key"] for i in imported.get("ignored", [])
                       if not re.search(r"I/O, logging|does not change device memory", i.get("reason", ""))]
            problems = [p if isinstance(p, str) else json.dumps(p) for p in imported.get("problems", [])]
            notes = (
                f"Megatron CI functional test {family}/{case} ({test_type or 'regular'}), "
                f"{world_note}. mem-max-allocated-bytes (torch.cuda.memory_stats()"
                f"['allocated_bytes.all.peak'], logged by megatron/training/training.py on the "
                f"last rank only = last pipeline stage, a running maximum) = {value:.0f} B = "
                f"{value / GIB:.3f} GiB at iteration {it} (largest over {nsteps} logged "
                f"iterations from 3 on)"
                + (f"; median mem-allocated-bytes from iteration 3 = {static / GIB:.3f} GiB"
                   if static else "")
                + ". Config from `trainmem import` of the MODEL_ARGS written as a pretrain_gpt.py "
                "launch script (true -> flag, [a b] -> words, as _run_training.sh does), "
                "device assumed H100 80GB (golden_values_dev_dgx_h100)."
                + (f" Import left out: {'; '.join(ignored)}." if ignored else "")
                + (f" Import problems: {'; '.join(problems)}." if problems else "")
            )
            rows.append({
                "id": f"mgci-{case}",
                "source": f"NVIDIA/Megatron-LM@{commit}:{folder}/{GOLDEN} (+model_config.yaml)",
                "ambiguous": False,
                "config": config,
                "measured": {"metric": "max_allocated", "peak_gib": round(value / GIB, 4),
                             "stage": "last",
                             **({"static_gib": round(static / GIB, 4)} if static else {})},
                "notes": notes,
                "precision": "fp8" if "--fp8-format" in words else
                             ("fp16-mixed" if "--fp16" in words else "bf16-mixed fp32-master"),
                "hardware": "H100 80GB",
                "family": family,
                "features": features(words),
            })
    os.makedirs(os.path.dirname(opts.out) or ".", exist_ok=True)
    with open(opts.out, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    if opts.skipped:
        with open(opts.skipped, "w") as f:
            for s in skipped:
                f.write(json.dumps(s) + "\n")
    print(f"{len(rows)} rows -> {opts.out}; {len(skipped)} skipped", file=sys.stderr)
    for s in skipped:
        print(f"  skipped {s['case']}: {s['why']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
