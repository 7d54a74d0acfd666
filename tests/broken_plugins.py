"""Thirty broken plugins: each extension point (backend, kind, task, detector, method)
by each fault plugin code can have (it cannot be imported, takes a built-in's name,
lacks a member, returns the wrong thing, raises while being made, raises when called).
Each is a package of one module, built and pip-installed into a folder of its own as a
user installs one, then run through the real command line: tests/test_extensions.py
checks each cell's one line, and benchmarks/plugins/broken_matrix.py times them.

CASES: {"point/fault": Case}; `argv(case, out, inputs)`: the command that uses it.
"""

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

POINTS = ("backend", "kind", "task", "detector", "method")
FAULTS = ("import", "clash", "member", "return", "construction", "call")


@dataclass(frozen=True)
class Case:
    group: str  # the entry-point group, hrsynth.<group>
    name: str  # the name it registers
    target: str  # module or module:attribute
    source: str  # bad_mod.py
    line: str  # how the one error line starts


ENGINE = (
    "from synth.generation.engine import EngineBase\nSERVED = False\n"
    "def check(spec, params): pass\ndef prepare(spec): pass\n"
    "def describe(spec): return 'broken'\n"
)
ENGINE_CLASS = "class E(EngineBase):\n    def chat_prompt(self, m): return 'Hi'\n"
KIND = "from synth.kinds.base import KindBase\n"
TASK = "from jobs.eval_tasks import Task\n"
DETECTOR = "class D:\n    TYPES = ('ID',)\n"
PLANNED = (
    "from synth.kinds import ShardPlan, shard_rows\nfrom synth.record import PlannedDocument\n"
    "class P:\n    notes = {}\n"
    "    def __init__(self, cfg, run_id): self.cfg, self.run_id = cfg, run_id\n"
    "    def plan_shard(self, s):\n"
    "        n, size = shard_rows(self.cfg.run.num_docs, self.cfg.run.shard_size, s), "
    "self.cfg.run.shard_size\n"
    "        return ShardPlan([PlannedDocument(s * size + k, s, self.run_id, 'wrongdocs', 'A', "
    "'A', 'A', 't', '', 'a', '', {}, {}, {}) for k in range(n)], {}, None)\n"
)

CASES = {
    # backends: generate --backend NAME
    "backend/import": Case(
        "backends", "badsyntax", "bad_mod", "def check(:\n",
        "error: backend 'badsyntax' (bad_mod) cannot be loaded (SyntaxError:",
    ),
    "backend/clash": Case(
        "backends", "ct2", "bad_mod", ENGINE + "def build(spec): pass\n",
        "error: an installed package registers backends ['ct2'], which hrsynth has already",
    ),
    "backend/member": Case(
        "backends", "nobuild", "bad_mod", ENGINE,
        "error: backend 'nobuild' (bad_mod) lacks build; docs/extending.md",
    ),
    "backend/return": Case(
        "backends", "short", "bad_mod",
        ENGINE + ENGINE_CLASS
        + "    def continue_prompts(self, p, params, seed):\n"
        "        return ['x'] * (len(p) - 1), [1] * (len(p) - 1), [1] * (len(p) - 1)\n"
        "def build(spec): return E()\n",
        "error: backend bad_mod.E returned 0 texts for 1 prompts; continue_prompts must",
    ),
    "backend/construction": Case(
        "backends", "nogpu", "bad_mod", ENGINE + "def build(spec): raise RuntimeError('no GPU')\n",
        "error: backend 'nogpu' (bad_mod) raised RuntimeError in bad_mod.build: no GPU; fix the",
    ),
    "backend/call": Case(
        "backends", "divides", "bad_mod",
        ENGINE + ENGINE_CLASS
        + "    def continue_prompts(self, p, params, seed): return 1 / 0\n"
        "def build(spec): return E()\n",
        "error: backend 'divides' (bad_mod) raised ZeroDivisionError in E.continue_prompts: "
        "division by zero; fix the package that registers it (traceback in ",
    ),
    # kinds: generate --doc-type NAME
    "kind/import": Case(
        "kinds", "raises", "bad_mod", "raise RuntimeError('no memo today')\n",
        "error: kind 'raises' (bad_mod) cannot be loaded (RuntimeError: no memo today)",
    ),
    "kind/clash": Case(
        "kinds", "ticket", "bad_mod", "TITLE = 'x'\n",
        "error: an installed package registers kinds ['ticket'], which hrsynth has already",
    ),
    "kind/member": Case(
        "kinds", "noplanner", "bad_mod:K", KIND + "class K(KindBase):\n    TITLE = 'notes'\n",
        "error: kind 'noplanner' (bad_mod:K) lacks TITLE or planner",
    ),
    "kind/return": Case(
        "kinds", "wrongdocs", "bad_mod:K",
        KIND + PLANNED + "class K(KindBase):\n    TITLE = 'notes'\n"
        "    def planner(self, cfg, run_id): return P(cfg, run_id)\n",
        "error: kind 'wrongdocs' planned shard 0 wrongly: document 0: pieces",
    ),
    "kind/construction": Case(
        "kinds", "unmade", "bad_mod:K",
        KIND + "class K(KindBase):\n    TITLE = 'notes'\n"
        "    def __init__(self): raise OSError('templates.yaml not found')\n"
        "    def planner(self, cfg, run_id): return None\n",
        "error: kind 'unmade' (bad_mod:K) raised OSError in making the kind: templates.yaml "
        "not found; fix the package",
    ),
    "kind/call": Case(
        "kinds", "unplanned", "bad_mod:K",
        KIND + "class K(KindBase):\n    TITLE = 'notes'\n"
        "    def planner(self, cfg, run_id): return {}['opening']\n",
        "error: kind 'unplanned' (bad_mod:K) raised KeyError in K.planner: 'opening'; fix",
    ),
    # tasks: evaluate --tasks NAME
    "task/import": Case(
        "tasks", "missing", "bad_mod:TASK", "import not_a_module_anywhere\n",
        "error: task 'missing' (bad_mod:TASK) cannot be loaded (ModuleNotFoundError",
    ),
    "task/clash": Case(
        "tasks", "classify", "bad_mod:TASK", TASK + "TASK = Task('classify', print)\n",
        "error: an installed package registers tasks ['classify'], which hrsynth has already",
    ),
    "task/member": Case(
        "tasks", "notask", "bad_mod:TASK", "TASK = object()\n",
        "error: task 'notask' (bad_mod:TASK) is object; the entry point names",
    ),
    "task/return": Case(
        "tasks", "nothing", "bad_mod:TASK", TASK + "TASK = Task('nothing', lambda ctx, args: None)\n",
        "error: task nothing's run returned 'None'; it must return (scores, left): two dicts",
    ),
    "task/construction": Case(
        "tasks", "unmade", "bad_mod:TASK",
        TASK + "def make(): raise ValueError('no task settings')\nTASK = make()\n",
        "error: task 'unmade' (bad_mod:TASK) cannot be loaded (ValueError: no task settings)",
    ),
    "task/call": Case(
        "tasks", "crashes", "bad_mod:TASK",
        TASK + "def run(ctx, args): raise RuntimeError('out of memory')\n"
        "TASK = Task('crashes', run)\n",
        "error: task 'crashes' (bad_mod:TASK) raised RuntimeError in Task.run (its message may "
        "quote a document: it is in the log only); fix the package that registers it "
        "(traceback in ",
    ),
    # detectors: deidentify --detectors NAME
    "detector/import": Case(
        "detectors", "raises", "bad_mod:D", "raise ImportError('no regex')\n",
        "error: detector 'raises' (bad_mod:D) cannot be loaded (ImportError: no regex)",
    ),
    "detector/clash": Case(
        "detectors", "presidio", "bad_mod:D", "class D:\n    pass\n",
        "error: an installed package registers detectors ['presidio'], which hrsynth has",
    ),
    "detector/member": Case(
        "detectors", "notypes", "bad_mod:D", "class D:\n    def detect(self, t): return []\n",
        "error: detector 'notypes' (bad_mod:D) lacks TYPES; docs/extending.md",
    ),
    "detector/return": Case(
        "detectors", "fewer", "bad_mod:D",
        DETECTOR + "    name = 'fewer'\n    def detect(self, t): return [[]] * (len(t) - 1)\n",
        "error: detector fewer returned 0 span lists for 1 documents; it must return one",
    ),
    "detector/construction": Case(
        "detectors", "unready", "bad_mod:D",
        DETECTOR + "    def __init__(self): raise FileNotFoundError('badges.csv')\n"
        "    def detect(self, t): return [[] for _ in t]\n",
        "error: detector 'unready' (bad_mod:D) raised FileNotFoundError in D(): badges.csv; fix",
    ),
    "detector/call": Case(
        "detectors", "indexes", "bad_mod:D",
        DETECTOR + "    def detect(self, t): return [t[0][99]]\n",
        "error: detector 'indexes' (bad_mod:D) raised IndexError in D.detect (its message may "
        "quote a document: it is in the log only); fix",
    ),
    # methods: deidentify --method NAME
    "method/import": Case(
        "methods", "raises", "bad_mod:M", "import not_a_module_anywhere\n",
        "error: method 'raises' (bad_mod:M) cannot be loaded (ModuleNotFoundError",
    ),
    "method/clash": Case(
        "methods", "tag", "bad_mod:M", "class M:\n    def replace(self, t, o): return 'x'\n",
        "error: an installed package registers methods ['tag'], which hrsynth has already",
    ),
    "method/member": Case(
        "methods", "noreplace", "bad_mod:M", "class M:\n    pass\n",
        "error: method 'noreplace' (bad_mod:M) lacks replace; docs/extending.md",
    ),
    "method/return": Case(
        "methods", "echoes", "bad_mod:M", "class M:\n    def replace(self, t, o): return o\n",
        "error: method 'echoes' returned a replacement that holds the original (read without",
    ),
    "method/construction": Case(
        "methods", "unmade", "bad_mod:M",
        "class M:\n    def __init__(self): raise PermissionError('salt file')\n"
        "    def replace(self, t, o): return 'x'\n",
        "error: method 'unmade' (bad_mod:M) raised PermissionError in M(): salt file; fix",
    ),
    "method/call": Case(
        "methods", "typo", "bad_mod:M", "class M:\n    def replace(self, t, o): return o.uper()\n",
        "error: method 'typo' (bad_mod:M) raised AttributeError in M.replace for a ",
    ),
}  # fmt: skip

# The faults met while loading (the others load, and fail when made or called): --help
# lists these as NAME (broken).
LOAD_FAULTS = ("import", "clash", "member")
DOCUMENTS = ["My badge is B-20417 and my number EMP-2041.", "Nothing personal here."]


def install(case: str, work: Path) -> dict:
    """The case's package built and pip-installed into a folder of its own; the
    environment that sees it."""
    spec = CASES[case]
    slug = case.replace("/", "_")
    src = work / "src" / slug
    src.mkdir(parents=True)
    (src / "bad_mod.py").write_text(spec.source)
    (src / "pyproject.toml").write_text(
        f'[project]\nname = "hrsynth-{slug.replace("_", "-")}"\nversion = "0.1.0"\n'
        f'[tool.setuptools]\npy-modules = ["bad_mod"]\n'
        f'[project.entry-points."hrsynth.{spec.group}"]\n"{spec.name}" = "{spec.target}"\n'
    )
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    pip += ["--no-build-isolation", "--target", str(work / slug), str(src)]
    done = subprocess.run(pip, capture_output=True, text=True, check=False)
    assert done.returncode == 0, (done.stdout + done.stderr)[-2000:]
    return {**os.environ, "PYTHONPATH": str(work / slug), "HRSYNTH_LOG_DIR": str(work / "logs")}


def argv(case: str, out: Path, inputs: dict) -> list[str]:
    """The command that uses the case's plugin; `inputs`: dp_model (a fitted DP model),
    tickets (a generated output), documents (a JSONL of DOCUMENTS), config (an empty
    config file)."""
    point, name = case.split("/")[0], CASES[case].name
    if point == "backend":
        return [
            *("generate", "--config", "configs/tickets.yaml", "--backend", name),
            *("--model", "echo-1", "--num-docs", "4", "--output", str(out)),
            *("--dp-model", str(inputs["dp_model"])),
        ]
    if point == "kind":
        return [
            *("generate", "--doc-type", name, "--config", str(inputs["config"])),
            *("--prompt-style", "plain", "--backend", "llama", "--num-docs", "4"),
            *("--output", str(out)),
        ]
    if point == "task":
        return [
            *("evaluate", "--train", str(inputs["tickets"])),
            *("--test", "eval/data/dev_tickets.jsonl", "--tasks", name, "--output", str(out)),
        ]
    documents = str(inputs["documents"])
    if point == "detector":
        return ["deidentify", "--input", documents, "--output", str(out), "--method", "tag",
                "--detectors", name]  # fmt: skip
    return ["deidentify", "--input", documents, "--output", str(out), "--method", name,
            "--detectors", "presidio"]  # fmt: skip


def help_command(case: str) -> list[str]:
    """The --help that lists the case's extension point's names."""
    point = case.split("/")[0]
    job = {"backend": "generate", "kind": "generate", "task": "evaluate"}.get(point, "deidentify")
    return [job, "--help"]
