"""Detectors of personal data; each turns texts into spans of synth.deid.types' types.

- `presidio`: Presidio's analyzer (patterns, checksums and spaCy's NER, on the packaged
  en_core_web_sm) plus recognizers for what it misses in HR text
  (synth/data/deid/recognizers.yaml: amounts, percentages, health reasons, life events).
- `presidio-basic`: Presidio's own recognizers only, the baseline this field uses.
- `ner`: a BIO token-classification model fine-tuned on synthetic tickets, a
  personal-data detector that never saw real data: the one `hrsynth detector build`
  registered (synth.deid.registry), or any `--ner-model` folder (evaluate's
  OUTPUT/models/bio_ner).
- `llm`: an instruction model asked to list the personal data it sees (synth.deid.llm).
- any detector an installed package registers (`hrsynth.detectors`, a `module:Class` entry
  point whose instances have `name` and `detect(texts)`: docs/extending.md).

Detectors are built where they run (once per actor) by `make_detectors`.
"""

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from synth import DATA_DIR, ConfigError, plugins
from synth.deid.analyzer.conduct import load_conduct, may_complain
from synth.deid.analyzer.hygiene import STEPS
from synth.deid.analyzer.kinds import cv_shaped, held_clause_labels, load_kinds, sure_kind
from synth.deid.spans import Span, spans_from_word_tags
from synth.deid.types import personal_types
from synth.io.files import read_yaml
from synth.nlp import SPACY_MODEL

# Presidio's e-mail recognizer reads the public-suffix list through tldextract, which
# fetches it from the internet unless told otherwise: use the snapshot it ships.
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

# hrsynth's own detectors, registered as a package registers its own: a name and the
# `module:function` that makes it (given the run's DetectorSettings), loaded only when a
# run names it.
DETECTORS = {
    "presidio": "synth.deid.analyzer.detectors:presidio",
    "presidio-basic": "synth.deid.analyzer.detectors:presidio_basic",
    "ner": "synth.deid.analyzer.detectors:bio_model",
    "llm": "synth.deid.analyzer.detectors:language_model",
}
RECOGNIZERS_FILE = DATA_DIR / "deid" / "recognizers.yaml"
MIN_SCORE = 0.4  # below it Presidio reports 7-digit numbers as US driving licences
# (size, overlap) in characters of the windows long documents are read in
# (synth.deid.analyzer.windows): the BIO model reads 256 word pieces (500 characters stay under it
# even at one piece per 2 characters); spaCy refuses texts over 1,000,000 characters.
# Each overlap is longer than any one value (a clause, an address).
NER_WINDOW = (500, 150)
PRESIDIO_WINDOW = (100_000, 1_000)


class PresidioDetector:
    def __init__(self, hr_recognizers: bool = True, min_score: float = MIN_SCORE):
        import logging

        from presidio_analyzer import AnalyzerEngine

        # It warns on every call that spaCy's MONEY, PERCENT, … keep their own names (we
        # map them in types.yaml).
        logging.getLogger("presidio-analyzer").setLevel(logging.ERROR)

        nlp = shared_parse_engine()
        self.analyzer = AnalyzerEngine(nlp_engine=nlp, supported_languages=["en"])
        if hr_recognizers:
            for recognizer in hr_recognizer_set():
                self.analyzer.registry.add_recognizer(recognizer)
        self.name = "presidio" if hr_recognizers else "presidio-basic"
        self.min_score = min_score
        self.type_of = personal_types().by_presidio

    def detect(self, texts: list[str]) -> list[list[Span]]:
        from synth.deid.analyzer.capitals import name_case_view

        out = []
        for first in range(0, len(texts), PARSED_TOGETHER):
            chunk = texts[first : first + PARSED_TOGETHER]
            views = [name_case_view(text) for text in chunk]
            self.analyzer.nlp_engine.prepare(chunk + [v for v, changed in views if changed])
            out += [self._found(text, *view) for text, view in zip(chunk, views)]
        return out

    def _found(self, text: str, view: str, changed: list) -> list[Span]:
        found = self._analyze(text)
        if changed:  # names in capitals: what the view finds over a changed word
            found += [
                r
                for r in self._analyze(view)
                if any(r.start < end and start < r.end for start, end in changed)
            ]
        return [self._span(r) for r in found if r.entity_type in self.type_of]

    def _analyze(self, text: str) -> list:
        # The decision process costs nothing measurable (50 tickets: 0.52 s either way).
        return self.analyzer.analyze(
            text, language="en", score_threshold=self.min_score, return_decision_process=True
        )

    def _span(self, result) -> Span:
        """Presidio's result as a span that names its recognizer and decision."""
        explained = result.analysis_explanation
        decision = explained.textual_explanation if explained else None
        if explained and explained.score_context_improvement:
            decision = (
                f"{decision}; score raised by {explained.score_context_improvement:g} "
                f"for the context word {explained.supportive_context_word!r}"
            )
        recognizer = (result.recognition_metadata or {}).get("recognizer_name")
        kind, score = self.type_of[result.entity_type], round(result.score, 4)
        return Span(result.start, result.end, kind, self.name, score, (), recognizer, decision)


# A text up to this long is parsed through the shared cache (synth.deid.parsing): the
# clause rules read the BIO model's windows (NER_WINDOW), so a document of one window is
# parsed once for Presidio and the rules. A longer one (a CV) is parsed apart: the rules
# never ask for it whole, and its parse would only fill the cache.
SHARED_PARSE_CHARS = NER_WINDOW[0]
PARSED_TOGETHER = 32  # texts Presidio's parses are made for at once (spaCy's pipe)


def shared_parse_engine():
    """Presidio's spaCy engine on hrsynth's own pipeline (synth.nlp.load_nlp, the same
    package Presidio would load a second copy of) and parse cache."""
    from presidio_analyzer.nlp_engine import SpacyNlpEngine

    from synth.deid.parsing import parse_all, parsed
    from synth.nlp import load_nlp

    class SharedParse(SpacyNlpEngine):
        def load(self) -> None:
            self.nlp = {"en": load_nlp()}
            self.long: dict = {}  # the chunk's texts over SHARED_PARSE_CHARS, parsed

        def prepare(self, texts: list[str]) -> None:
            """The texts Presidio will be asked next, parsed together."""
            parse_all([t for t in texts if len(t) <= SHARED_PARSE_CHARS])
            longer = list(dict.fromkeys(t for t in texts if len(t) > SHARED_PARSE_CHARS))
            self.long = dict(zip(longer, load_nlp().pipe(longer, batch_size=8)))

        def process_text(self, text: str, language: str):
            doc = parsed(text) if len(text) <= SHARED_PARSE_CHARS else self.long.get(text)
            doc = doc if doc is not None else load_nlp()(text)
            return self._doc_to_nlp_artifact(doc, language)

    engine = SharedParse(models=[{"lang_code": "en", "model_name": SPACY_MODEL}])
    engine.load()
    return engine


def hr_recognizer_set() -> list:
    """Presidio recognizers from recognizers.yaml: regex patterns, and deny lists made of
    the lay-phrase lists' values and phrases."""
    import regex  # Presidio's regex engine
    from presidio_analyzer import Pattern, PatternRecognizer

    from synth.kinds.tickets.forms import load_catalogue

    doc = read_yaml(RECOGNIZERS_FILE, "de-identification recognizers")
    recognizers = []
    for entity, patterns in doc["patterns"].items():
        for case_sensitive in (False, True):
            chosen = [p for p in patterns if bool(p.get("case_sensitive")) == case_sensitive]
            if not chosen:
                continue
            flags = regex.DOTALL | regex.MULTILINE | (0 if case_sensitive else regex.IGNORECASE)
            recognizers.append(
                PatternRecognizer(
                    supported_entity=entity,
                    patterns=[Pattern(p["name"], p["regex"], float(p["score"])) for p in chosen],
                    name=f"hrsynth {entity.lower()} patterns"
                    + (" (case-sensitive)" if case_sensitive else ""),
                    global_regex_flags=flags,
                )
            )
    import presidio_analyzer.predefined_recognizers as predefined

    for name in doc.get("presidio_country", []):
        recognizers.append(getattr(predefined, name)(supported_language="en"))
    lay = load_catalogue().lay
    for entity, kind in doc["deny_lists"].items():
        phrases = {value for value in lay[kind]} | {p for ps in lay[kind].values() for p in ps}
        recognizers.append(
            PatternRecognizer(
                supported_entity=entity,
                deny_list=sorted(phrases, key=len, reverse=True),
                name=f"hrsynth {entity.lower()} list",
            )
        )
    return recognizers


class NerDetector:
    """The fine-tuned BIO model: word tags → spans of the types file's types; its ticket
    kind classifier (when built with one) gates the clause types."""

    name = "ner"

    def __init__(self, model_dir: str, clause_gate: str = "kind", precision: str = "float32"):
        from transformers import AutoModelForTokenClassification

        from synth.encoder import load_tokenizer
        from synth.precision import encoder_device, resolve_precision

        folder = Path(model_dir)
        if not (folder / "config.json").is_file():
            raise ConfigError(
                f"--ner-model {model_dir}: no fine-tuned model there; run `hrsynth detector "
                "build` or pass a built detector's folder"
            )
        device = encoder_device()  # a GPU where the actor was given one
        self.model = AutoModelForTokenClassification.from_pretrained(folder).to(device)
        self.precision = resolve_precision(precision, device)
        tags = [self.model.config.id2label[i] for i in range(self.model.config.num_labels)]
        if not all(re.fullmatch(r"O|[BI]-.+", t) for t in tags):
            raise ConfigError(
                f"--ner-model {model_dir}: its labels are not BIO tags ({tags[:3]}…); "
                "retrain it with this version of `hrsynth evaluate`"
            )
        self.tags = tags
        self.tokenizer = load_tokenizer(str(folder))
        self.type_of = personal_types().by_variable
        self.cv_labels = personal_types().cv_variables
        self.kinds = load_kinds(folder)  # None for a detector built without one
        self.kind_tags = getattr(self.model.config, "kind_tags", None)  # labels per kind
        self.conduct = load_conduct(folder)  # None for a detector built without one
        # the sentence decision (synth.deid.analyzer.sentences); None for a detector built
        # without one; the bar a sentence's type needs (None: not used, to measure it)
        from synth.deid.analyzer.described import MIN_PROBABILITY
        from synth.deid.analyzer.sentences import load_sentences

        self.sentences = load_sentences(folder)
        if self.sentences is not None:
            self.sentences.precision = self.precision
        self.sentence_bar = MIN_PROBABILITY
        self.steps = STEPS  # its output steps (synth.deid.analyzer.hygiene); fewer to measure one
        self.clause_gate = clause_gate  # synth.deid.analyzer.kinds.CLAUSE_GATES

    @property
    def gated_after(self) -> bool:
        """Whether a CV's types are dropped from tickets after the model: for a detector
        built before labels per kind (synth.deid.analyzer.kind_tags), unless `all`."""
        return self.clause_gate != "all" and self.kind_tags is None

    def allowed(self, documents: list[str]) -> list[list[bool]] | None:
        """Per document, the tags its kind allows (None: every tag, for a detector built
        before labels per kind, or under the `all` gate)."""
        from synth.deid.analyzer.kind_tags import allowed_tags, document_kind

        if self.kind_tags is None or self.clause_gate == "all":
            return None
        return [allowed_tags(self.tags, self.kind_tags, document_kind(d)) for d in documents]

    # A window of a long document is judged by the whole document: its kind, whether it
    # is a CV (synth.deid.analyzer.windows passes `documents`).
    reads_documents = True

    def detect(self, texts: list[str], documents: list[str] | None = None) -> list[list[Span]]:
        from synth.deid.analyzer.hygiene import detector_tags
        from synth.encoder import predict_word_tags, word_tags

        documents = documents or texts
        sure: list = []
        allowed = self.allowed(documents)
        predicted = predict_word_tags(
            self.model,
            self.tokenizer,
            texts,
            self.tags,
            scores=sure,
            allowed=allowed,
            precision=self.precision,
        )
        likely = self.kinds.likelihoods(documents) if self.kinds else [None] * len(texts)
        kinds = [sure_kind(p) if p else None for p in likely]  # one classification a batch
        out = []
        rows = zip(texts, documents, predicted, kinds, likely, sure)
        for text, document, raw, kind, p, probability in rows:
            words, _ = word_tags(self.tokenizer, text, [])
            conduct = self.conduct if may_complain(p) else None
            tags = detector_tags(text, words, raw, self.steps, kind, conduct)  # roles, …
            held = held_clause_labels(document, p, self.clause_gate)
            if held is not None:
                tags = without_clauses(tags, held)
            if self.gated_after and not cv_shaped(document):  # a CV's types in CVs
                tags = ["O" if t[2:] in self.cv_labels else t for t in tags]
            spans = spans_from_word_tags(words, tags, self.type_of, self.name)
            out.append(scored(spans, raw, tags, words, probability, self.type_of, self.name))
        if self.sentences is not None and self.sentence_bar is not None:
            from synth.deid.analyzer.described import described_spans

            more = described_spans(texts, out, self.sentences, self.sentence_bar, documents)
            out = [spans + added for spans, added in zip(out, more)]
        return out


def scored(spans, raw, tags, words, probability, type_of, name) -> list[Span]:
    """The detector's spans with their score (the mean probability the model gave its
    words' tags) and, where span hygiene (synth.deid.analyzer.hygiene) moved or retyped
    what the model tagged, that step in their history."""
    from synth.deid.analyzer.rules import traced

    model_spans = spans_from_word_tags(words, raw, type_of, name)
    out = []
    for span in traced("span hygiene", model_spans, spans):
        inside = [
            p
            for (a, b), p in zip(words, probability)
            if p is not None and a >= span.start and b <= span.end
        ]
        score = round(sum(inside) / len(inside), 4) if inside else None
        out.append(replace(span, score=score))
    return out


def without_clauses(tags: list[str], held: frozenset[str] = frozenset()) -> list[str]:
    """BIO tags with the spans of clause types (span_hygiene.yaml's `clause_types`) not in
    `held` dropped."""
    from synth.deid.analyzer.hygiene import conventions

    dropped = conventions()["clause_types"] - held
    return ["O" if t != "O" and t[2:] in dropped else t for t in tags]


def registered() -> dict[str, str | None]:
    """{detector: its `module:function` (hrsynth's own, DETECTORS) or the `module:Class`
    an installed package names}."""
    return plugins.registry("detectors", DETECTORS)


def names() -> list[str]:
    return list(registered())


def help_names() -> list[str]:
    """Every --detectors name for --help, a broken installed one marked (never fails)."""
    return plugins.help_names("detectors", DETECTORS, installed_detector)


def installed_detector(name: str) -> type:
    """The class an installed package registers as detector `name`, checked: it has
    `detect` and declares `TYPES`, each one of the personal types (types.yaml)."""
    target = plugins.installed("detectors")[name]
    found = plugins.load("detectors", name, target, ("detect", "TYPES"))
    known = personal_types().names
    declared = found.TYPES
    if isinstance(declared, str) or not isinstance(declared, (tuple, list, set, frozenset)):
        declared = [declared]
    unknown = [t for t in declared if t not in known]
    if unknown or not declared or not isinstance(found, type) or not callable(found.detect):
        raise ConfigError(
            f"detector {name!r} ({target}) declares TYPES {list(declared)!r}; a detector is a "
            f"class whose TYPES are personal types ({', '.join(known)}), with detect(texts): "
            "docs/extending.md"
        )
    return plugins.guard(found, "detectors", name)  # its construction and detect: the seam


def check_detectors(names: list[str], ner_model: str | None, needed: bool = True) -> None:
    """`needed`: the method replaces spans, so some detector must be named."""
    known = registered()
    plugins.check_chosen("detectors", DETECTORS, installed_detector, names)
    unknown = [n for n in names if n not in known]
    if unknown or (not names and needed):
        raise ConfigError(
            f"--detectors: unknown or empty {unknown or names}; choose from {', '.join(known)}"
        )
    if "ner" in names and not ner_model:
        raise ConfigError(
            "--detectors ner needs a detector: none is built; run `hrsynth detector build` "
            "(make detector) or pass --ner-model"
        )
    if "ner" in names:
        check_ner_folder(ner_model)


def check_ner_folder(model_dir: str) -> None:
    """A detector folder that cannot load fails here, on the driver, in one line: not in
    every actor, after Ray started, as hundreds of lines of transformers' trace. Reads the
    config and the weights' header only (milliseconds)."""
    import json

    folder = Path(model_dir)
    fix = "rebuild it with `hrsynth detector build` or pass another --ner-model"
    try:
        json.loads((folder / "config.json").read_text())
    except FileNotFoundError:
        raise ConfigError(
            f"--ner-model {model_dir}: no fine-tuned model there (no config.json); run "
            "`hrsynth detector build` or pass a built detector's folder"
        ) from None
    except (OSError, ValueError):
        raise ConfigError(f"--ner-model {model_dir}: config.json is damaged; {fix}") from None
    check_kinds_file(folder, fix)
    weights = folder / "model.safetensors"
    if not weights.is_file():
        if (folder / "pytorch_model.bin").is_file():
            return
        raise ConfigError(f"--ner-model {model_dir}: no weights (model.safetensors); {fix}")
    from safetensors import safe_open

    try:
        with safe_open(str(weights), "pt") as f:
            list(f.keys())
    except Exception:  # noqa: BLE001 (safetensors raises its own types for a bad header)
        raise ConfigError(f"--ner-model {model_dir}: model.safetensors is damaged; {fix}") from None


def check_kinds_file(folder: Path, fix: str) -> None:
    """A kind or conduct classifier beside the weights that cannot be read is named here,
    not in every actor (a detector built without one has none: that is fine)."""
    import json

    from synth.deid.analyzer.conduct import CONDUCT_FILE
    from synth.deid.analyzer.kinds import KINDS_FILE, KindClassifier

    for name in (KINDS_FILE, CONDUCT_FILE):
        path = folder / name
        if not path.exists():
            continue
        try:
            KindClassifier.from_dict(json.loads(path.read_text()))
        except (OSError, ValueError, KeyError, TypeError):
            raise ConfigError(f"--ner-model {folder}: {name} is damaged; {fix}") from None


# What Presidio's own recognizers report without hrsynth's (presidio-basic): its pattern
# and checksum recognizers for English and spaCy's named entities. Written out because
# loading Presidio's registry to ask takes seconds; a test keeps it equal to the registry.
PRESIDIO_BUILT_IN = ("CREDIT_CARD", "CRYPTO", "DATE_TIME", "EMAIL_ADDRESS", "IBAN_CODE",
    "IP_ADDRESS", "LOCATION", "MAC_ADDRESS", "MEDICAL_LICENSE", "NRP", "ORGANIZATION", "PERSON",
    "PHONE_NUMBER", "UK_NHS", "URL", "US_BANK_NUMBER", "US_DRIVER_LICENSE", "US_ITIN",
    "US_PASSPORT", "US_SSN", "UUID")  # fmt: skip


def presidio_entities(hr_recognizers: bool = True) -> set[str]:
    """The entity names the `presidio` (or `presidio-basic`) detector can report: read from
    the recognizers file, so a type added there is counted without loading spaCy."""
    entities = set(PRESIDIO_BUILT_IN)
    if hr_recognizers:
        doc = read_yaml(RECOGNIZERS_FILE, "de-identification recognizers")
        entities |= set(doc["patterns"]) | set(doc["deny_lists"])
        entities |= {_country_entity(name) for name in doc.get("presidio_country", [])}
    return entities


def _country_entity(recognizer: str) -> str:
    """UkNinoRecognizer -> UK_NINO: Presidio names a country recognizer after its entity."""
    words = re.findall(r"[A-Z][a-z]*", recognizer.removesuffix("Recognizer"))
    return "_".join(w.upper() for w in words)


def types_looked_for(names: list[str]) -> set[str]:
    """The personal-data types the named detectors can report together (an installed
    one's: the `TYPES` it declares)."""
    types = personal_types()
    found: set[str] = set()
    installed = plugins.installed("detectors")
    for name in names:
        if name in installed:
            found |= set(installed_detector(name).TYPES)
        elif name in ("ner", "llm"):  # every ticket variable's type; llm is asked for all
            found |= set(types.names) if name == "llm" else set(types.by_variable.values())
            found |= set(types.by_persona.values()) if name == "llm" else set()
        else:
            entities = presidio_entities(hr_recognizers=name == "presidio")
            found |= {types.by_presidio[e] for e in entities if e in types.by_presidio}
    return found


def types_not_looked_for(names: list[str]) -> list[str]:
    """The personal-data types none of the named detectors reports, in the types file's
    order."""
    found = types_looked_for(names)
    return [t for t in personal_types().names if t not in found]


# What an installed detector is asked on the driver before a run (try_installed).
TRIAL_TEXT = (
    "Hi HR, I am Maria Lopez (maria.lopez@example.com); my badge EMP-20417 stopped working."
)


def try_installed(names: list[str]) -> None:
    """Each installed detector among `names` made and asked one real text on the driver,
    its spans through the checks every batch gets (synth.deid.analyzer.analyze.detect), before
    Ray starts or anything is written: its exception or wrong answer costs seconds and
    one line. hrsynth's own are tested with hrsynth and not loaded twice."""
    from synth.deid.analyzer.analyze import detect

    installed = plugins.installed("detectors")
    made = [installed_detector(name)() for name in names if name in installed]
    if made:
        detect([TRIAL_TEXT], made)


@dataclass(frozen=True)
class DetectorSettings:
    """What hrsynth's own detectors are made with: the BIO model's folder, the llm
    detector's maker (a zero-argument callable: it needs the engine), and where the BIO
    model's clause types count (synth.deid.analyzer.kinds), and the precision its
    encoder runs at (synth.precision)."""

    ner_model: str | None = None
    llm: Callable | None = None
    clause_gate: str = "kind"
    precision: str = "float32"


def presidio(settings: DetectorSettings):
    from synth.deid.analyzer.windows import Windowed

    return Windowed(PresidioDetector(hr_recognizers=True), *PRESIDIO_WINDOW)


def presidio_basic(settings: DetectorSettings):
    from synth.deid.analyzer.windows import Windowed

    return Windowed(PresidioDetector(hr_recognizers=False), *PRESIDIO_WINDOW)


def bio_model(settings: DetectorSettings):
    from synth.deid.analyzer.windows import Windowed

    made = NerDetector(settings.ner_model, settings.clause_gate, settings.precision)
    return Windowed(made, *NER_WINDOW)


def language_model(settings: DetectorSettings):
    return settings.llm()


def make_detectors(
    names: list[str],
    ner_model: str | None = None,
    llm=None,
    clause_gate: str = "kind",
    precision: str = "float32",
) -> list:
    """Each named detector made where it runs: hrsynth's own from DETECTORS (loaded when
    named, given DetectorSettings), an installed one's class with no arguments, through
    the plugin seam. `precision`: the BIO model's and sentence decision's encoder
    (synth.precision); float32 here, what every measurement of the detector used; the
    job's `auto` picks per CPU."""
    check_detectors(names, ner_model, needed=False)
    settings = DetectorSettings(ner_model, llm, clause_gate, precision)
    installed = plugins.installed("detectors")
    made = []
    for name in names:
        if name in installed:
            made.append(installed_detector(name)())
        else:
            made.append(plugins.load("detectors", name, DETECTORS[name])(settings))
    return made
