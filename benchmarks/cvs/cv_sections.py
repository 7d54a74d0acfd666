"""CV sections as the generator writes them: how many the model left empty (written
from data instead), how many are about the role, how many contradict the CV's header;
prints a table, writes JSON and a few CVs to read.

    python -m benchmarks.cvs.cv_sections --num-cvs 64 --output benchmarks/results/cv_sections.json

The CVs are planned from a config (default configs/cvs_detector.yaml, what `make
detector` trains on) and filled in-process on the engine `auto` picks, in the config's
batches, so every slot's own text is known: the model's, or the fallback line. Against
an older checkout, run it with PYTHONPATH pointing there (`--label before`); what that
code lacks (fallbacks, the years check) counts as absent.

- on topic: a section whose model-written text holds a word of the role's list
  (roles.yaml's skills and duties, and the job title; words of 4+ letters, stop words
  out), of the sections that have model text; `section` counts the section's whole text
  (planted words included).
- contradicts: a slot that claims more years than the CV's total, or a languages section
  that names a programming language or not the owner's first language.
"""

import argparse
import json
import re
import time
from pathlib import Path

import pyarrow.parquet as pq

from benchmarks.report import ROOT, write_results

ROLES = ROOT / "synth" / "data" / "cv" / "roles.yaml"
PROGRAMMING = re.compile(
    r"\b(python|java|javascript|c\+\+|c#|sql|php|ruby|html|css|matlab|scala|\.net)\b", re.IGNORECASE
)
STOP = {"with", "from", "that", "this", "have", "their", "work", "working", "team", "years"}
STOP |= {"year", "company"}


def role_words(path: Path) -> dict[str, set[str]]:
    import yaml

    words = {}
    for role, entry in yaml.safe_load(path.read_text()).items():
        entry = entry if isinstance(entry, dict) else {"title": entry}
        text = " ".join(
            [str(entry.get("title") or role), *entry.get("skills", []), *entry.get("duties", [])]
        )
        words[role] = {w for w in re.findall(r"[a-z][a-z+#./-]{3,}", text.lower()) if w not in STOP}
    return words


def section_of(piece: str, current: str) -> str:
    heads = re.findall(r"(?m)^([A-Z][A-Z &]{3,})$", piece)
    return heads[-1] if heads else current


def text_rates(rows: list[dict], words: dict[str, set[str]]) -> dict:
    """The same rates read off finished rows (any release's CV shards): each section of
    the text (split at its headings) on topic when it holds a word of the role's list
    (planted words count: no slots to tell them apart; languages and hobbies are not
    counted for topic), contradicting when it claims more
    years than the CV's total or, in languages, names a programming language or not the
    owner's first language."""
    from synth.generation.trimming import years_claimed
    from synth.kinds.persona import load_countries

    countries = load_countries()
    sections = on_topic = contradicts = cvs_contradicting = every_section = 0
    for row in rows:
        before = contradicts
        attributes = row["attributes"]
        if isinstance(attributes, list):
            attributes = {a["key"]: a["value"] for a in attributes}
        total = max(years_claimed(attributes.get("total_years", "")), default=0)
        first = countries[row["persona"]["country_code"]].language.lower()
        own = words.get(row["label"], set())
        parts = re.split(r"(?m)^([A-Z][A-Z &]{3,})$", row["text"])
        named = [("PERSONAL", parts[0])] + list(zip(parts[1::2], parts[2::2]))
        for name, body in named:
            every_section += 1
            if name in ("LANGUAGES", "HOBBIES AND INTERESTS"):
                pass
            else:
                sections += 1
                on_topic += bool(own & set(re.findall(r"[a-z][a-z+#./-]{3,}", body.lower())))
            bad = max(years_claimed(body), default=0) > total
            if name == "LANGUAGES":
                bad |= bool(PROGRAMMING.search(body)) or first not in body.lower()
            contradicts += bad
        cvs_contradicting += contradicts > before
    return {
        "rows": len(rows),
        "sections_on_topic": round(on_topic / max(sections, 1), 3),
        "sections_contradicting": round(contradicts / max(every_section, 1), 3),
        "cvs_with_a_contradiction": round(cvs_contradicting / max(len(rows), 1), 3),
    }


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", default=str(ROOT / "configs" / "cvs_detector.yaml"))
    p.add_argument("--num-cvs", type=int, default=64)
    p.add_argument("--label", default="after")
    p.add_argument("--output", required=True)
    p.add_argument("--examples", help="a Markdown file for 5 CVs to read")
    p.add_argument("--rows", help="read these rows (JSON list, or a CV output folder) instead")
    args = p.parse_args(argv)
    if args.rows:
        rows = (
            json.loads(Path(args.rows).read_text())
            if args.rows.endswith(".json")
            else pq.read_table(args.rows).to_pylist()
        )
        rows = rows["rows"] if isinstance(rows, dict) else rows
        result = {"label": args.label, "source": args.rows} | text_rates(rows, role_words(ROLES))
        print(result)
        write_results(args.output, result)
        return

    from synth.config.generate import load_config
    from synth.generation.backends import Backend
    from synth.generation.render import drafts_of
    from synth.generation.rollout import fill_slots
    from synth.generation.trimming import years_claimed
    from synth.kinds import planner
    from synth.kinds.persona import load_countries

    cfg = load_config(args.config, {"num_docs": args.num_cvs})
    plan, docs, shard = planner(cfg, "bench"), [], 0
    while len(docs) < args.num_cvs:
        docs += plan.plan_shard(shard).docs
        shard += 1
    docs = docs[: args.num_cvs]
    backend = Backend(cfg.engine)
    engine = backend.build()
    params = cfg.generation_params()
    started = time.time()
    drafts = []
    for i in range(0, len(docs), cfg.scale.batch_size):
        batch = drafts_of(
            docs[i : i + cfg.scale.batch_size], cfg.generator.prompt_style, cfg.run.seed
        )
        fill_slots(batch, engine, params, cfg.run.seed * 1_000_003 + i)
        drafts += batch
    wall = time.time() - started
    words = role_words(ROLES)
    countries = load_countries()
    slots = on_topic = in_section = had_text = contradicts = fallback = empty = 0
    per_section = {}
    for doc, d in zip(docs, drafts):
        own = words.get(doc.label, set())
        total = max(years_claimed(doc.attributes.get("total_years", "")), default=0)
        first = countries[doc.persona["country_code"]].language.lower()
        current = "PERSONAL"
        used = set(getattr(d, "fallback_slots", []))
        for k, text in enumerate(d.slots):
            current = section_of(doc.pieces[k], current)
            stats = per_section.setdefault(
                current, {"slots": 0, "fallback": 0, "on_topic": 0, "with_text": 0}
            )
            slots += 1
            stats["slots"] += 1
            section_text = (doc.pieces[k] + " " + text).lower()
            model_text = "" if (k + 1) in used else text.lower()
            fallback += (k + 1) in used
            stats["fallback"] += (k + 1) in used
            empty += not text
            in_section += bool(own & set(re.findall(r"[a-z][a-z+#./-]{3,}", section_text)))
            if model_text:
                had_text += 1
                stats["with_text"] += 1
                hit = bool(own & set(re.findall(r"[a-z][a-z+#./-]{3,}", model_text)))
                on_topic += hit
                stats["on_topic"] += hit
            bad = max(years_claimed(text), default=0) > total
            if current == "LANGUAGES":
                bad |= bool(PROGRAMMING.search(section_text)) or first not in section_text
            contradicts += bad
    tokens = sum(d.generated_tokens for d in drafts)
    rows_read = [
        {"label": doc.label, "text": d.text(), "attributes": doc.attributes, "persona": doc.persona}
        for doc, d in zip(docs, drafts)
    ]
    result = {
        "label": args.label,
        "config": Path(args.config).name,
        "text_rates": text_rates(rows_read, words),
        "cvs": len(drafts),
        "engine": backend.start_line(getattr(engine, "threads", None) or 1),
        "wall_s": round(wall, 1),
        "generated_tokens": tokens,
        "prompt_tokens": sum(d.prompt_tokens for d in drafts),
        "tokens_per_s": round(tokens / wall, 1),
        "slots": slots,
        "cvs_with_an_error": sum(bool(d.errors) for d in drafts),
        "cvs_with_a_fallback": sum(bool(getattr(d, "fallback_slots", [])) for d in drafts),
        "slots_empty": empty,
        "slots_fallback": fallback,
        "on_topic_model_text": round(on_topic / max(had_text, 1), 3),
        "on_topic_section": round(in_section / max(slots, 1), 3),
        "contradicting_slots": round(contradicts / max(slots, 1), 3),
        "per_section": per_section,
    }
    rows = [(k, v) for k, v in result.items() if k != "per_section"]
    width = max(len(k) for k, _ in rows)
    print("\n".join(f"{k:<{width}}  {v}" for k, v in rows))
    for name, s in per_section.items():
        print(
            f"  {name:<28} slots {s['slots']:>4}  fallback {s['fallback']:>4}  "
            f"on topic {s['on_topic'] / max(s['with_text'], 1):.2f}"
        )
    write_results(args.output, result)
    if args.examples:
        lines = [
            f"# {len(drafts[:5])} CVs ({args.label}), {Path(args.config).name}, seed {cfg.run.seed}",
            "",
        ]
        for doc, d in zip(docs[:5], drafts[:5]):
            lines += [f"## {doc.label}", "", "```", d.text(), "```", ""]
        Path(args.examples).write_text("\n".join(lines))


if __name__ == "__main__":
    main()
