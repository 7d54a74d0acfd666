"""CV planning from a DP CV model: sections as data, attributes consistent, no Ray."""

import json
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from synth import ConfigError
from synth.config.generate import load_config
from synth.generation.template import SLOT
from synth.kinds import plan_documents
from synth.kinds.cvs.sections import load_templates
from tests.conftest import ROOT


@pytest.fixture(scope="module")
def cv_model(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cvmodel")
    for args in (
        [
            "jobs.extract",
            "--corpus",
            "tests/data/cvs_small.jsonl",
            "--output",
            str(folder / "table.csv"),
            "--as-of",
            "2024",
        ],
        [
            "jobs.fit",
            "--data",
            str(folder / "table.csv"),
            "--schema",
            "tests/data/cv_small_schema.yaml",
            "--epsilon",
            "10000",
            "--output",
            str(folder / "model.json"),
        ],
    ):
        subprocess.run([sys.executable, "-m", *args], cwd=ROOT, check=True, capture_output=True)
    return folder / "model.json"


def test_sections_have_2_to_5_variants_and_one_slot_each():
    t = load_templates()
    assert [s.id for s in t.sections] == [
        "personal",
        "skills",
        "education",
        "experience",
        "certifications",
        "languages",
        "hobbies",
    ]
    assert all(2 <= len(s.prompts) <= 5 for s in t.sections)


def test_planned_cvs_repeat_prompts_per_entry(cv_model):
    cfg = load_config(
        str(ROOT / "configs" / "cvs.yaml"), {"dp_model": str(cv_model), "num_docs": 12}
    )
    docs, notes = plan_documents(cfg, "run")
    assert {j.doc_type for j in docs} == {"cv"} and len(notes["dp_samples"]) == 12
    for j in docs:
        assert j.label == j.subcategory and j.category == "CV"
        body = SLOT.join(j.pieces)
        universities = [k for k in j.attributes if k.startswith("university_")]
        companies = [k for k in j.attributes if k.startswith("company_")]
        # one slot per unrepeated section (personal, skills, certifications, languages,
        # hobbies)
        assert len(j.pieces) - 1 == 5 + len(universities) + len(companies)
        for k in universities + companies:
            assert j.attributes[k] in body
        assert "${" not in body
    ledger = notes["dp_models"][str(cv_model)]
    assert ledger["entries"][0]["purpose"].startswith("vocabulary")
    # what generate hands its actors checks every planned CV's fields (synth.kinds.base)
    from synth.kinds import planner
    from synth.kinds.base import CheckedPlanner

    checked = CheckedPlanner(planner(cfg, "run"), "cv", "run", 12, cfg.run.shard_size)
    assert checked.plan_shard(0).docs == [d for d in docs if d.shard == 0]


def test_balanced_roles_give_every_role_its_share(cv_model):
    cfg = load_config(
        str(ROOT / "configs" / "cvs.yaml"),
        {"dp_model": str(cv_model), "num_docs": 40, "cv_roles": "balanced"},
    )
    docs, notes = plan_documents(cfg, "run")
    domain = json.loads(cv_model.read_text())["schema"]["attributes"]["role"]["values"]
    counts = Counter(j.label for j in docs)
    assert set(counts) == set(domain)
    assert max(counts.values()) - min(counts.values()) <= 1
    assert list(notes["dp_samples"]["role"]) == [j.label for j in docs]
    assert notes["cv_roles"]["mode"] == "balanced" and notes["cv_roles"]["roles"] == len(domain)
    drawn, notes = plan_documents(
        load_config(
            str(ROOT / "configs" / "cvs.yaml"),
            {"dp_model": str(cv_model), "num_docs": 40, "cv_roles": "dp_model"},
        ),
        "run",
    )
    assert [j.label for j in drawn] != [j.label for j in docs]
    assert notes["cv_roles"] == {"mode": "dp_model", "untitled_roles": []}


def test_cv_roles_is_checked():
    with pytest.raises(
        ConfigError, match="cvs.roles must be 'dp_model', 'balanced', got 'uniform'"
    ):
        load_config(str(ROOT / "configs" / "cvs.yaml"), {"cv_roles": "uniform"})
    with pytest.raises(ConfigError, match="doc_type cv only"):
        load_config(str(ROOT / "configs" / "tickets.yaml"), {"cv_roles": "balanced"})


def test_the_planner_version_and_a_changed_cv_roles_change_the_fingerprint():
    fixed = {
        "dp_model": "no/such/model.json",
        "reference_date": "2026-01-01",
        "cv_roles": "dp_model",
        # the config's generation block before long_slot_factor was set (a CV drawn long
        # is generated otherwise since: another run)
        "generation": {"preset": "default", "max_new_tokens": 45, "sentences_per_slot": 3},
    }
    cfg = load_config(str(ROOT / "configs" / "cvs.yaml"), fixed)
    # The fingerprint of this config before cv_roles existed (planner 1, commit 5b2092b):
    # planner 2 plans other documents from the same seed, so such an output is not resumed.
    before_cv_roles = "4a453b7b5a1c89ced956c22d739a6574f0b3c584158e905833bca8d25ad15185"
    assert cfg.fingerprint() != before_cv_roles
    balanced = cfg.fingerprint()
    cfg.cvs.roles = "balanced"
    assert cfg.fingerprint() != balanced


def test_cv_config_without_a_model_says_how_to_get_one():
    cfg = load_config(str(ROOT / "configs" / "cvs.yaml"), {"num_docs": 2})
    cfg.run.dp_model = None
    with pytest.raises(ConfigError, match="hrsynth extract"):
        plan_documents(cfg, "run")


def test_a_prompt_without_a_slot_is_refused(tmp_path):
    (tmp_path / "sections.yaml").write_text(
        "header: CV\nsections:\n  - id: a\n    prompts: ['no slot', 'x <generate>']\n"
    )
    (tmp_path / "roles.yaml").write_text("{}\n")
    with pytest.raises(ConfigError, match="exactly one <generate>"):
        load_templates(tmp_path)


@pytest.mark.parametrize(
    "title,expected",
    [
        ("arts teacher", "an arts teacher"),
        ("HR executive", "an HR executive"),
        ("SAP developer", "an SAP developer"),
        ("ETL developer", "an ETL developer"),
        ("DevOps engineer", "a DevOps engineer"),
        (".NET developer", "a .NET developer"),
        ("Java developer", "a Java developer"),
        ("web designer", "a web designer"),
    ],
)
def test_titles_get_the_article_they_are_spoken_with(title, expected):
    from synth.kinds.cvs.plan import with_article

    assert with_article(title) == expected


def test_years_stay_within_a_working_life():
    """The network samples total and per-employer years apart, up to the top bin (50):
    what a CV states must still add up (random draws, every case checked)."""
    from synth.kinds.cvs.plan import MAX_WORKING_YEARS, plausible_years

    rng = np.random.default_rng(0)
    for _ in range(2000):
        employers = list(rng.integers(0, 51, size=rng.integers(0, 4)))
        total, years = plausible_years(int(rng.integers(0, 51)), employers)
        assert 0 <= sum(years) <= total <= MAX_WORKING_YEARS
        assert len(years) == len(employers) and all(0 <= y <= e for y, e in zip(years, employers))
    assert plausible_years(3, [2, 4]) == (6, [2, 4])  # a total below the sum is raised
    assert plausible_years(69, []) == (MAX_WORKING_YEARS, [])
    assert plausible_years(50, [40, 30]) == (45, [22, 23])


def test_generalised_names_come_from_the_personas_country(cv_model, tmp_path):
    """'Other University' becomes a university of the persona's country (the embedded
    list, or a taxonomy_dir's own); 'Generic Company' a company of its locale."""
    import yaml

    from synth.dp.privbayes import load_model_file

    model = load_model_file(str(cv_model))
    kept = set(model.schema.attributes[model.schema.names.index("university_1")].values)
    lists = yaml.safe_load((ROOT / "synth/data/cv/universities_by_country.yaml").read_text())
    own = tmp_path / "taxonomy"
    own.mkdir()
    (own / "universities_by_country.yaml").write_text("IT: [Università di Test]\n")
    for overrides, allowed in (
        ({"countries": ["ES"]}, set(lists["ES"])),
        ({"countries": ["IT"], "taxonomy_dir": str(own)}, {"Università di Test"}),
    ):
        cfg = load_config(
            str(ROOT / "configs" / "cvs.yaml"),
            {"dp_model": str(cv_model), "num_docs": 30, **overrides},
        )
        docs, _ = plan_documents(cfg, "run")
        names = [v for d in docs for k, v in d.attributes.items() if k.startswith("university_")]
        generalised = [n for n in names if n not in kept]
        assert generalised and set(generalised) <= allowed, set(generalised) - allowed


def test_each_cv_aims_at_the_length_its_dp_row_holds(cv_model):
    """`words` is a modelled attribute: each CV's target length is its row's value."""
    cfg = load_config(
        str(ROOT / "configs" / "cvs.yaml"), {"dp_model": str(cv_model), "num_docs": 12}
    )
    docs, notes = plan_documents(cfg, "run")
    drawn = [int(w) for w in notes["dp_samples"]["words"]]
    floors = [len(" ".join(d.pieces).split()) + 10 * (len(d.pieces) - 1) for d in docs]
    expected = [max(w, f) if w > 0 else None for w, f in zip(drawn, floors)]
    assert [d.target_words for d in docs] == expected
    assert all(0 <= w < 3000 for w in drawn) and any(expected)


def test_public_attributes_plan_cvs_without_a_dp_model():
    """cvs.attributes: public (the detector's training CVs): every CV names its owner, a
    city, its universities with graduation years and its employers, as entities in the
    fixed text, and no DP model is read."""
    cfg = load_config(str(ROOT / "configs" / "cvs_detector.yaml"), {"num_docs": 12})
    assert cfg.run.dp_model is None
    docs, notes = plan_documents(cfg, "run")
    assert "dp_models" not in notes and "no ε" in notes["cv_attributes"]
    for doc in docs:
        text = "".join(doc.pieces)
        for key in ("name", "city", "university_1", "graduation_year_1", "company_1"):
            assert doc.entities[key] in text, (key, text)
        assert doc.entity_labels["graduation_year_1"] == "graduation_year"
        years = [int(v) for k, v in doc.entities.items() if k.startswith("graduation_year")]
        assert years == sorted(years) and all(1975 <= y <= 2025 for y in years), years
    assert len({d.entities["name"] for d in docs}) == 12


def test_cv_attributes_is_checked(tmp_path):
    config = tmp_path / "cvs.yaml"
    text = (ROOT / "configs" / "cvs_detector.yaml").read_text()
    config.write_text(text.replace("attributes: public", "attributes: private"))
    with pytest.raises(
        ConfigError, match="cvs.attributes must be 'dp_model', 'public', got 'private'"
    ):
        load_config(str(config))
