"""What each evaluation task's scores say in a line: the rows of report.md and the
headline metrics the history, MLflow and refresh track.

A task names its summary in its registry entry (jobs/eval_tasks.py) and evaluate stores
the result beside the scores (`summary`: `rows` of (label, value), `headline` of (metric,
value, higher is better)), so report.md, the history and every sink read it without
knowing which task wrote it. Functions here are by the shape of the scores, which
several tasks share.
"""

INTRINSIC = ("ttr_1", "ttr_2", "noun_ratio", "propn_ratio", "verb_ratio")
INTRINSIC_SHOWN = (*INTRINSIC, "np_ratio", "np_length", "verb_subtree_length", "log_frequency")


def summary(rows: list, headline: list) -> dict:
    return {"rows": [list(r) for r in rows], "headline": [list(h) for h in headline]}


def classification(s: dict) -> dict:
    keys = (("macro F1", "macro_f1"), ("weighted F1", "weighted_f1"), ("accuracy", "accuracy"))
    return summary([(label, s[k]) for label, k in keys], [(k, s[k], True) for _, k in keys])


def entities(s: dict) -> dict:
    """Span F1, exact and partial (BIO NER)."""
    return summary(
        [("F1 exact", s["exact"]["f1"]), ("F1 partial", s["partial"]["f1"])],
        [(f"{k}_f1", s[k]["f1"], True) for k in ("exact", "partial")],
    )


def candidates(s: dict) -> dict:
    """Candidate classification and what the candidate finder missed (CLS+entity NER)."""
    return summary(
        [("F1 (candidates)", s["f1"]), ("end-to-end recall", s["end_to_end_recall"])],
        [(k, s[k], True) for k in ("f1", "end_to_end_recall")],
    )


def intrinsic(s: dict) -> dict:
    """Synthetic beside real; nothing to track (neither side is better)."""
    synthetic, real = s["synthetic"]["overall"], s["real"]["overall"]
    rows = [
        (f"{k} synthetic / real", f"{synthetic[k]:.3f} / {real[k]:.3f}")
        for k in (*INTRINSIC_SHOWN, "words_mean")
        if k in synthetic and k in real
    ]
    return summary(rows, [])


def privacy(s: dict) -> dict:
    """Private characters and attribute rows reproduced, and the personal-data audit."""
    a, chars = s.get("attributes", {}), s["characters_reproduced"]
    rows = [
        (
            "private characters reproduced",
            chars["share"] if chars["share"] is not None else chars["note"],
        )
    ]
    headline = []
    if "pii_audit" in s:
        audit = s["pii_audit"]
        found = ", ".join(f"{t} {n}" for t, n in audit["findings_per_type"].items()) or "none"
        rows.append(
            (
                f"documents with personal data not planted (audit, policy {audit['policy']})",
                f"{audit['rows_with_findings']} of {audit['rows']} ({found})",
            )
        )
    if "exact_match_rate" in a:
        rows += [
            ("exact match rate", a["exact_match_rate"]),
            ("near match rate (≤ 1 attribute apart)", a["near_match_rate"]),
        ]
        headline += [(k, a[k], False) for k in ("exact_match_rate", "near_match_rate")]
        rows += _holdout_rows(a)
    if chars["share"] is not None:
        headline.append(("characters_reproduced", chars["share"], False))
    audit = s.get("pii_audit")
    if audit and audit["rows"]:
        share = audit["rows_with_findings"] / audit["rows"]
        headline.append(("rows_with_unplanted_personal_data", share, False))
    return summary(rows, headline)


def _holdout_rows(a: dict) -> list:
    h = a["holdout"]
    if not h:
        return [("DCR vs held-out", a["holdout_note"])]
    b = h["baseline_holdout_to_fitted"]
    return [
        (
            "held-out rows: exact / near match",
            f"{b['exact_match_rate']:.3f} / {b['near_match_rate']:.3f}",
        ),
        ("closer to fitted than held-out (0.5 = no memorising)", h["closer_to_fitted_share"]),
    ]


def deid(s: dict) -> dict:
    """Detection F1 per detector, privacy and utility per detector and method."""
    rows, headline = [], []
    for combo, entry in s["detectors"].items():
        f1 = entry["detection"]["all"]["overlap"]["f1"]
        rows.append((f"{combo}: detection F1 (overlap)", f1))
        headline.append((f"{combo} detection_f1", f1, True))
        for method, m in entry["methods"].items():
            drop = m["utility_drop"]
            shown = "n/a" if drop is None else f"{drop:+.3f}"
            rows.append(
                (
                    f"{combo} {method}: privacy mean / p5, utility drop",
                    f"{m['privacy']['mean']:.3f} / {m['privacy']['p5']:.3f}, {shown}",
                )
            )
            headline.append((f"{combo} {method} privacy_mean", m["privacy"]["mean"], True))
    return summary(rows, headline)
