"""The project files one ticket's generation runs code in, from its config to its shard.

A reading aid for the architecture page: one ticket of the default config is configured,
planned, rendered (by a scripted engine, so no model), audited and written, once to warm
lazy imports and caches, then again under a profiler that records the files whose
functions are called (module bodies, i.e. imports, do not count).

    python scripts/ticket_route.py
"""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from synth.config.generate import load_config
from synth.kinds import planner
from synth.shard_writer import ShardWriter
from tests.synth.test_golden import LABELS, ScriptedEngine


def one_ticket(out: str) -> None:
    settings = {"num_docs": 1, "reference_date": "2026-11-24", "labels": LABELS[:1]}
    cfg = load_config(str(ROOT / "configs" / "tickets.yaml"), settings).updated(dp_model=None)
    writer = ShardWriter(
        ScriptedEngine(),
        cfg.generation_params(),
        "plain",
        cfg.run.seed,
        out,
        cfg.scale.batch_size,
        cfg.audit_settings(),
    )
    writer.write_planned(planner(cfg, "route"), [0])


def main() -> None:
    seen = set()

    def on_call(frame, event, _arg):
        name = frame.f_code.co_filename
        if event == "call" and name.startswith(str(ROOT) + os.sep):
            path = Path(name).relative_to(ROOT)
            if frame.f_code.co_name != "<module>" and path.parts[0] not in ("tests", "scripts"):
                seen.add(str(path))

    one_ticket(tempfile.mkdtemp())
    sys.setprofile(on_call)
    one_ticket(tempfile.mkdtemp())
    sys.setprofile(None)
    rooms = sorted({str(Path(p).parent) for p in seen} - {"synth"}) + ["synth (its own files)"]
    print("\n".join(sorted(seen)))
    print(f"{len(seen)} files in {len(rooms)} folders: {', '.join(rooms)}")


if __name__ == "__main__":
    main()
