#!/usr/bin/env python3
"""Regenerate the PRISM reference set for the `absorbing` crate with Storm (stormpy).

For every instance below this script

1. builds the PRISM model with Storm's exact (rational) sparse builder,
2. writes the chain as explicit files: ``model.tra`` (exact ``p/q``), ``model.lab``
   (Storm's ``#DECLARATION`` syntax, one label per property target plus ``init``
   and ``deadlock``), one ``<reward>.srew`` per reward structure that a property uses,
3. asks Storm for the exact answer (exact environment) and for the sound float
   answer (sound environment, precision 1e-9 relative) of every reachability
   property ``P=? [F phi]`` and every ``R=? [F phi]``,
4. reads the written files back into Storm, twice:
   - as a DRN transcoding of the same numbers (Storm's explicit ``.tra`` parser
     reads doubles only, its DRN parser reads ``p/q``) -> the exact answers of
     all states and the transition matrix must be identical,
   - as a decimal copy through Storm's explicit ``.tra/.lab/.srew`` parser ->
     the sound float answers must agree to 1e-8 relative,
5. writes ``expected.json`` (next to this script).

Small instances are written next to this script and committed; large ones
(``commit=False``) go to ``<workspace>/target/prism/<name>/`` and are only
regenerated.

Usage (from anywhere):
    /tmp/stormvenv/bin/python crates/absorbing/tests/prism/export.py            # everything
    /tmp/stormvenv/bin/python crates/absorbing/tests/prism/export.py --small    # committed ones only
    /tmp/stormvenv/bin/python crates/absorbing/tests/prism/export.py --only brp-N16-MAX2
With --small/--only the other entries of expected.json are kept as they are.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

# exact answers can be long (brp-N256-MAX5: 5675-digit numerator), beyond Python's default
# 4300-digit limit for int <-> str
sys.set_int_max_str_digits(0)

import stormpy
import stormpy.info
import stormpy.io

HERE = Path(__file__).resolve().parent
WORKSPACE = HERE.parents[3]  # crates/absorbing/tests/prism -> workspace root
LARGE_ROOT = WORKSPACE / "target" / "prism"
SOUND_PRECISION = "1e-9"  # relative, see sound_env()
FLOAT_REREAD_TOLERANCE = 1e-8  # relative, float answer of the exported files vs. of the PRISM model
VALUES_FILE_LIMIT = 200_000  # bytes; per-state exact values are committed only below this size

# name, model file and property files (relative to models/), constants, listed in
# the suite's `models` file?, committed?
INSTANCES = [
    dict(name="brp-N16-MAX2", model="brp", file="brp/brp.pm", consts="N=16,MAX=2",
         props=["brp/p1.pctl", "brp/p2.pctl", "brp/p4.pctl"], listed=True, commit=True),
    dict(name="brp-N64-MAX5", model="brp", file="brp/brp.pm", consts="N=64,MAX=5",
         props=["brp/p1.pctl", "brp/p2.pctl", "brp/p4.pctl"], listed=True, commit=True),
    dict(name="brp-N256-MAX5", model="brp", file="brp/brp.pm", consts="N=256,MAX=5",
         props=["brp/p1.pctl", "brp/p2.pctl", "brp/p4.pctl"], listed=False, commit=False),
    dict(name="crowds-R3-C5", model="crowds", file="crowds/crowds.pm", consts="TotalRuns=3,CrowdSize=5",
         props=["crowds/positive.pctl"], listed=True, commit=True),
    dict(name="crowds-R4-C10", model="crowds", file="crowds/crowds.pm", consts="TotalRuns=4,CrowdSize=10",
         props=["crowds/positive.pctl"], listed=True, commit=False),
    dict(name="crowds-R5-C10", model="crowds", file="crowds/crowds.pm", consts="TotalRuns=5,CrowdSize=10",
         props=["crowds/positive.pctl"], listed=True, commit=False),
    dict(name="egl-N2-L2", model="egl", file="egl/egl.pm", consts="N=2,L=2",
         props=["egl/unfairA.pctl", "egl/unfairB.pctl", "egl/messagesA.pctl", "egl/messagesB.pctl"],
         listed=False, commit=True),
    dict(name="egl-N5-L2", model="egl", file="egl/egl.pm", consts="N=5,L=2",
         props=["egl/unfairA.pctl", "egl/unfairB.pctl", "egl/messagesA.pctl", "egl/messagesB.pctl"],
         listed=True, commit=False),
    dict(name="egl-N5-L8", model="egl", file="egl/egl.pm", consts="N=5,L=8",
         props=["egl/unfairA.pctl", "egl/unfairB.pctl", "egl/messagesA.pctl", "egl/messagesB.pctl"],
         listed=True, commit=False),
    dict(name="herman-N7", model="herman", file="herman/herman7.pm", consts="",
         props=["herman/steps.pctl"], listed=True, commit=True),
    # herman-N9, not N11/N13: Storm's exact mode needs 9 CPU-s for N9 and did not finish N11 in
    # 2.5 CPU-min nor N13 in 5 (rational search on one big SCC); see docs/prism-set.md
    dict(name="herman-N9", model="herman", file="herman/herman9.pm", consts="",
         props=["herman/steps.pctl"], listed=True, commit=True),
    dict(name="leader_sync-N4-K3", model="leader_sync", file="leader_sync/leader_sync4_3.pm", consts="",
         props=["leader_sync/eventually_elected.pctl", "leader_sync/time.pctl"], listed=True, commit=True),
    dict(name="leader_sync-N5-K4", model="leader_sync", file="leader_sync/leader_sync5_4.pm", consts="",
         props=["leader_sync/eventually_elected.pctl", "leader_sync/time.pctl"], listed=True, commit=True),
    dict(name="leader_sync-N6-K4", model="leader_sync", file="leader_sync/leader_sync6_4.pm", consts="",
         props=["leader_sync/eventually_elected.pctl", "leader_sync/time.pctl"], listed=False, commit=False),
    dict(name="nand-N5-K1", model="nand", file="nand/nand.pm", consts="N=5,K=1",
         props=["nand/reliable.pctl"], listed=False, commit=True),
    dict(name="nand-N20-K1", model="nand", file="nand/nand.pm", consts="N=20,K=1",
         props=["nand/reliable.pctl"], listed=True, commit=False),
    dict(name="nand-N20-K3", model="nand", file="nand/nand.pm", consts="N=20,K=3",
         props=["nand/reliable.pctl"], listed=True, commit=False),
]


# ---------------------------------------------------------------- properties

PROP_LINE = re.compile(r'^\s*"(?P<name>[^"]+)"\s*:\s*(?P<body>.*?);?\s*$')
FILTER = re.compile(r'^filter\(\s*(?P<op>\w+)\s*,\s*(?P<inner>.*)\s*,\s*"init"\s*\)$')


def read_properties(pctl: Path) -> list[dict]:
    """The named properties of a .pctl file, classified.

    Returns dicts with: name, text (as in the file), storm_text (what Storm checks),
    init_filter (None or 'max'/'min'/...), note, skip (reason or None).
    """
    out = []
    for line in pctl.read_text().splitlines():
        if line.strip().startswith("//") or not line.strip():
            continue
        m = PROP_LINE.match(line)
        if not m:
            raise SystemExit(f"{pctl}: cannot read property line {line!r}")
        name, body = m["name"], m["body"].strip()
        entry = dict(name=name, text=body, storm_text=body, init_filter=None, note=None, skip=None)
        f = FILTER.match(body)
        if f:
            # filter(op, phi, "init"): Storm computes phi for all states, op is taken over the init states
            entry["init_filter"] = f["op"]
            entry["storm_text"] = f["inner"].strip()
        b = re.match(r"^P\s*>=\s*1\s*\[(.*)\]$", entry["storm_text"])
        if b:
            # a qualitative 'probability 1' query: we record the probability itself, P=? [...]
            entry["storm_text"] = f"P=? [{b[1]}]"
            entry["note"] = "the suite asks P>=1 [...]; we record the probability P=? [...] (the bound holds iff it is 1)"
        out.append(entry)
    return out


def classify(formula) -> tuple[str | None, str | None]:
    """('reach_probability' | 'expected_reward', None) or (None, reason to skip)."""
    if formula.is_probability_operator_formula:
        kind = "reach_probability"
    elif formula.is_reward_operator_formula:
        kind = "expected_reward"
    else:
        return None, "neither P nor R operator"
    if formula.has_bound:
        return None, "has a bound (qualitative query)"
    sub = formula.subformula
    if not sub.is_eventually_formula or sub.is_bounded_until_formula:
        return None, f"path formula is not an unbounded eventually: {sub}"
    return kind, None


# ---------------------------------------------------------------- numbers

def frac(value) -> Fraction:
    """A Storm Rational as a Python Fraction (exactly)."""
    return Fraction(int(str(value.numerator)), int(str(value.denominator)))


def frac_str(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def is_inf(value) -> bool:
    return str(value) in ("inf", "infinity", "Infinity")


def sound_env():
    env = stormpy.environments.sound()
    native = env.solver().native()
    native.precision = stormpy.Rational(SOUND_PRECISION)
    native.relative_termination_criterion = True
    return env


def exact_env():
    return stormpy.environments.exact()


def env_description(env) -> str:
    s = env.solver()
    n = s.native()
    return (f"solver={s.get_linear_equation_solver_type()}, native method={n.method}, "
            f"precision={n.precision}, relative={n.relative_termination_criterion}, "
            f"force_exact={s.force_exact}, force_soundness={s.force_soundness}")


def storm_version() -> str:
    return f"Storm {stormpy.info.storm_version()} ({stormpy.info.storm_long_version()}), stormpy {stormpy.__version__}"


# ---------------------------------------------------------------- model -> rows

def rows_of(model) -> list[list[tuple[int, Fraction]]]:
    """Transition rows of a sparse DTMC as exact fractions (one row per state)."""
    matrix = model.transition_matrix
    if matrix.nr_rows != model.nr_states:
        raise SystemExit("not a DTMC: more rows than states")
    rows = []
    for s in range(model.nr_states):
        rows.append([(e.column, frac(e.value)) for e in matrix.get_row(s)])
    return rows


def state_rewards_of(model, name: str) -> list[Fraction]:
    """State-based reward vector Storm uses for reward model `name`.

    A DTMC has one choice per state, so a state-action reward (PRISM's [action] rewards)
    is earned in that state exactly as a state reward would be; transition rewards are
    replaced by their expectation over the row (what Storm's reduce_to_state_based_rewards does).
    """
    rm = model.get_reward_model(name)
    n = model.nr_states
    r = [Fraction(0)] * n
    if rm.has_state_rewards:
        r = [a + frac(b) for a, b in zip(r, rm.state_rewards)]
    if rm.has_state_action_rewards:
        r = [a + frac(b) for a, b in zip(r, rm.state_action_rewards)]
    if rm.has_transition_rewards:
        raise SystemExit(f"reward model {name} has transition rewards; not handled")
    return r


# ---------------------------------------------------------------- writers

def write_tra(path: Path, rows, exact: bool = True) -> None:
    """Storm explicit syntax: a 'dtmc' line, then 'src dst prob' per transition, sorted by src, dst."""
    with path.open("w") as f:
        f.write("dtmc\n")
        for s, row in enumerate(rows):
            for t, p in row:
                f.write(f"{s} {t} {frac_str(p) if exact else repr(float(p))}\n")


def write_lab(path: Path, labels: dict[str, list[int]], n: int) -> None:
    """Storm explicit syntax: #DECLARATION / names / #END, then 'state label label ...'."""
    per_state: list[list[str]] = [[] for _ in range(n)]
    for name, states in labels.items():
        for s in states:
            per_state[s].append(name)
    with path.open("w") as f:
        f.write("#DECLARATION\n" + " ".join(labels) + "\n#END\n")
        for s, names in enumerate(per_state):
            if names:
                f.write(f"{s} {' '.join(names)}\n")


def write_srew(path: Path, rewards: list[Fraction], exact: bool = True) -> None:
    """Storm explicit syntax: 'state reward' per state with a non-zero reward, no header."""
    with path.open("w") as f:
        for s, r in enumerate(rewards):
            if r != 0:
                f.write(f"{s} {frac_str(r) if exact else repr(float(r))}\n")


def write_values(path: Path, values: list) -> None:
    with path.open("w") as f:
        for s, v in enumerate(values):
            f.write(f"{s} {v}\n")


# ---------------------------------------------------------------- readers (of our own files)

def read_tra(path: Path) -> list[list[tuple[int, Fraction]]]:
    lines = path.read_text().split("\n")
    assert lines[0] == "dtmc", lines[0]
    rows: list[list[tuple[int, Fraction]]] = []
    for line in lines[1:]:
        if not line:
            continue
        s, t, p = line.split()
        s = int(s)
        while len(rows) <= s:
            rows.append([])
        rows[s].append((int(t), Fraction(p)))
    return rows


def read_lab(path: Path) -> dict[str, list[int]]:
    lines = path.read_text().split("\n")
    assert lines[0] == "#DECLARATION" and lines[2] == "#END", lines[:3]
    labels = {name: [] for name in lines[1].split()}
    for line in lines[3:]:
        if line:
            s, *names = line.split()
            for name in names:
                labels[name].append(int(s))
    return labels


def read_srew(path: Path, n: int) -> list[Fraction]:
    r = [Fraction(0)] * n
    for line in path.read_text().split("\n"):
        if line:
            s, v = line.split()
            r[int(s)] = Fraction(v)
    return r


def write_drn(path: Path, rows, labels: dict[str, list[int]], rewards: dict[str, list[Fraction]]) -> None:
    """Transcode our explicit files to Storm's DRN (which Storm parses with exact rationals)."""
    n = len(rows)
    per_state: list[list[str]] = [[] for _ in range(n)]
    for name, states in labels.items():
        for s in states:
            per_state[s].append(name)
    names = list(rewards)
    with path.open("w") as f:
        f.write("@type: DTMC\n@value_type: rational\n@parameters\n\n@reward_models\n")
        f.write(" ".join(names) + "\n@nr_states\n" + str(n) + "\n@nr_choices\n" + str(n) + "\n@model\n")
        for s, row in enumerate(rows):
            rew = f" [{', '.join(frac_str(rewards[m][s]) for m in names)}]" if names else ""
            f.write(f"state {s}{rew} {' '.join(per_state[s])}\n\taction 0\n")
            for t, p in row:
                f.write(f"\t\t{t} : {frac_str(p)}\n")


# ---------------------------------------------------------------- per instance

def label_name(prop_name: str, target) -> str:
    """The target's own label if the target is a plain label "x", else <property>_target."""
    text = str(target)
    m = re.fullmatch(r'"([A-Za-z_][A-Za-z0-9_]*)"', text)
    return m[1] if m else f"{prop_name}_target"


def filtered(values_at_init: list, op: str | None):
    if op is None:
        assert len(values_at_init) == 1, "several initial states but no filter"
        return values_at_init[0]
    if op == "max":
        return max(values_at_init)
    if op == "min":
        return min(values_at_init)
    raise SystemExit(f"filter {op} not handled")


def export_instance(inst: dict, log) -> dict:
    t_all = time.process_time()
    name = inst["name"]
    out_dir = (HERE / name) if inst["commit"] else (LARGE_ROOT / name)
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.iterdir():
        if old.suffix in (".tra", ".lab", ".srew", ".values"):
            old.unlink()
    model_path = HERE / "models" / inst["file"]
    program = stormpy.parse_prism_program(str(model_path))

    entries, skipped, storm_props = [], [], []
    for pf in inst["props"]:
        for p in read_properties(HERE / "models" / pf):
            p["source"] = f"models/{pf}"
            parsed = stormpy.parse_property(f'"{p["name"]}": {p["storm_text"]}', program)
            kind, why = classify(parsed.get_raw_formula())
            if kind is None:
                skipped.append(dict(name=p["name"], source=p["source"], text=p["text"], reason=why))
                continue
            p["kind"] = kind
            entries.append(p)
            storm_props.append(parsed)
    if inst["consts"]:
        program, storm_props = stormpy.instantiate_constants(program, inst["consts"], storm_props)

    # 1. exact model
    # Built from one formula, Storm makes that formula's target states absorbing (terminal
    # states); built from two or more it keeps the full chain, which is what we export, so the
    # list is given twice. Checked against a build of the whole model (all labels and rewards).
    t = time.process_time()
    model = stormpy.build_model[stormpy.Rational](program, storm_props + storm_props)
    build_s = time.process_time() - t
    whole = stormpy.build_model[stormpy.Rational](program)
    assert (whole.nr_states, whole.nr_transitions) == (model.nr_states, model.nr_transitions), \
        "the chain built for the properties is not the whole chain"
    del whole
    n = model.nr_states
    log(f"{name}: {n} states, {model.nr_transitions} transitions, built exactly in {build_s:.2f}s CPU")
    rows = rows_of(model)
    assert all(sum(p for _, p in row) == 1 for row in rows), "a row does not sum to exactly 1"
    init_states = list(model.initial_states)
    labels: dict[str, list[int]] = {"init": init_states}
    deadlock = sorted(model.labeling.get_states("deadlock")) \
        if "deadlock" in model.labeling.get_labels() else []
    labels["deadlock"] = deadlock
    reward_files: dict[str, list[Fraction]] = {}

    results = []
    for p, prop in zip(entries, storm_props):
        formula = prop.get_raw_formula()
        target = formula.subformula.subformula
        lab = label_name(p["name"], target)
        truth = stormpy.model_checking(model, target, environment=exact_env()).get_truth_values_vector()
        states = [s for s in range(n) if truth[s]]
        if lab in labels and labels[lab] != states:
            raise SystemExit(f"{name}: two different targets want label {lab}")
        labels[lab] = states
        reward = None
        if p["kind"] == "expected_reward":
            reward = formula.reward_name if formula.has_reward_model_name() else None
            if reward is None:
                names = list(model.reward_models)
                assert len(names) == 1, names
                reward = names[0]
            reward_files.setdefault(reward, state_rewards_of(model, reward))

        t = time.process_time()
        rex = stormpy.model_checking(model, prop, environment=exact_env())
        exact_s = time.process_time() - t
        exact_all = [frac(v) if not is_inf(v) else "inf" for v in (rex.get_value(s) for s in range(n))]
        exact_init = filtered([exact_all[s] for s in init_states], p["init_filter"])
        results.append(dict(p=p, prop=prop, label=lab, target_states=len(states), reward=reward,
                            exact_all=exact_all, exact=exact_init, exact_s=exact_s))
        log(f"  {p['name']}: exact {frac_str(exact_init) if exact_init != 'inf' else 'inf'} "
            f"({float(exact_init) if exact_init != 'inf' else 'inf'}) in {exact_s:.2f}s CPU")

    # 2. files
    write_tra(out_dir / "model.tra", rows)
    write_lab(out_dir / "model.lab", labels, n)
    for rname, r in reward_files.items():
        write_srew(out_dir / f"{rname}.srew", r)

    # 3. float model from the PRISM file, sound environment
    fmodel = stormpy.build_model(program, storm_props + storm_props)
    assert fmodel.nr_states == n and fmodel.nr_transitions == model.nr_transitions
    for res in results:
        t = time.process_time()
        rf = stormpy.model_checking(fmodel, res["prop"], environment=sound_env())
        res["float_s"] = time.process_time() - t
        res["float"] = filtered([rf.get_value(s) for s in init_states], res["p"]["init_filter"])

    # 4a. read our files back (own reader), transcode to DRN, let Storm parse it exactly
    back_rows = read_tra(out_dir / "model.tra")
    back_labels = read_lab(out_dir / "model.lab")
    back_rewards = {r: read_srew(out_dir / f"{r}.srew", n) for r in reward_files}
    assert back_rows == rows and back_labels == labels and back_rewards == reward_files
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        write_drn(tmp / "model.drn", back_rows, back_labels, back_rewards)
        dmodel = stormpy.build_model_from_drn[stormpy.Rational](str(tmp / "model.drn"))
        assert dmodel.nr_states == n and dmodel.nr_transitions == model.nr_transitions
        assert rows_of(dmodel) == rows, "DRN re-read: transition matrix differs"
        assert list(dmodel.initial_states) == init_states
        for res in results:
            q = simple_property(res, named=True)
            rd = stormpy.model_checking(dmodel, stormpy.parse_property(q), environment=exact_env())
            vals = [frac(v) if not is_inf(v) else "inf" for v in (rd.get_value(s) for s in range(n))]
            assert vals == res["exact_all"], f"{name} {res['p']['name']}: exact re-read differs"
            res["reread_property"] = simple_property(res)

        # 4b. decimal copy through Storm's explicit parser (doubles)
        write_tra(tmp / "model.tra", back_rows, exact=False)
        for res in results:
            srew = None
            if res["reward"]:
                srew = tmp / f"{res['reward']}.srew"
                write_srew(srew, back_rewards[res["reward"]], exact=False)
            emodel = stormpy.build_model_from_explicit(str(tmp / "model.tra"), str(out_dir / "model.lab"),
                                                       state_rewards=str(srew) if srew else None)
            assert emodel.nr_states == n and emodel.nr_transitions == model.nr_transitions
            assert list(emodel.initial_states) == init_states
            re_ = stormpy.model_checking(emodel, stormpy.parse_property(res["reread_property"]),
                                         environment=sound_env())
            v = filtered([re_.get_value(s) for s in init_states], res["p"]["init_filter"])
            res["float_explicit"] = v
            a, b = res["float"], v
            if not (a == b or abs(a - b) <= FLOAT_REREAD_TOLERANCE * max(abs(a), abs(b))):
                raise SystemExit(f"{name} {res['p']['name']}: float re-read {b} vs {a}")
            ex = res["exact"]
            if ex != "inf" and abs(float(ex) - a) > 2e-9 * abs(float(ex)) + 1e-300:
                raise SystemExit(f"{name} {res['p']['name']}: sound float {a} vs exact {float(ex)}")

    # 5. per-state exact values (small instances only)
    props_out = []
    for res in results:
        p = res["p"]
        values_file = None
        if inst["commit"]:
            path = out_dir / f"{p['name']}.values"
            write_values(path, [frac_str(v) if v != "inf" else "inf" for v in res["exact_all"]])
            if path.stat().st_size <= VALUES_FILE_LIMIT:
                values_file = path.name
            else:
                path.unlink()
        ex = res["exact"]
        props_out.append(dict(
            name=p["name"], source=p["source"], suite_text=p["text"], storm_property=str(res["prop"].get_raw_formula()),
            question=p["kind"], target_label=res["label"], target_states=res["target_states"],
            reward_file=f"{res['reward']}.srew" if res["reward"] else None,
            init_filter=p["init_filter"], note=p["note"],
            exact=frac_str(ex) if ex != "inf" else "inf",
            exact_float=float(ex) if ex != "inf" else "inf",
            storm_float=res["float"], storm_float_from_explicit_files=res["float_explicit"],
            reread_property=res["reread_property"], values_file=values_file,
            storm_cpu_s=dict(exact_check=round(res["exact_s"], 3), sound_check=round(res["float_s"], 3)),
        ))
    files = dict(tra="model.tra", lab="model.lab", srew={r: f"{r}.srew" for r in reward_files})
    return dict(
        name=name, model=inst["model"], model_file=f"models/{inst['file']}", constants=inst["consts"],
        listed_in_suite=inst["listed"], committed=inst["commit"],
        path=str(out_dir.relative_to(WORKSPACE)),
        states=n, transitions=model.nr_transitions, initial_states=len(init_states),
        deadlock_states=len(deadlock), init_label="init", files=files,
        properties=props_out, skipped=skipped,
        export_cpu_s=round(time.process_time() - t_all, 2),
        storm_version=storm_version(),
    )


def simple_property(res, named: bool = False) -> str:
    """The same question over the exported label (what a reader of the explicit files asks).

    Storm's explicit parser reads one .srew into one unnamed reward model, so `R=?`; the DRN
    transcoding carries all reward models by name, so `R{"name"}=?`.
    """
    op = "P=?" if res["p"]["kind"] == "reach_probability" else (
        f'R{{"{res["reward"]}"}}=?' if named else "R=?")
    return f'{op} [F "{res["label"]}"]'


# ---------------------------------------------------------------- main

def print_summary(doc: dict) -> None:
    print("| instance | suite list | committed | states | transitions | init states | property | question | target (states) | Storm exact | exact ≈ | Storm sound float |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for i in doc["instances"]:
        for p in i["properties"]:
            ex = p["exact"] if len(p["exact"]) <= 40 else f"{p['exact'][:12]}…/…({len(p['exact'])} chars)"
            init = f"{i['initial_states']}" + (f" ({p['init_filter']})" if p["init_filter"] else "")
            print(f"| {i['name']} | {'yes' if i['listed_in_suite'] else 'no'} | {'yes' if i['committed'] else 'no'} | "
                  f"{i['states']} | {i['transitions']} | {init} | {p['name']} | {p['question']} | "
                  f"{p['target_label']} ({p['target_states']}) | `{ex}` | {p['exact_float']:.12g} | {p['storm_float']:.12g} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", action="store_true", help="only the committed (small) instances")
    ap.add_argument("--only", nargs="*", default=None, help="only these instance names")
    ap.add_argument("--summary", action="store_true", help="print expected.json as a markdown table, export nothing")
    args = ap.parse_args()
    if args.summary:
        print_summary(json.loads((HERE / "expected.json").read_text()))
        return
    chosen = [i for i in INSTANCES
              if (not args.small or i["commit"]) and (args.only is None or i["name"] in args.only)]
    expected_path = HERE / "expected.json"
    old = json.loads(expected_path.read_text()) if expected_path.exists() else {}
    old_by_name = {e["name"]: e for e in old.get("instances", [])}

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    for entry in old_by_name.values():
        # entries written before instances carried their own version: the run that wrote them
        entry.setdefault("storm_version", old.get("storm_version"))
    fresh = {inst["name"]: export_instance(inst, log) for inst in chosen}
    # re-read just before writing, so that a concurrent run's entries are not lost
    if expected_path.exists():
        old = json.loads(expected_path.read_text())
        for entry in old.get("instances", []):
            entry.setdefault("storm_version", old.get("storm_version"))
            old_by_name[entry["name"]] = entry
    new_by_name = dict(old_by_name)
    new_by_name.update(fresh)
    doc = dict(
        comment="Generated by export.py with Storm; do not edit by hand. 'exact' is Storm's exact result "
                "(p/q) at the initial state (or the init_filter over the initial states); 'storm_float' is "
                "Storm's sound result with the precision below, 'storm_float_from_explicit_files' the same "
                "question asked of the exported files through Storm's explicit parser.",
        storm_version=storm_version(),  # of the last run; each instance names its own
        exact_environment=env_description(exact_env()),
        sound_environment=env_description(sound_env()),
        sound_precision=f"{SOUND_PRECISION} relative",
        file_formats=dict(
            tra="first line 'dtmc'; then 'src dst p' per transition, states 0-based, rows sorted by src then dst; "
                "p is an exact 'num/den' (or an integer); absorbing and deadlock states carry a self-loop 'i i 1'",
            lab="'#DECLARATION', one line of label names, '#END', then 'state name name ...' for labelled states only",
            srew="'state reward' for states with a non-zero reward, exact 'num/den', no header",
            values="'state value' for every state: Storm's exact per-state result of that property ('inf' if infinite)",
        ),
        instances=[new_by_name[i["name"]] for i in INSTANCES if i["name"] in new_by_name],
    )
    expected_path.write_text(json.dumps(doc, indent=1) + "\n")
    log(f"wrote {expected_path}")


if __name__ == "__main__":
    main()
