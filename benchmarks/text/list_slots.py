"""How often a CV's list slot ("Key responsibilities:\\n- ", "Certifications: ") comes back
empty from SmolLM2, with trim_slot alone and with the list-line fallback (trim_items);
prints a table, writes JSON.

    python -m benchmarks.text.list_slots --synthetic out/cv_dev_v2/synthetic_eps1 \
        --output benchmarks/results/list_slots.json

The prompts are cut from synthetic CVs already generated (the CV up to each list opening
of synth/data/cv/sections.yaml, as the rollout builds it), so every slot is replayed
with the text a real run had before it. Each prompt is generated once with the CV
config's regular and once with its long parameters (configs/cvs.yaml), one seed; the
trimming of each raw output is then counted both ways, so the two columns differ only
in the trimming. A slot still empty is retried by the rollout; an empty slot here is
one attempt, not a recorded error.
"""

import argparse
import random
import re
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

from benchmarks.report import ROOT, write_results
from synth import DATA_DIR
from synth.config.generate import load_config
from synth.generation.backends import Backend
from synth.generation.params import long_params
from synth.generation.trimming import LIST_OPENING, trim_items, trim_slot
from synth.io.files import read_yaml

CV_CONFIG = ROOT / "configs" / "cvs.yaml"


def openings() -> dict[str, re.Pattern]:
    """The list openings of the CV sections, by name: the fixed text after a template's
    last variable or line break, where it opens a list item."""
    sections = read_yaml(DATA_DIR / "cv" / "sections.yaml", "CV sections")
    found = {}
    for section in sections["sections"]:
        for prompt in section["prompts"]:
            for before in prompt.split("<generate>")[:-1]:
                tail = re.split(r"\}|\n|\. ", before)[-1]
                if tail.strip() and LIST_OPENING.search(tail):
                    name = tail.strip()
                    found[name] = re.compile(
                        r"(?m)^-(?= |$)" if name == "-" else r"(?m)(?:^|(?<=\. ))" + re.escape(name)
                    )
    return found


def prompts_from(texts: list[str], limit: int, seed: int) -> list[tuple[str, str, str]]:
    """(opening, prompt, the fixed text the slot followed) for up to `limit` list slots."""
    found, patterns = [], openings()
    for text in texts:
        for name, pattern in patterns.items():
            for m in pattern.finditer(text):
                found.append((name, text[: m.end()].rstrip(), name + " "))
    random.Random(seed).shuffle(found)
    return found[:limit]


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--synthetic", required=True, help="a generate output folder of CVs")
    p.add_argument("--limit", type=int, default=96, help="list slots replayed")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--output", required=True)
    args = p.parse_args(argv)
    texts = [r["text"] for r in pq.read_table(args.synthetic, columns=["text"]).to_pylist()]
    slots = prompts_from([t for t in texts if t], args.limit, args.seed)
    cfg = load_config(str(CV_CONFIG))
    engine = Backend.of(cfg.generator.model, cfg.generator.backend).build()
    regular = cfg.generation_params()
    result = {"synthetic_cvs": len(texts), "list_slots": len(slots), "by_params": {}}
    for label, params in [("regular", regular), ("long", long_params(regular))]:
        raws, _, _ = engine.continue_prompts([s[1] for s in slots], params, args.seed)
        kinds, empty, still_empty, examples = Counter(), Counter(), Counter(), []
        for (name, _, opening), raw in zip(slots, raws):
            kinds[name] += 1
            if trim_slot(raw, params.sentences_per_slot):
                continue
            empty[name] += 1
            if not trim_items(raw, opening):
                still_empty[name] += 1
                examples.append({"opening": name, "raw": raw[:160]})
        result["by_params"][label] = {
            "max_new_tokens": params.max_new_tokens,
            "empty_trim_slot": sum(empty.values()),
            "empty_with_fallback": sum(still_empty.values()),
            "by_opening": {
                n: {
                    "slots": kinds[n],
                    "empty_trim_slot": empty[n],
                    "empty_with_fallback": still_empty[n],
                }
                for n in kinds
            },
            "still_empty_examples": examples[:6],
        }
    print(f"{result['list_slots']} list slots from {len(texts)} synthetic CVs ({args.synthetic})")
    print("| parameters | new tokens | empty, trim_slot | empty, with list lines |")
    print("| --- | ---: | ---: | ---: |")
    for label, r in result["by_params"].items():
        n = result["list_slots"]
        print(
            f"| {label} | {r['max_new_tokens']} | {r['empty_trim_slot']} ({r['empty_trim_slot'] / n:.0%})"
            f" | {r['empty_with_fallback']} ({r['empty_with_fallback'] / n:.0%}) |"
        )
    write_results(Path(args.output).resolve(), result)


if __name__ == "__main__":
    main()
