#!/usr/bin/env python3
"""Estimate vs measurement for the rows of tools/megatron_ci_rows.py.

    tools/megatron_ci_table.py [ROWS.jsonl] [--trainmem BIN] [--markdown]

Runs `trainmem estimate --json` on each row's config and compares the last pipeline stage's
peak_allocated with the measured mem-max-allocated-bytes (the same pairing as
trainmem_accuracy). Also compares the static part (parameters + gradients + optimizer states of
that stage) with the median mem-allocated-bytes the CI logged between iterations, which tells a
miss in the states from a miss in the activations. Prints one line per row and the median /
p90 |error| and the count under-estimated by more than 10%, for MoE and dense rows apart.
Python 3 standard library only.
"""
import argparse
import json
import subprocess
import sys
import tempfile

GIB = 1024.0**3


def pct(values, p):
    v = sorted(values)
    if not v:
        return 0.0
    idx = p * (len(v) - 1)
    lo, hi = int(idx), min(int(idx) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (idx - lo)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rows", nargs="?", default="tests/data/megatron_ci.jsonl")
    ap.add_argument("--trainmem", default="build/native-release/trainmem")
    ap.add_argument("--markdown", action="store_true")
    opts = ap.parse_args()
    results = []
    for line in open(opts.rows):
        row = json.loads(line)
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(row["config"], f)
            f.flush()
            run = subprocess.run([opts.trainmem, "estimate", "--json", f.name],
                                 capture_output=True, text=True)
        kind = "moe" if row["config"]["model"].get("n_routed_experts") else "dense"
        m = row["measured"]
        r = {"id": row["id"], "kind": kind, "features": " ".join(row.get("features", [])),
             "measured": m["peak_gib"], "static": m.get("static_gib")}
        if run.returncode != 0 or not run.stdout.strip():
            r["error_text"] = (run.stderr.strip() or run.stdout.strip()).splitlines()
            results.append(r)
            continue
        est = json.loads(run.stdout)
        last = est["pipeline_stages"][-1]
        r["estimate"] = last["peak_allocated"] / GIB
        r["est_static"] = (last["parameters"] + last["gradients"] + last["optimizer_states"]) / GIB
        r["err"] = (r["estimate"] - r["measured"]) / r["measured"]
        results.append(r)

    if opts.markdown:
        print("| case | kind | features | measured GiB | estimate GiB | error | static meas / est GiB |")
        print("|---|---|---|---:|---:|---:|---|")
    for r in results:
        if "err" not in r:
            line = f"{r['id']}: REJECTED: {' / '.join(r['error_text'])}"
            print(f"| {r['id']} | {r['kind']} | {r['features']} | {r['measured']:.3f} | rejected | | |"
                  if opts.markdown else line)
            continue
        st = (f"{r['static']:.3f} / {r['est_static']:.3f}" if r["static"] is not None else "-")
        if opts.markdown:
            print(f"| {r['id'][5:]} | {r['kind']} | {r['features']} | {r['measured']:.3f} | "
                  f"{r['estimate']:.3f} | {100 * r['err']:+.1f}% | {st} |")
        else:
            print(f"{r['id'][5:]:<88} {r['kind']:<5} {r['measured']:8.3f} {r['estimate']:8.3f} "
                  f"{100 * r['err']:+7.1f}%  static {st:<16} {r['features']}")
    print()
    for kind in ("moe", "dense", "all"):
        sel = [r for r in results if "err" in r and (kind == "all" or r["kind"] == kind)]
        rej = [r for r in results if "err" not in r and (kind == "all" or r["kind"] == kind)]
        errs = [abs(r["err"]) for r in sel]
        under = sum(1 for r in sel if r["err"] < -0.10)
        print(f"{kind:<6} rows {len(sel):3}  median |error| {100 * pct(errs, 0.5):5.1f}%  "
              f"p90 {100 * pct(errs, 0.9):5.1f}%  under by >10%: {under:3}  rejected: {len(rej)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
