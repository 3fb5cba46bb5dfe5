#!/usr/bin/env python3
"""Time Storm on the explicit files of the PRISM reference set, as process CPU time.

Every measurement is one child process; its CPU time (user + system) is read with
os.wait4 / resource usage of that child, so other load on the (shared) machine does not
count. Modes, run alternately for --reps rounds:

  exact        Storm exact mode: the stormpy exact environment (topological solver,
               rational search) on a model with rational numbers
  exact-eigen  Storm exact mode with Eigen's sparse LU over rationals (option --exact-eigen)
  sound        Storm sound float mode: sound environment (topological, optimistic value
               iteration), precision --precision (relative by default, --absolute otherwise)

Storm reads the SAME explicit files each time, not the PRISM model: before timing, the
instance's model.tra/model.lab/<reward>.srew (exact p/q) are transcoded once, untimed, into
  - a decimal copy of model.tra/.srew for Storm's explicit parser (it reads doubles only;
    it rejects 'p/q'), used by 'sound',
  - a DRN file with the same p/q numbers for Storm's exact DRN parser, used by 'exact'.
The child's CPU therefore covers: Python start + import stormpy, parsing the file, model
checking. The child also reports its own parse and check CPU (time.process_time), and the
answer, which is compared with expected.json.

Other solvers can be timed in the same alternation with --also 'label=command', where the
command may use {tra} {lab} {srew} {target} {question} {dir} (the committed exact files);
its stdout's last line is shown as its answer. Example for the Rust solver (once it exists):
  --also 'absorbing=target/release/absorbing-cli {tra} {lab} --target {target} --srew {srew}'

Usage:
  /tmp/stormvenv/bin/python crates/absorbing/tests/prism/storm_times.py brp-N64-MAX5 [--prop p1]
      [--reps 5] [--modes exact,sound] [--precision 1e-9] [--json out.json]
  /tmp/stormvenv/bin/python crates/absorbing/tests/prism/storm_times.py --all --reps 3 --markdown
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

# exact answers can be long (brp-N256-MAX5: 5675-digit numerator), beyond Python's default
# 4300-digit limit for int <-> str
sys.set_int_max_str_digits(0)

HERE = Path(__file__).resolve().parent
WORKSPACE = HERE.parents[3]
PYTHON = sys.executable


# ---------------------------------------------------------------- transcoding (untimed)

def read_tra(path: Path):
    with path.open() as f:
        head = f.readline().strip()
        assert head == "dtmc", f"{path}: first line {head!r}, expected 'dtmc'"
        rows: list[list[tuple[int, str]]] = []
        for line in f:
            if not line.strip():
                continue
            s, t, p = line.split()
            s = int(s)
            while len(rows) <= s:
                rows.append([])
            rows[s].append((int(t), p))
    return rows


def read_lab(path: Path):
    lines = path.read_text().split("\n")
    assert lines[0] == "#DECLARATION" and lines[2] == "#END"
    per_state: dict[int, list[str]] = {}
    for line in lines[3:]:
        if line:
            s, *names = line.split()
            per_state[int(s)] = names
    return lines[1].split(), per_state


def read_srew(path: Path) -> dict[int, str]:
    out = {}
    for line in path.read_text().split("\n"):
        if line:
            s, v = line.split()
            out[int(s)] = v
    return out


def dec(p: str) -> str:
    """Nearest double, shortest round-trip decimal (what Storm's strtod then reads back exactly)."""
    return repr(float(Fraction(p)))


def transcode(inst_dir: Path, reward: str | None, work: Path) -> dict:
    rows = read_tra(inst_dir / "model.tra")
    _, per_state = read_lab(inst_dir / "model.lab")
    rew = read_srew(inst_dir / f"{reward}.srew") if reward else None
    out = dict(lab=str(inst_dir / "model.lab"))
    tra = work / "model.decimal.tra"
    with tra.open("w") as f:
        f.write("dtmc\n")
        for s, row in enumerate(rows):
            for t, p in row:
                f.write(f"{s} {t} {dec(p)}\n")
    out["tra"] = str(tra)
    if rew is not None:
        srew = work / "reward.decimal.srew"
        with srew.open("w") as f:
            for s in sorted(rew):
                f.write(f"{s} {dec(rew[s])}\n")
        out["srew"] = str(srew)
    drn = work / "model.drn"
    with drn.open("w") as f:
        f.write("@type: DTMC\n@value_type: rational\n@parameters\n\n@reward_models\n")
        f.write((reward or "") + "\n@nr_states\n" + str(len(rows)) + "\n@nr_choices\n" + str(len(rows)) + "\n@model\n")
        for s, row in enumerate(rows):
            # a state without [reward] has reward 0; writing "[0]" for every such state makes
            # Storm's DRN parser several times slower (egl-N5-L2: 2.7 s instead of 0.4 s)
            r = f" [{rew[s]}]" if rew is not None and s in rew else ""
            f.write(f"state {s}{r} {' '.join(per_state.get(s, []))}\n\taction 0\n")
            for t, p in row:
                f.write(f"\t\t{t} : {p}\n")
    out["drn"] = str(drn)
    return out


# ---------------------------------------------------------------- child (timed)

def child(args) -> None:
    t0 = time.process_time()
    import stormpy  # noqa: the import is part of what the parent measures, and reported apart
    t_import = time.process_time() - t0
    files = json.loads(args.child_files)
    question = f'{"P" if args.question == "reach_probability" else "R"}=? [F "{args.target}"]'
    if args.child in ("exact", "exact-eigen"):
        t = time.process_time()
        model = stormpy.build_model_from_drn[stormpy.Rational](files["drn"])
        t_parse = time.process_time() - t
        env = stormpy.environments.exact()
        if args.child == "exact-eigen":
            import stormpy.developer as dev
            env.solver().set_linear_equation_solver_type(dev.EquationSolverType.EIGEN)
    else:
        t = time.process_time()
        model = stormpy.build_model_from_explicit(files["tra"], files["lab"], state_rewards=files.get("srew"))
        t_parse = time.process_time() - t
        env = stormpy.environments.sound()
        native = env.solver().native()
        native.precision = stormpy.Rational(args.precision)
        native.relative_termination_criterion = not args.absolute
    prop = stormpy.parse_property(question)
    t = time.process_time()
    result = stormpy.model_checking(model, prop, environment=env)
    t_check = time.process_time() - t
    values = [result.get_value(s) for s in model.initial_states]
    if args.child.startswith("exact"):
        values = [Fraction(int(str(v.numerator)), int(str(v.denominator))) if str(v) != "inf" else float("inf")
                  for v in values]
    if args.init_filter == "max":
        value = max(values)
    elif args.init_filter == "min":
        value = min(values)
    else:
        assert len(values) == 1
        value = values[0]
    if isinstance(value, Fraction):
        value = str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    print(json.dumps(dict(value=value if isinstance(value, str) else float(value), import_s=t_import,
                          parse_s=t_parse, check_s=t_check, states=model.nr_states,
                          transitions=model.nr_transitions)))


# ---------------------------------------------------------------- parent

def run_measured(cmd: list[str] | str, shell: bool = False) -> tuple[float, float, int, str, int]:
    """Run one child; return (cpu_s, wall_s, rc, stdout, maxrss_kb). CPU = user+sys of that child only."""
    t = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen(cmd, shell=shell, stdout=out, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t
        out.seek(0)
        text = out.read().decode()
    return ru.ru_utime + ru.ru_stime, wall, p.returncode, text, ru.ru_maxrss


def load_expected() -> dict:
    return json.loads((HERE / "expected.json").read_text())


def time_property(inst: dict, prop: dict, args) -> dict:
    inst_dir = WORKSPACE / inst["path"]
    if not (inst_dir / "model.tra").exists():
        raise SystemExit(f"{inst_dir}/model.tra missing: regenerate with export.py --only {inst['name']}")
    reward = prop["reward_file"][:-len(".srew")] if prop["reward_file"] else None
    modes = args.modes.split(",")
    rows = {m: [] for m in modes}
    also = []
    for spec in args.also:
        label, _, cmd = spec.partition("=")
        also.append((label, cmd))
        rows[label] = []
    with tempfile.TemporaryDirectory(prefix="storm_times_") as work:
        files = transcode(inst_dir, reward, Path(work))
        fmt = dict(tra=inst_dir / "model.tra", lab=inst_dir / "model.lab",
                   srew=(inst_dir / prop["reward_file"]) if reward else "", target=prop["target_label"],
                   question=prop["question"], dir=inst_dir)
        for rep in range(args.reps):
            order = modes + [a[0] for a in also]
            if rep % 2:
                order = order[::-1]  # alternate the order so that no mode always runs first
            for mode in order:
                if mode in modes:
                    cmd = [PYTHON, str(Path(__file__).resolve()), "--child", mode,
                           "--child-files", json.dumps(files), "--target", prop["target_label"],
                           "--question", prop["question"], "--precision", args.precision]
                    if args.absolute:
                        cmd.append("--absolute")
                    if prop["init_filter"]:
                        cmd += ["--init-filter", prop["init_filter"]]
                    cpu, wall, rc, text, rss = run_measured(cmd)
                    if rc != 0:
                        raise SystemExit(f"{inst['name']} {prop['name']} {mode}: child failed (rc {rc})")
                    info = json.loads(text.strip().split("\n")[-1])
                else:
                    cmd = dict(also)[mode].format(**{k: str(v) for k, v in fmt.items()})
                    cpu, wall, rc, text, rss = run_measured(cmd, shell=True)
                    info = dict(value=(text.strip().split("\n") or [""])[-1], rc=rc)
                info.update(cpu_s=cpu, wall_s=wall, maxrss_kb=rss)
                rows[mode].append(info)
                if args.verbose:
                    print(f"  {inst['name']} {prop['name']} {mode} rep {rep}: cpu {cpu:.3f}s", file=sys.stderr, flush=True)
    summary = dict(instance=inst["name"], property=prop["name"], states=inst["states"],
                   transitions=inst["transitions"], reps=args.reps, modes={})
    for mode, runs in rows.items():
        cpus = [r["cpu_s"] for r in runs]
        s = dict(cpu_median_s=statistics.median(cpus), cpu_min_s=min(cpus), cpu_all_s=cpus,
                 wall_median_s=statistics.median(r["wall_s"] for r in runs),
                 maxrss_kb=max(r["maxrss_kb"] for r in runs), value=runs[-1].get("value"))
        if "check_s" in runs[0]:
            s["import_median_s"] = statistics.median(r["import_s"] for r in runs)
            s["parse_median_s"] = statistics.median(r["parse_s"] for r in runs)
            s["check_median_s"] = statistics.median(r["check_s"] for r in runs)
            s["storm_median_s"] = statistics.median(r["parse_s"] + r["check_s"] for r in runs)
        if mode.startswith("exact"):
            s["matches_expected"] = runs[-1].get("value") == prop["exact"]
        elif mode == "sound":
            v, e = runs[-1]["value"], prop["exact_float"]
            s["matches_expected"] = abs(v - e) <= 1.01 * float(args.precision) * (1 if args.absolute else abs(e))
        summary["modes"][mode] = s
    return summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("instances", nargs="*", help="instance names from expected.json")
    ap.add_argument("--all", action="store_true", help="every instance of expected.json whose files exist")
    ap.add_argument("--prop", default=None, help="only this property (default: all of the instance)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--modes", default="exact,sound", help="comma list of exact, exact-eigen, sound")
    ap.add_argument("--precision", default="1e-9")
    ap.add_argument("--absolute", action="store_true", help="absolute instead of relative precision")
    ap.add_argument("--also", action="append", default=[], help="'label=shell command' timed alongside")
    ap.add_argument("--json", default=None, help="write all measurements to this file")
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--render", nargs="*", default=None, help="print the markdown table of saved --json files, time nothing")
    # internal: one timed child
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--child-files", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--target", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--question", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--init-filter", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args)
        return

    expected = load_expected()
    by_name = {i["name"]: i for i in expected["instances"]}
    if args.render is not None:
        saved = []
        for path in args.render:
            saved += json.loads(Path(path).read_text())["results"]
        print_markdown(saved, by_name)
        return
    names = args.instances or ([i["name"] for i in expected["instances"]
                                if (WORKSPACE / i["path"] / "model.tra").exists()] if args.all else [])
    if not names:
        ap.error("name instances or use --all")
    results = []
    for name in names:
        inst = by_name[name]
        for prop in inst["properties"]:
            if args.prop and prop["name"] != args.prop:
                continue
            r = time_property(inst, prop, args)
            results.append(r)
            line = ", ".join(f"{m} {s['cpu_median_s']:.3f}s" + (f" (storm {s['storm_median_s']:.3f}s)" if "storm_median_s" in s else "")
                             + ("" if s.get("matches_expected", True) else " MISMATCH")
                             for m, s in r["modes"].items())
            print(f"{name} {prop['name']}: {line}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(dict(
            storm_version=expected["storm_version"], precision=args.precision,
            relative=not args.absolute, cpu="user+sys CPU of each child process (os.wait4)",
            host_cpus=os.cpu_count(), date=time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
            results=results), indent=1) + "\n")
    if args.markdown:
        print_markdown(results, by_name)


def print_markdown(results: list, by_name: dict) -> None:
    """One row per instance and property: per mode the child's CPU (median) and Storm's own part."""
    modes = list(results[0]["modes"]) if results else []
    head = "| model | params | property | states | transitions |"
    for m in modes:
        head += f" {m}: child CPU s | {m}: Storm parse + check CPU s |"
    print(head)
    print("|" + "---|" * (5 + 2 * len(modes)))
    for r in results:
        inst = by_name[r["instance"]]
        cells = []
        for m in modes:
            s = r["modes"][m]
            flag = "" if s.get("matches_expected", True) else " (MISMATCH)"
            cells.append(f"{s['cpu_median_s']:.3f}{flag}")
            if "storm_median_s" in s:
                cells.append(f"{s['parse_median_s']:.3f} + {s['check_median_s']:.3f}")
            else:
                cells.append("")
        params = inst["constants"] or inst["model_file"].split("/")[-1]
        print(f"| {inst['model']} | {params} | {r['property']} | {r['states']} | {r['transitions']} | "
              + " | ".join(cells) + " |")

if __name__ == "__main__":
    main()
