"""The anonymizer's operator contract: a method per type, options, and the context each
operator receives (synth.deid.anonymizer)."""

import pytest

from synth import ConfigError
from synth.deid.anonymizer.context import OperatorContext, method_options
from synth.deid.anonymizer.methods import (
    MethodPlan,
    check_chosen,
    method_plan,
    replaces_spans,
    uses_language_model,
)
from synth.deid.anonymizer.operators import anonymized, replace_spans
from synth.deid.spans import Span


def test_a_method_per_type_reads_as_a_plan():
    plan = method_plan("surrogate, CONDUCT=tag,PERSON=tag")
    assert plan == MethodPlan("surrogate", {"CONDUCT": "tag", "PERSON": "tag"})
    assert [plan.method_of(t) for t in ("PERSON", "DATE")] == ["tag", "surrogate"]
    assert method_plan("PERSON=tag") == MethodPlan("surrogate", {"PERSON": "tag"})
    assert method_plan("rewrite") == MethodPlan("rewrite")
    assert replaces_spans("surrogate,PERSON=tag") and not uses_language_model("tag,PERSON=tag")
    assert uses_language_model("rewrite") and not replaces_spans("rewrite")


@pytest.mark.parametrize(
    "method, says",
    [
        ("tag,surrogate", "two methods for every type"),
        ("tag,PERSON=", "is not TYPE=METHOD"),
        ("tag,PERSON=tag,PERSON=surrogate", r"names PERSON twice \(tag, surrogate\)"),
        ("tag,PERSONS=surrogate", "'PERSONS' is no personal type"),
        ("tag,PERSON=blur", "--method 'blur' unknown"),
        ("surrogate,CONDUCT=abstract", "abstract rewrites the whole document"),
    ],
)
def test_a_wrong_plan_is_one_line_naming_it(method, says):
    with pytest.raises(ConfigError, match=says):
        check_chosen(method)


def test_method_options_are_key_value_pairs():
    assert method_options("prefix=P, style = initials") == {"prefix": "P", "style": "initials"}
    assert method_options(None) == {}
    with pytest.raises(ConfigError, match="is not KEY=VALUE"):
        method_options("prefix")
    with pytest.raises(ConfigError, match="prefix given twice"):
        method_options("prefix=P,prefix=Q")


def test_each_type_is_written_by_its_method_and_told_its_context():
    text = "Maria Lopez left on 3 March."
    spans = [Span(0, 11, "PERSON", "x"), Span(20, 27, "DATE", "x")]
    seen = []

    def initials(kind, original, context):
        seen.append(context)
        return "M.L."

    done = replace_spans(
        text,
        spans,
        {"_plan": MethodPlan("tag", {"PERSON": "initials"}), "initials": initials, "tag": _tag},
        None,
        context=OperatorContext("doc-7", 3, "GB", text, tuple(spans), {"k": "v"}),
    )
    assert done.text == "M.L. left on [DATE]."
    assert [(c.doc_id, c.seed, c.country, c.options, c.span) for c in seen] == [
        ("doc-7", 3, "GB", {"k": "v"}, spans[0])
    ]
    assert seen[0].spans == tuple(spans)


def _tag(kind, original, context=None):
    return f"[{kind}]"


def test_surrogates_for_some_types_and_tags_for_the_others():
    """A plan with surrogate draws the document's surrogates for its types only."""
    text = "Maria Lopez left on 3 March."
    spans = [[Span(0, 11, "PERSON", "x"), Span(20, 27, "DATE", "x")]]
    done = anonymized(["a"], [text], spans, "surrogate,DATE=tag", seed=0)[0]
    assert done.text.endswith(" left on [DATE].") and "Maria" not in done.text
    same = anonymized(["a"], [text], spans, "surrogate", seed=0)[0]
    assert done.text.split(" left")[0] == same.text.split(" left")[0]  # the same draw
