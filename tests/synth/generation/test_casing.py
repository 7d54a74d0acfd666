"""A writing profile's casing on finished text: offsets stay true to the words."""

from synth.generation.casing import bare_end, lower_case

TEXT = "Hi,\n\nI am off on March 3 for surgery.\n\nThanks,\nAnna"
CLOSING = "\n\nThanks,\nAnna"
SPANS = [{"start": 17, "end": 24, "label": "date"}, {"start": 29, "end": 36, "label": "reason"}]


def test_lower_case_keeps_every_offset():
    out = lower_case(TEXT + " İstanbul")
    assert len(out) == len(TEXT) + 9 and out.startswith("hi,\n\ni am off on march 3")
    assert out.endswith("İstanbul")  # lowering İ would add a character


def test_the_message_loses_its_full_stop_before_the_sign_off():
    text, spans = bare_end(TEXT, SPANS, CLOSING)
    assert text == "Hi,\n\nI am off on March 3 for surgery\n\nThanks,\nAnna"
    assert [text[s["start"] : s["end"]] for s in spans] == ["March 3", "surgery"]


def test_a_span_after_the_cut_moves_back_and_a_span_ending_on_it_keeps_it():
    thanks = TEXT.index("Thanks")
    names = SPANS + [{"start": thanks, "end": thanks + 6, "label": "x"}]
    text, spans = bare_end(TEXT, names, CLOSING)
    assert text[spans[-1]["start"] : spans[-1]["end"]] == "Thanks"
    held = [{"start": 29, "end": 37, "label": "reason"}]  # 'surgery.' (a span with its stop)
    assert bare_end(TEXT, held, CLOSING) == (TEXT, held)


def test_without_a_sign_off_the_last_stop_goes():
    assert bare_end("I am off today!", [], "")[0] == "I am off today"
    assert bare_end("Am I off today", [], "")[0] == "Am I off today"
