"""The CV experiment's Table 2 (the synthetic-CV paper's, docs/references.md): one row per
training set from its evaluate result, written as table.json and table.md with the
intrinsic metrics and the encoder's F1 per role beside it. `hrsynth cv-experiment` and
benchmarks/cvs/cv_table.py both write it."""

from pathlib import Path

from synth.io.storage import write_json, write_text


def write_table(out: Path, summary: dict) -> None:
    done = {**summary, "rows": [r for r in summary["rows"] if r is not None]}
    write_json(str(out / "table.json"), done)
    write_text(
        str(out / "table.md"),
        table_markdown(done) + intrinsic_markdown(done) + per_role_markdown(done),
    )


def table_row(name: str, result: dict) -> dict:
    scores, extra = {}, {}
    baseline = result.get("random_baseline")
    for task, column in (("fasttext", "fastText"), ("classify", "encoder")):
        if baseline and task in baseline:
            scores[column] = baseline[task]["weighted_f1_mean"]
            extra[column + "_sd"] = baseline[task]["weighted_f1_sd"]
        elif task in result["tasks"]:
            scores[column] = result["tasks"][task]["weighted_f1"]
    per_class = result["tasks"].get("classify", {}).get("per_class")
    if per_class and not baseline:  # which roles a training set serves
        extra["encoder_f1_per_role"] = {role: per_class[role]["f1"] for role in sorted(per_class)}
    if "intrinsic" in result["tasks"]:
        extra["intrinsic"] = result["tasks"]["intrinsic"]["synthetic"]["overall"]
        extra["intrinsic_real"] = result["tasks"]["intrinsic"]["real"]["overall"]
    return {
        "condition": name,
        "scores": scores,
        "training_documents": result["train"]["documents"],
        **extra,
    }


def table_markdown(summary: dict) -> str:
    c = summary["corpus"]
    lines = [
        (
            f"Corpus: {c['cvs']} distinct CVs, {c['roles']} roles; train {c['train']}, "
            f"test {c['test']} (stratified by role)"
            + (
                f"; at most {c['per_role']} per role, of {c['cvs_in_corpus']} in the corpus"
                if c.get("per_role")
                else ""
            )
            + ". Weighted F1 on the real test CVs."
        ),
        "",
        "| training data | documents | fastText | encoder |",
        "| --- | ---: | ---: | ---: |",
    ]
    for r in [r for r in summary["rows"] if r is not None]:
        cells = []
        for col in ("fastText", "encoder"):
            v = r["scores"].get(col)
            sd = r.get(col + "_sd")
            cells.append("–" if v is None else f"{v:.3f}" + (f" ± {sd:.3f}" if sd else ""))
        lines.append(f"| {r['condition']} | {r['training_documents']} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines) + "\n"


INTRINSIC_ROWS = (
    ("ttr_1", "TTR-1"),
    ("ttr_2", "TTR-2"),
    ("noun_ratio", "noun ratio"),
    ("verb_ratio", "verb ratio"),
    ("np_ratio", "NP ratio"),
    ("np_length", "mean NP length"),
    ("verb_subtree_length", "verb subtree length"),
    ("log_frequency", "log word frequency"),
    ("words_mean", "words"),
)


def intrinsic_markdown(summary: dict) -> str:
    """The synthetic-CV paper's intrinsic metrics, every synthetic set beside the real test CVs."""
    rows = [r for r in summary["rows"] if r is not None and "intrinsic" in r]
    if not rows:
        return ""
    names = [r["condition"].replace("synthetic ", "") for r in rows]
    lines = [
        "",
        "| metric | real test CVs | " + " | ".join(names) + " |",
        "| --- | ---: |" + " ---: |" * len(rows),
    ]
    for key, label in INTRINSIC_ROWS:
        values = [rows[0]["intrinsic_real"][key]] + [r["intrinsic"][key] for r in rows]
        lines.append(f"| {label} | " + " | ".join(f"{v:.3f}" for v in values) + " |")
    return "\n".join(lines) + "\n"


def per_role_markdown(summary: dict) -> str:
    """The encoder's F1 per role, every row beside the first: where a training set of
    synthetic CVs loses against the real one, role by role."""
    rows = [r for r in summary["rows"] if r is not None and "encoder_f1_per_role" in r]
    if len(rows) < 2:
        return ""
    lines = [
        "",
        "| encoder F1 per role | " + " | ".join(r["condition"] for r in rows) + " |",
        "| --- |" + " ---: |" * len(rows),
    ]
    for role in rows[0]["encoder_f1_per_role"]:
        values = [r["encoder_f1_per_role"].get(role) for r in rows]
        cells = " | ".join("–" if v is None else f"{v:.3f}" for v in values)
        lines.append(f"| {role} | {cells} |")
    return "\n".join(lines) + "\n"
