"""`deidentify --explain`: each span replaced with its detector, score and the rules that
changed it; each span a rule kept as written (synth.deid.pipeline, analyzer.rules)."""

from synth.deid.analyzer.rules import Trace, decided, traced
from synth.deid.pipeline import deidentify
from synth.deid.spans import Span

GREETING = "Good morning HR Team,\nCould you send me the form?\nKind regards,\nPaul Martin"
CITY = "hi, they want me in Rotterdam for about three weeks starting mid june.\ncheers\nBram"


def test_a_rule_that_retypes_or_moves_a_span_is_in_its_history():
    before = [Span(0, 9, "PERSON", "presidio", 0.85), Span(10, 14, "DATE", "presidio", 0.6)]
    after = [Span(0, 9, "LOCATION", "presidio"), Span(11, 14, "DATE", "presidio")]
    out = traced("places", before, after)
    assert [(s.score, s.history) for s in out] == [
        (None, ("places: PERSON→LOCATION",)),  # retyped: 0.85 was PERSON's score
        (0.6, ("places: [10,14)→[11,14)",)),
    ]
    made = traced("dates", before, before + [Span(20, 30, "DATE", "dates")])
    assert made[-1].history == ("dates: found [20,30) DATE",) and made[0].history == ()


def test_a_span_a_rule_drops_is_in_the_trace():
    trace = Trace()
    spans = [Span(0, 23, "ORGANIZATION", "presidio", 0.85)]  # "Dear Payroll Department"
    assert decided("Dear Payroll Department,\nHi", spans, trace=trace) == []
    assert [(s.detector, rule) for s, rule in trace.dropped] == [("presidio", "greetings")]


def test_explained_documents_name_detector_score_and_rules(presidio_detectors):
    greeting, city = deidentify(
        ["a", "b"], [GREETING, CITY], presidio_detectors, "tag", 0, explain=True
    )
    kept = [d for d in greeting.decisions if d["outcome"] == "kept as written"]
    assert kept and {d["dropped_by"] for d in kept} == {"greetings"}
    assert "HR Team" in {d["words"] for d in kept} and "HR Team" in greeting.text
    place = next(d for d in city.decisions if d["words"] == "Rotterdam")
    assert place["type"] == "LOCATION" and place["detector"] == "presidio"
    assert place["rules"][-1].startswith("places: ")
    assert place["score"] is None  # a rule retyped it: no detector scored LOCATION
    replaced = [d for d in city.decisions if d["outcome"] == "replaced"]
    assert len(replaced) == len(city.key)  # one decision per span written


def test_without_explain_there_are_no_decisions(presidio_detectors):
    (done,) = deidentify(["a"], [CITY], presidio_detectors, "tag", 0)
    assert done.decisions is None


def test_a_skill_kept_in_a_cv_is_explained_by_its_rule():
    cv = "Ana Souza\n\nSkills\n------\nFormal Concept Analysis\n\nEducation\n---------\nBSc"
    at = cv.index("Formal")
    trace = Trace()
    spans = [Span(at, at + 23, "ORGANIZATION", "presidio", 0.85)]
    assert [s.detector for s in decided(cv, spans, trace=trace)] == ["cv owner"]  # Ana Souza
    assert [(s.detector, rule) for s, rule in trace.dropped] == [("presidio", "resume_words")]


def test_explain_offsets_of_a_right_to_left_run_are_the_inputs(presidio_detectors):
    """Issue 94 (EXP1): a name written reversed under an override was explained at its
    display-order offsets, 4 of 154 rows pointing at other words of the input."""
    written = "Please call me at home. \u202enitraM luaP\u202c asked for the form in Rotterdam."
    (done,) = deidentify(["a"], [written], presidio_detectors, "tag", 0, explain=True)
    by_words = {d["words"]: d for d in done.decisions}
    name = by_words["Paul Martin"]
    assert written[name["start"] : name["end"]] == "nitraM luaP"
    place = by_words["Rotterdam"]
    assert written[place["start"] : place["end"]] == "Rotterdam"


def test_one_row_holds_the_whole_decision(presidio_detectors):
    """Issue 95: who found the span (Presidio's recognizer and decision process), the
    score of the type it ended with, and what it became (method, replacement, where it
    stands in the shared text); the key holds the same offsets."""
    text = "Hi HR, I am Maria Lopez (maria.lopez@example.com); call me on 12 March 2024."
    (done,) = deidentify(["a"], [text], presidio_detectors, "tag,EMAIL=surrogate", 3, explain=True)
    rows = {d["words"]: d for d in done.decisions if d["outcome"] == "replaced"}
    mail = rows["maria.lopez@example.com"]
    assert mail["recognizer"] == "EmailRecognizer" and mail["score"] == 1.0
    assert (
        mail["decision_process"] == "Detected by `EmailRecognizer` using pattern `Email (Medium)`"
    )
    assert mail["method"] == "surrogate" and "@" in mail["replacement"]
    name = rows["Maria Lopez"]
    assert (name["method"], name["replacement"]) == ("tag", "[PERSON]")
    assert name["recognizer"] == "SpacyRecognizer"
    for row in rows.values():
        shared = done.text[row["shared_start"] : row["shared_end"]]
        assert shared == row["replacement"]
    for entry in done.key:
        assert done.text[entry["start"] : entry["end"]] == entry["replacement"]
        assert text.count(entry["original"]) == 1
