"""Ray Train runs of the three encoder tasks on a real local cluster with the real MiniLM.

Training data here is the development set itself (one short epoch): these tests are
about the runs producing predictions of the right shape, not about their quality.
"""

import pytest
from sklearn.metrics import f1_score

from eval import cls_entity
from eval.testset import DEV_TICKETS, load_testset
from synth.encoder import resolve_encoder
from synth.kinds.tickets.taxonomy import load_taxonomy

TAXONOMY = load_taxonomy()
LABELS = sorted(TAXONOMY)
ENTITIES = sorted({v for s in TAXONOMY.values() for v in s.variables})
TAGS = ["O"] + [f"{p}-{e}" for e in ENTITIES for p in "BI"]


@pytest.fixture(scope="module")
def dev():
    return load_testset(DEV_TICKETS, LABELS)


def _rows(dev):
    return [
        {
            "text": d.text,
            "label": d.label,
            "entities": [{"start": s, "end": e, "label": lab} for s, e, lab in d.entities],
        }
        for d in dev.docs
    ]


def _config(dev, **extra):
    return {
        "encoder": resolve_encoder(None),
        "labels": LABELS,
        "tags": TAGS,
        "epochs": 1,
        "lr": 5e-5,
        "batch_size": 8,
        "seed": 0,
        "test_texts": [d.text for d in dev.docs],
        **extra,
    }


def test_classifier_on_two_workers(ray_local, dev, tmp_path):
    from jobs.on_ray import training

    metrics, predicted = training.fit(
        "classify",
        ray_local.data.from_items(_rows(dev)),
        _config(dev),
        tmp_path,
        num_workers=2,
        use_gpu=False,
    )
    assert len(predicted) == len(dev.docs) and set(predicted) <= set(LABELS)
    assert metrics["examples"] > 0 and metrics["examples_per_s"] > 0
    assert any((tmp_path / "checkpoints" / "classify").iterdir())


def test_bio_ner_tags_every_word(ray_local, dev, tmp_path, capsys):
    import re

    from jobs.on_ray import training
    from synth.encoder import load_tokenizer, word_tags

    _, predicted = training.fit(
        "bio_ner",
        ray_local.data.from_items(_rows(dev)),
        _config(dev, epochs=2, progress_every_s=0.2),
        tmp_path,
        num_workers=1,
        use_gpu=False,
    )
    # training says where it is while it runs (it said nothing for tens of minutes)
    out = capsys.readouterr().out
    assert "bio_ner: training on 40 examples, 10 steps (2 epochs)" in out
    assert re.search(r"bio_ner: epoch [12]/2, step \d+/10, loss \d+\.\d{3}, .* ETA", out), out
    tokenizer = load_tokenizer(resolve_encoder(None))
    for doc, tags in zip(dev.docs, predicted):
        assert len(tags) == len(word_tags(tokenizer, doc.text, [])[0])
        assert set(tags) <= set(TAGS)
        assert not any(
            t.startswith("I-") and (i == 0 or tags[i - 1][2:] != t[2:]) for i, t in enumerate(tags)
        )


def test_cls_entity_labels_every_candidate(ray_local, dev, tmp_path):
    from eval.intrinsic import load_nlp
    from jobs.on_ray import training

    texts = [d.text for d in dev.docs]
    cands = cls_entity.candidates(load_nlp(), texts)
    rows, test_items, gold = [], [], []
    for doc, found in zip(dev.docs, cands):
        for c in found:
            label = cls_entity.gold_label(c, doc.label, doc.entities)
            rows.append({"text": doc.text, "start": c[0], "end": c[1], "label": label})
            test_items.append((doc.text, c[0], c[1]))
            gold.append(label)
    classes = sorted(set(gold) | {cls_entity.NONE})
    assert sum(g != cls_entity.NONE for g in gold) >= 20  # spaCy finds most gold entities
    _, predicted = training.fit(
        "cls_entity",
        ray_local.data.from_items(rows),
        _config(dev, labels=classes, test_candidates=test_items),
        tmp_path,
        num_workers=1,
        use_gpu=False,
    )
    assert len(predicted) == len(test_items) and set(predicted) <= set(classes)
    m = cls_entity.scores(gold, predicted, gold_missed=0)
    # micro F1 over the entity classes (NONE left out), computed by scikit-learn
    entity_classes = [c for c in classes if c != cls_entity.NONE]
    expected = f1_score(gold, predicted, labels=entity_classes, average="micro", zero_division=0)
    assert m["f1"] == pytest.approx(expected) and m["candidates"] == len(gold)
