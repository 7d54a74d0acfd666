"""Types decided before a surrogate is drawn (synth.deid.analyzer.rules): one test per rule,
each on spans as a detector gives them, and the greeting and CV rules on real Presidio."""

import re

import pytest

from synth.deid.analyzer.analyze import merged
from synth.deid.analyzer.rules import decided
from synth.deid.analyzer.rules.greetings import greeting_regions
from synth.deid.anonymizer.operators import replace_spans
from synth.deid.anonymizer.surrogates import Surrogates
from synth.deid.pipeline import deidentify
from synth.deid.spans import Span


def span_of(text: str, words: str, type_: str, detector: str = "ner") -> Span:
    at = text.index(words)
    return Span(at, at + len(words), type_, detector)


def shared(text: str, spans: list[Span], doc: str = "d") -> tuple[str, list[dict]]:
    """The shareable text and its key, as `--method surrogate` writes them."""
    done = replace_spans(text, merged([text], [spans])[0], "surrogate", Surrogates(0, doc))
    return done.text, done.key


GREETINGS = [
    ("Dear All,\nI need to change my shift next week.", "Dear All", "ORGANIZATION"),
    ("Good morning,\nmy salary is below the band.", "Good morning", "ORGANIZATION"),
    ("Dear HR Department,\nplease refund my flight.", "Dear HR Department", "ORGANIZATION"),
    ("Please refund my flight.\n\nKind Regards,\nAnna", "Kind Regards", "ORGANIZATION"),
    ("Hi team - my son is ill today.\nBest regards", "Best regards", "PERSON"),
    ("Dear Sir or Madam,\nmy pay is late.", "Sir or Madam", "PERSON"),
]


@pytest.mark.parametrize("text, greeting, type_", GREETINGS)
def test_a_greeting_is_never_replaced(text, greeting, type_):
    out, key = shared(text, [span_of(text, greeting, type_)])
    assert greeting in out and key == [], (out, key)


def test_a_greeting_keeps_the_name_it_holds_as_a_person():
    text = "Dear Anna,\nmy flight was cancelled."
    out, key = shared(text, [span_of(text, "Dear Anna", "ORGANIZATION")])
    assert out.startswith("Dear ") and "Anna" not in out
    assert [k["type"] for k in key] == ["PERSON"], key


def test_greetings_on_real_presidio(presidio_detectors):
    """What Presidio reads in greetings and sign-offs (names aside) is left as written."""
    texts = [text for text, _, _ in GREETINGS] + ["Good Morning Team,\nThank you. Kind Regards"]
    done = deidentify(
        [str(i) for i in range(len(texts))], texts, presidio_detectors, "surrogate", 0
    )
    for text, result in zip(texts, done):
        for a, b in greeting_regions(text):
            assert text[a:b] in result.text, (text, result.text)


def test_a_city_the_ner_calls_an_organisation_is_replaced_by_a_city():
    text = "I flew from Zagreb to Lisbon for the training on 3 March."
    spans = [span_of(text, "Zagreb", "ORGANIZATION"), span_of(text, "Lisbon", "PERSON")]
    out, key = shared(text, spans)
    assert [k["type"] for k in key] == ["LOCATION", "LOCATION"], key
    # drawn as a city is drawn (Faker's), not as a company
    assert key[0]["replacement"] == Surrogates(0, "d").replace("LOCATION", "Zagreb")
    assert key[0]["replacement"] != Surrogates(0, "d").replace("ORGANIZATION", "Zagreb")
    assert "Zagreb" not in out and "Lisbon" not in out
    # a first name that is also a city stays a person without a place's preposition
    named = "Please ask Florence about my refund."
    assert decided(named, [span_of(named, "Florence", "PERSON")])[0].type == "PERSON"
    assert decided(text, [span_of(text, "Zagreb", "ORGANIZATION")])[0].type == "LOCATION"


@pytest.mark.parametrize("date", ["Fri 12.03.", "Thurs. 3.6.", "Mon, 14.10.2024", "12.03.2024"])
def test_a_weekday_with_a_dotted_date_is_replaced_by_a_date(date):
    text = f"I was off sick on {date} and came back after."
    spans = [span_of(text, date.split()[-1], "ORGANIZATION")]  # what a general NER reads
    _, key = shared(text, spans)
    assert [k["type"] for k in key] == ["DATE"] and key[0]["original"] == date.rstrip(), key
    new = key[0]["replacement"]
    assert new != date
    assert re.fullmatch(r"(?:[A-Z][a-z]+\.?,? )?\d{1,2}\.\d{1,2}\.(?:\d{4})?", new), new
    # no detector at all: the form alone is a date
    assert [s.type for s in merged([text], [[]])[0]] == ["DATE"]


def test_a_clause_never_starts_in_a_greeting():
    text = "Hi HR, my colleague keeps shouting at me in meetings. Thanks"
    clause = span_of(text, "Hi HR, my colleague keeps shouting at me in meetings", "CONDUCT")
    out, key = shared(text, [clause])
    assert out.startswith("Hi HR, "), out
    assert all(not k["original"].startswith("Hi") for k in key), key


def test_a_conduct_clause_keeps_its_subject_and_gets_a_predicate_of_its_shape():
    from synth.deid.anonymizer.surrogates import neutral_phrases

    past = neutral_phrases()["CONDUCT"]["past"]
    text = "Last week my supervisor shouted at me in front of the whole team."
    clause = span_of(text, "my supervisor shouted at me in front of the whole team", "CONDUCT")
    out, _ = shared(text, [clause])
    subject = re.match(r"Last week (my \w+(?: \w+)?) ", out)
    assert subject and subject[1] != "my supervisor", out  # a role of its group
    assert any(out[subject.end() :].startswith(p) for p in past), out
    pronoun = "Last week he shouted at me in front of the whole team."
    out, _ = shared(
        pronoun, [span_of(pronoun, "he shouted at me in front of the whole team", "CONDUCT")]
    )
    assert out.startswith("Last week he ") and any(out[13:].startswith(p) for p in past), out


def test_no_span_covers_a_whole_document():
    for text in ["My manager keeps humiliating me. He hides my mail.", "He keeps humiliating me"]:
        spans = merged([text], [[Span(0, len(text), "CONDUCT", "ner")]])[0]
        outside = "".join(
            text[a.end : b.start]
            for a, b in zip(
                [Span(0, 0, "", "")] + spans, spans + [Span(len(text), len(text), "", "")]
            )
        )
        assert re.search(r"\w", outside), (text, spans)


def test_replacements_keep_the_original_spacing():
    text = "Dear HR,\nmy manager Tom Baker\nkeeps shouting.\nRegards"
    spans = [Span(text.index("Tom"), text.index("keeps"), "PERSON", "ner")]  # holds the line break
    out, _ = shared(text, spans)
    assert re.fullmatch(r"Dear HR,\nmy manager \S+ \S+\nkeeps shouting\.\nRegards", out), out
    mid = "I asked Tomasz for it."
    inside = Span(mid.index("Tom"), mid.index("Tom") + 3, "PERSON", "ner")  # ends inside a word
    out, _ = shared(mid, [inside])
    assert "asz" not in out and re.fullmatch(r"I asked \S+( \S+)? for it\.", out), out


CV = (
    "Olusegun Adeyemi\nLagos | olu.adeyemi@example.com\n\nEXPERIENCE\nData analyst at a bank.\n"
    "\nEDUCATION\nBSc Economics, 2015\n\nSKILLS\nSQL, Excel"
)


def test_a_cvs_header_name_is_replaced(presidio_detectors):
    out, key = shared(CV, [])
    assert "Olusegun" not in out and "Adeyemi" not in out, out
    assert key[0]["type"] == "PERSON" and key[0]["original"] == "Olusegun Adeyemi"
    # through the job's path with real Presidio, and a `Name:` line
    named = CV.replace("Olusegun Adeyemi\n", "Name: Olusegun Adeyemi\n")
    done = deidentify(["a", "b"], [CV, named], presidio_detectors, "surrogate", 0)
    for result in done:
        assert "Olusegun" not in result.text and "Adeyemi" not in result.text, result.text
    # a job title in the header is no name, and a ticket gets no header rule
    titled = CV.replace("Olusegun Adeyemi", "Data Scientist")
    assert "Data Scientist" in shared(titled, [])[0]
    ticket = "Olusegun Adeyemi\nplease refund my flight."
    assert shared(ticket, [])[0] == ticket


@pytest.mark.parametrize(
    "words, typed, decided_as",
    [
        ("2016-2019", "PHONE", "DATE"),  # a range of years a general NER reads as a phone
        ("647-778-5978", "ID", "PHONE"),
        ("ana.souza@example.org", "URL", "EMAIL"),
        ("github.com/asouza", "ORGANIZATION", "URL"),
        ("three days", "DATE", "SPAN_OF_TIME"),
        ("the past 4 months", "DATE", "SPAN_OF_TIME"),
        ("Missouri State University", "PERSON", "ORGANIZATION"),
        ("Maria Rossi", "ORGANIZATION", "PERSON"),
    ],
)
def test_a_span_with_a_shape_or_words_of_its_own_gets_their_type(words, typed, decided_as):
    text = f"Note: {words} here."
    assert [s.type for s in decided(text, [span_of(text, words, typed)])] == [decided_as]


def test_a_name_type_span_holding_two_things_is_cut_and_each_part_typed():
    text = "Engineer at Amazon - Seattle, WA (2021-02 - 2022-03)\n\nSKILLS\nEXPERIENCE\nx"
    spans = decided(text, [span_of(text, "Amazon - Seattle, WA", "ORGANIZATION")])
    assert [(text[s.start : s.end], s.type) for s in spans] == [
        ("Amazon", "ORGANIZATION"),
        ("Seattle, WA", "LOCATION"),
        ("2021-02", "DATE"),
        ("2022-03", "DATE"),
    ]
    across = "I work in Munich\n\nTechnical skills"
    (cut,) = decided(across, [span_of(across, "Munich\n\nTechnical", "ORGANIZATION")])
    assert across[cut.start : cut.end] == "Munich" and cut.type == "LOCATION"
    wrapped = "BSc; University of\n    Bologna, 2012"
    (whole,) = decided(wrapped, [span_of(wrapped, "University of\n    Bologna", "ORGANIZATION")])
    assert wrapped[whole.start : whole.end] == "University of\n    Bologna"


def test_in_a_cv_a_single_unknown_word_typed_person_is_the_employer():
    cv = "EXPERIENCE\nSenior Architect at Zipscene, 2013-2018\n\nEDUCATION\nBSc, 2012"
    (span, *_) = decided(cv, [span_of(cv, "Zipscene", "PERSON")])
    assert span.type == "ORGANIZATION"
    ticket = "My manager Zipscene keeps shouting at me."
    assert decided(ticket, [span_of(ticket, "Zipscene", "PERSON")])[0].type == "PERSON"


def test_technologies_a_cv_lists_are_left_as_written():
    cv = "SKILLS\nLanguages: C++, Java, Python, GNU/Linux\n\nEXPERIENCE\nOracle, 2019"
    spans = [span_of(cv, w, t) for w, t in (("C++", "ORGANIZATION"), ("GNU/Linux", "PERSON"))]
    spans += [span_of(cv, "Java, Python", "ORGANIZATION"), span_of(cv, "Oracle", "ORGANIZATION")]
    kept = [cv[s.start : s.end] for s in decided(cv, spans) if s.type != "DATE"]
    assert kept == ["Oracle"]  # an employer that is a technology's name too is replaced


def test_an_organisation_found_once_is_replaced_wherever_it_stands():
    cv = "EXPERIENCE\nEngineer at Zipscene, 2013-2018.\nZipscene was bought by NCR.\n\nEDUCATION\nx"
    out, key = shared(cv, [span_of(cv, "Zipscene", "ORGANIZATION")])
    assert (
        "Zipscene" not in out
        and len({k["replacement"] for k in key if k["type"] == "ORGANIZATION"}) == 1
    )


def test_years_written_alone_move_back_together_past_the_documents_other_years():
    s = Surrogates(0, "d")
    back = s.years_back
    assert 10 <= back <= 19
    assert s.replace("DATE", "2016-Present") == f"{2016 - back}-Present"
    assert s.replace("DATE", "2011 - 2015") == f"{2011 - back} - {2015 - back}"


def test_a_university_named_after_its_city_is_an_organisation():
    text = "PhD, Università di Trento, 2019; BSc, University of\n    Bologna"
    spans = [span_of(text, "Trento", "LOCATION"), span_of(text, "Bologna", "LOCATION")]
    assert [(text[s.start : s.end], s.type) for s in decided(text, spans) if s.type != "DATE"] == [
        ("Università di Trento", "ORGANIZATION"),
        ("University of\n    Bologna", "ORGANIZATION"),
    ]


def test_a_complaint_about_a_thing_keeps_the_thing_and_names_no_one():
    text = "The storage room is used as a smoking area by the warehouse crew."
    clause = span_of(
        text, "The storage room is used as a smoking area by the warehouse crew", "CONDUCT"
    )
    out, key = shared(text, [clause])
    assert out.startswith("The storage room ") and [k["type"] for k in key] == ["CONDUCT"], out


@pytest.mark.parametrize("type_", ["HEALTH", "LIFE_EVENT"])
def test_a_reason_written_as_a_clause_becomes_a_neutral_clause(type_):
    from synth.deid.anonymizer.surrogates import neutral_phrases

    kind = {"HEALTH": "health_reason", "LIFE_EVENT": "life_event"}[type_]
    text = "Hi, my mum had a fall and is in hospital. Can I take Friday off?"
    out, _ = shared(text, [span_of(text, "my mum had a fall and is in hospital", type_)])
    assert any(f"Hi, {c}. Can I" in out for c in neutral_phrases()["CLAUSES"][kind]), out


def test_an_airport_a_general_ner_calls_a_person_is_a_place():
    text = "I flew via Milan Malpensa Airport on Thursday."
    assert decided(text, [span_of(text, "Milan Malpensa Airport", "PERSON")])[0].type == "LOCATION"
