"""Span hygiene: the BIO model's word tags made into spans a person would mark.

The model tags the tokenizer's words, and the tokenizer cuts every punctuation mark
out of a token: "29/9" is three words, "8%" two. A model that tags "29" and not "/9", or
"8" and not "%", cuts the value where no writer would. The rules, each in
docs/annotation.md ("Where a span starts and ends"), applied in this order (the token
rules before roles by context, the span rules after it: synth.deid.analyzer.roles):

- `snap`: a value covers the whole token it sits in (the words between spaces), without
  the brackets and quotes that open the token and the punctuation that closes it, and
  has one type ("€52,000" is not a pay gap followed by a salary);
- `units`: an amount with a currency is money and one with a percent sign a percentage,
  whatever the model typed them as, and a unit written right after a value joins it
  ("[41.500] [euros]" is one salary);
- `trim`: a span does not start with an opening bracket or end with closing punctuation,
  a type's own leading words stay out (a job title without its article) and the words
  a type takes in before it join it ("the 21st", "about six weeks");
- `bridge`: pieces of one clause type a word or two apart in one sentence are one
  clause ("[partner and] I [are separating]");
- `function_words`: a span made only of function words or punctuation ("to", "my", a
  colon, "off") is dropped;
- an inside tag with no beginning starts a span (synth.encoder's repair, before these).

Each rule can be switched off (`rules=`) so that its effect can be measured.
"""

import unicodedata
from functools import cache

from synth import DATA_DIR
from synth.deid.analyzer.clauses import RULES as CLAUSE_RULES
from synth.deid.analyzer.clauses import completed
from synth.io.files import read_yaml

TOKEN_RULES = ("snap", "units")
SPAN_RULES = ("trim", "bridge", "function_words")
RULES = (*TOKEN_RULES, *SPAN_RULES)
# What the detector outputs, in order: the token rules, roles by context and places
# (synth.deid.analyzer.roles), the span rules. Each name can be left out to measure what it does.
# The clause rules (synth.deid.analyzer.clauses) come last: a clause is completed from what the
# span rules left.
# People named by their role at work (synth.deid.lexicon.work_roles) are marked last, in the words
# no clause took, and only in a ticket whose kind holds a person complained about.
STEPS = (*TOKEN_RULES, "roles", "kinds", "places", *SPAN_RULES, *CLAUSE_RULES, "role_phrases")
# Measured, not on by default: conduct sentences (synth.deid.analyzer.conduct), a complaint the
# model missed, before the role phrases. On our dev sets and real writing it found 1 more
# complaint of 51 for 1 to 1.5 points of the other words (benchmarks/results/detector.json,
# `deid_with_step`).
OPTIONAL_STEPS = ("conduct_sentences",)


def detector_tags(
    text: str, words: list[tuple[int, int]], raw: list[str], steps=STEPS, kind=None, conduct=None
) -> list[str]:
    """The BIO model's word tags for `text` as the detector reports them; `kind`: the
    ticket's kind where the classifier is sure of it (synth.deid.analyzer.kinds; step `kinds`);
    `conduct`: the detector's conduct-sentence classifier where the ticket may be a
    complaint (synth.deid.analyzer.conduct; the detector passes it only then)."""
    from synth.deid.analyzer.conduct import LABEL as CONDUCT_LABEL
    from synth.deid.analyzer.conduct import with_conduct
    from synth.deid.analyzer.roles import join_pieces, places_named, resolve_roles, ticket_roles
    from synth.deid.lexicon.work_roles import ROLE_TYPE, tagged_role_phrases

    tags = tidy_tags(text, words, join_pieces(raw), [r for r in TOKEN_RULES if r in steps])
    if "roles" in steps:
        tags = resolve_roles(tags, ticket_roles(), kind if "kinds" in steps else None)
    if "places" in steps:
        tags = places_named(text, words, tags)
    tags = tidy_tags(text, words, tags, [r for r in SPAN_RULES if r in steps])
    tags = completed(text, words, tags, [r for r in CLAUSE_RULES if r in steps])
    roles = ticket_roles().get(kind, ()) if kind is not None else ()
    if (
        "conduct_sentences" in steps
        and conduct is not None
        and (kind is None or CONDUCT_LABEL in roles)
    ):
        tags = with_conduct(text, words, tags, conduct)
    if "role_phrases" in steps and ROLE_TYPE in roles:
        tags = tagged_role_phrases(text, words, tags)
    return tags


@cache
def conventions() -> dict:
    doc = read_yaml(DATA_DIR / "deid" / "span_hygiene.yaml", "span hygiene")
    return {
        "openers": set(doc["openers"]),
        "closers": set(doc["closers"]),
        "joiners": set(doc["joiners"]),
        "function_words": set(doc["function_words"].lower().split()),
        "leading": {t: {w.lower() for w in ws} for t, ws in doc["leading_words_outside"].items()},
        "joins_before": {t: {w.lower() for w in ws} for t, ws in doc["joins_before"].items()},
        "clause_types": set(doc["clause_types"]),
        "clause_gap_words": int(doc["clause_gap_words"]),
        "units": {
            kind: {
                "role": u["role"],
                "group": u["group"],
                "markers": {m.lower() for m in u["markers"]},
            }
            for kind, u in doc["units"].items()
        },
        "unit_markers": {m.lower() for u in doc["units"].values() for m in u["markers"]},
    }


def tidy_tags(text: str, words: list[tuple[int, int]], tags: list[str], rules=RULES) -> list[str]:
    """`tags` (one BIO tag per word of `text`) with the hygiene rules applied."""
    types = [None if t == "O" else t[2:] for t in tags]
    begins = [t.startswith("B-") for t in tags]
    if "snap" in rules:
        for core in token_cores(text, words):
            _fill(text, words, core, types, begins)
    spans = _spans(types, begins)
    if "units" in rules:
        spans = _with_units(text, words, spans)
    if "trim" in rules:
        spans = [s for s in (_trimmed(text, words, span) for span in spans) if s]
        spans = _joined_before(text, words, spans)
    if "bridge" in rules:
        spans = _bridged(text, words, spans)
    if "function_words" in rules:
        spans = [s for s in spans if not _only_function_words(text, words, s)]
    out = ["O"] * len(tags)
    for label, first, last in spans:
        out[first] = "B-" + label
        for i in range(first + 1, last + 1):
            out[i] = "I-" + label
    return out


def token_cores(text: str, words: list[tuple[int, int]]) -> list[range]:
    """Per whitespace token: the range of its word indices without the opening and closing
    punctuation words at its edges."""
    c = conventions()
    tokens, start = [], 0
    for i in range(1, len(words) + 1):
        if i == len(words) or words[i][0] > words[i - 1][1]:
            tokens.append((start, i))
            start = i
    cores = []
    for first, end in tokens:
        while first < end and _word(text, words, first) in c["openers"]:
            first += 1
        while end > first and _word(text, words, end - 1) in c["closers"]:
            end -= 1
        if end - first > 1:
            cores.append(range(first, end))
    return cores


def _fill(text, words, core: range, types: list, begins: list) -> None:
    """Untagged words of a token that holds a value join the value next to them; a
    joining mark between two values of other types stays outside both."""
    tagged = [i for i in core if types[i] is not None]
    if not tagged:
        return
    _unify(text, words, core, types, begins)
    for i in core:
        if types[i] is not None:
            continue
        left = next((types[j] for j in reversed(range(core.start, i)) if types[j]), None)
        right_at = next((j for j in range(i + 1, core.stop) if types[j]), None)
        right = types[right_at] if right_at is not None else None
        joiner = _word(text, words, i) in conventions()["joiners"]
        if left and right and left != right and joiner:
            continue
        types[i] = left or right
        if left is None:  # the value now starts here, not at the word it was tagged on
            begins[i], begins[right_at] = begins[right_at], False
        else:
            begins[i] = False


def _unify(text, words, core: range, types: list, begins: list) -> None:
    """One token, one value: pieces of a token typed differently ("€52" a pay gap, ",000"
    a salary) take the type most of its tagged words have (the last one's on a tie),
    unless a joining mark stands between them (a range, "14.3-16.3")."""
    joiners = conventions()["joiners"]
    tagged = [i for i in core if types[i] is not None]
    if len({types[i] for i in tagged}) < 2:
        return
    if any(_word(text, words, i) in joiners for i in core if types[i] is None):
        return
    counts = {}
    for i in tagged:
        counts[types[i]] = counts.get(types[i], 0) + 1
    best = max(counts.values())
    chosen = next(types[i] for i in reversed(tagged) if counts[types[i]] == best)
    first = tagged[0]
    for i in tagged:
        types[i] = chosen
        begins[i] = begins[first] if i == first else False


def _spans(types: list, begins: list) -> list[tuple[str, int, int]]:
    """(type, first word, last word) of each span: a span ends where the type changes or
    a new beginning is tagged."""
    spans = []
    for i, label in enumerate(types):
        if label is None:
            continue
        if spans and spans[-1][2] == i - 1 and spans[-1][0] == label and not begins[i]:
            spans[-1] = (label, spans[-1][1], i)
        else:
            spans.append((label, i, i))
    return spans


def _word(text, words, i) -> str:
    return text[slice(*words[i])]


def _trimmed(text, words, span) -> tuple[str, int, int] | None:
    c = conventions()
    label, first, last = span
    leading = c["openers"] | c["leading"].get(label, set())
    while first <= last and _word(text, words, first).lower() in leading:
        first += 1
    while last >= first and _word(text, words, last) in c["closers"]:
        last -= 1
    return (label, first, last) if first <= last else None


def _unit_of(phrase: str) -> str | None:
    """'money', 'percent' or None: the unit a phrase names (a marker as a word or a
    sign inside a token: "€52,000", "45k EUR", "8%")."""
    lower = phrase.lower()
    tokens = set(lower.replace(",", " ").split())
    for kind, u in conventions()["units"].items():
        for marker in u["markers"]:
            if (" " in marker and marker in lower) or marker in tokens:
                return kind
            if not marker.isalpha() and marker in lower:  # a sign inside a token
                return kind
    return None


def _retyped(label: str, kind: str | None) -> str:
    """The span's type once its unit is known: kept when it is of the unit's group."""
    from synth.deid.analyzer.roles import role_groups

    if kind is None:
        return label
    unit = conventions()["units"][kind]
    return label if label in role_groups()[unit["group"]]["roles"] else unit["role"]


def _with_units(text, words, spans):
    """Amounts typed by their unit; a unit right after a value (untagged, or a span of
    its own made only of the unit) joins the value."""
    out = []
    taken = {i for _, a, b in spans for i in range(a, b + 1)}
    for label, first, last in spans:
        phrase = text[words[first][0] : words[last][1]]
        if out and _adjacent(text, words, out[-1][2], first) and _only_unit(phrase):
            prev_label, prev_first, _ = out[-1]
            out[-1] = (_retyped(prev_label, _unit_of(phrase)), prev_first, last)
            continue
        for size in (2, 1):  # "per cent", "euros", "%" right after the value
            end = last + size
            if end < len(words) and not any(i in taken for i in range(last + 1, end + 1)):
                tail = text[words[last + 1][0] : words[end][1]]
                if _adjacent(text, words, last, last + 1) and _only_unit(tail):
                    last = end
                    break
        out.append((_retyped(label, _unit_of(text[words[first][0] : words[last][1]])), first, last))
    return out


def _only_unit(phrase: str) -> bool:
    return phrase.lower().strip() in conventions()["unit_markers"]


def _adjacent(text, words, left: int, right: int) -> bool:
    """Word `right` follows word `left` with at most spaces between them."""
    return text[words[left][1] : words[right][0]].strip(" ") == ""


def _joined_before(text, words, spans):
    """Spans extended over the words their type takes in right before them."""
    joins = conventions()["joins_before"]
    taken = {i for _, a, b in spans for i in range(a, b + 1)}
    out = []
    for label, first, last in spans:
        while (
            first > 0
            and first - 1 not in taken
            and _word(text, words, first - 1).lower() in joins.get(label, ())
            and "\n" not in text[words[first - 1][1] : words[first][0]]
        ):
            first -= 1
        out.append((label, first, last))
    return out


def _bridged(text, words, spans):
    """Pieces of one clause type at most `clause_gap_words` apart, with no sentence end
    or line break between them, as one span."""
    c = conventions()
    out = []
    for span in spans:
        if out and _bridgeable(text, words, out[-1], span, c):
            out[-1] = (span[0], out[-1][1], span[2])
        else:
            out.append(span)
    return out


def _bridgeable(text, words, left, right, c) -> bool:
    if left[0] != right[0] or left[0] not in c["clause_types"]:
        return False
    if right[1] - left[2] - 1 > c["clause_gap_words"]:
        return False
    gap = text[words[left[2]][1] : words[right[1]][0]]
    return not any(mark in gap for mark in (".", "!", "?", "\n"))


def _only_function_words(text, words, span) -> bool:
    _, first, last = span
    fw = conventions()["function_words"]
    return all(
        _word(text, words, i).lower() in fw or _is_punctuation(_word(text, words, i))
        for i in range(first, last + 1)
    )


def _is_punctuation(word: str) -> bool:
    return all(unicodedata.category(ch)[0] in "PS" for ch in word)
