"""Clauses as people mark them: a clause-type span the detector found completed to the
whole phrase with the dependency parse (docs/annotation.md, "Clauses").

The BIO model often tags a noun inside a clause ("my age", "medical") rather than the
clause. People mark the whole of it, and a partial hit leaves the rest of what they
wrote in the shareable text. Each rule can be left out (`rules=`) to measure it:

- `reasons`: a reason, a life event or a shift change's reason is its clause (from the
  subject: "[I need to drive my mother to her chemo sessions]", without an opening
  `because`), an infinitive ("[to drive my mother …]") or, for a health reason, the
  condition's noun phrase ("[a bad flu]");
- `connectives`: a phrase connective right before such a span joins it ("[due to my
  back]", "[for a family wedding]");
- `complaints`: a complaint is what the person did, from its verb group to the end of
  the clause ("he [keeps taking my parcels]"), from "I" when it names no one;
- `people`: a person complained about is the noun phrase naming them, with their team
  and a name in apposition ("[a colleague from accounting]").

A completed span stops at another span and at the sentence's end, and one longer than
`max_words` (synth/data/deid/clauses.yaml) is left as found.
"""

from functools import cache

from synth import DATA_DIR
from synth.deid.parsing import parsed
from synth.generation.entities import connective_before
from synth.io.files import read_yaml

RULES = ("reasons", "connectives", "complaints", "people")
REASON_TYPES = ("reason", "description_life_event", "reason_of_change")
TYPES_OF_RULE = {"reasons": REASON_TYPES, "complaints": ("complaint",), "people": ("to_who",)}
CLAUSE_HEADS = ("VERB", "AUX")
NOUNS = ("NOUN", "PROPN")
GREETING_ENDS = (",", "-", "–", "—", ":", "!")


@cache
def conventions() -> dict:
    return read_yaml(DATA_DIR / "deid" / "clauses.yaml", "clause conventions")


def completed(text: str, words: list[tuple[int, int]], tags: list[str], rules=RULES) -> list[str]:
    """`tags` (BIO per tokenizer word of `text`) with clause-type spans completed."""
    from seqeval.metrics.sequence_labeling import get_entities

    typed = {t for rule in rules for t in TYPES_OF_RULE.get(rule, ())}
    spans = get_entities(list(tags))
    if not any(label in typed or "connectives" in rules for label, _, _ in spans):
        return list(tags)
    out = list(tags)
    for label, first, last in spans:
        start, end = words[first][0], words[last][1]
        if label in typed:
            start, end = _completed_chars(text, label, start, end)
        if label in REASON_TYPES and "connectives" in rules:
            start = connective_before(text, start, label)
        new_first, new_last = _word_range(words, start, end, first, last)
        new_first, new_last = _clipped(out, label, first, last, new_first, new_last)
        if new_last - new_first + 1 > conventions()["max_words"]:
            continue
        out[new_first : new_last + 1] = [f"B-{label}"] + [f"I-{label}"] * (new_last - new_first)
        if new_last + 1 < len(out) and out[new_last + 1] == f"I-{label}":
            out[new_last + 1] = f"B-{label}"  # the span after it starts anew
    return out


def _completed_chars(text: str, label: str, start: int, end: int) -> tuple[int, int]:
    doc = parsed(text)
    inside = [t for t in doc if t.idx < end and t.idx + len(t) > start and not t.is_space]
    if not inside:
        return start, end
    head = _head_of(inside)
    if label == "to_who":
        tokens = _noun_phrase(head)
    elif label == "complaint":
        tokens = complaint_tokens(head)
    else:
        tokens = _reason(head, label, text[start:end])
    if not tokens:
        return start, end
    tokens = _on_the_line(text, start, end, [t for t in tokens if t.sent == head.sent])
    tokens = _without_greeting(sorted(tokens, key=lambda t: t.i), start)
    tokens = _without_edge_punctuation(tokens)
    if not tokens:
        return start, end
    return min(start, tokens[0].idx), max(end, tokens[-1].idx + len(tokens[-1]))


def _on_the_line(text: str, start: int, end: int, tokens: list) -> list:
    """The tokens on the hit's own line, continued over a line break inside a sentence
    (the line before ends without punctuation and the next starts in lower case: "he keeps
    taking my parcels\noff the shelf" is one clause); a clause never takes in a greeting
    line ("Dear HR,\n") or a new sentence on the next line."""
    first = text.rfind("\n", 0, start) + 1
    while first > 0 and _continues(text, first):
        first = text.rfind("\n", 0, first - 1) + 1
    last = _line_end(text, end)
    while last < len(text) and _continues(text, last + 1):
        last = _line_end(text, last + 1)
    return [t for t in tokens if first <= t.idx and t.idx + len(t) <= last]


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _continues(text: str, line_start: int) -> bool:
    """Whether the line starting at `line_start` goes on with the sentence of the line
    before it (one line break, no closing punctuation before it, lower case after it)."""
    before = text[:line_start].rstrip(" \t\n")
    after = text[line_start:].lstrip(" \t")
    if not before or not after or text[: line_start - 1].endswith("\n"):
        return False
    return before[-1] not in ".!?:;,-–—" and after[0].islower()


def _without_greeting(tokens: list, hit_start: int) -> list:
    """Without what a comma or dash closes before the hit when it holds no verb ("Hi HR,
    [our house was flooded]", "Good morning, [I …]")."""
    if not tokens:
        return tokens
    doc = tokens[0].doc
    marks = [t for t in doc[tokens[0].i :] if t.idx < hit_start and t.text in GREETING_ENDS]
    if not marks:
        return tokens
    before = [t for t in tokens if t.i < marks[-1].i]
    if any(t.pos_ in CLAUSE_HEADS for t in before):
        return tokens
    return [t for t in tokens if t.i > marks[-1].i]


def _head_of(tokens: list):
    """The token of the hit whose head lies outside it (the highest one)."""
    inside = {t.i for t in tokens}
    outer = [t for t in tokens if t.head.i not in inside or t.head.i == t.i]
    return min(outer or tokens, key=lambda t: len(list(t.ancestors)))


def _subtree_without(token, deps) -> list:
    """`token` and the subtrees of its children whose dependency is not in `deps`."""
    out = [token]
    for child in token.children:
        if child.dep_ not in deps:
            out += list(child.subtree)
    return out


def _without_edge_punctuation(tokens: list) -> list:
    while tokens and (tokens[0].is_punct or tokens[0].is_space):
        tokens = tokens[1:]
    while tokens and (tokens[-1].is_punct or tokens[-1].is_space):
        tokens = tokens[:-1]
    return tokens


def _noun_phrase(head) -> list:
    """The phrase naming a person: the noun with its determiners and modifiers, a team
    after `from`/`in`, a name in apposition; not a clause that describes them."""
    noun = head
    for _ in range(2):  # a hit on a modifier ("direct") reaches its noun
        if noun.pos_ in NOUNS or noun.head.i == noun.i:
            break
        noun = noun.head
    if noun.pos_ not in NOUNS:
        return []
    c = conventions()
    out = [noun]
    for child in noun.children:
        if child.dep_ in ("relcl", "acl", "cc", "conj", "punct"):
            continue
        if child.dep_ == "prep" and child.lower_ not in c["person_preps"]:
            continue
        out += list(child.subtree)
    return out


def _clause_verb(token):
    """The verb whose clause holds `token` (None when a noun phrase is all there is)."""
    t = token
    while t.pos_ not in CLAUSE_HEADS:
        if t.head.i == t.i:
            return None
        t = t.head
    return t


def complaint_tokens(head) -> list:
    """What the person did: the verb group (and a pronoun subject) to the end of its
    clause. "keeps taking" is one group: an `xcomp` verb climbs to its governor."""
    verb = _clause_verb(head)
    if verb is None:
        return []
    while verb.dep_ == "xcomp" and verb.head.pos_ in CLAUSE_HEADS:
        verb = verb.head
    c = conventions()
    out = [verb]
    for child in verb.children:
        if child.i < verb.i:
            if child.dep_ in c["verb_group"] or (
                child.dep_ in ("nsubj", "nsubjpass") and child.lower_ in c["first_person"]
            ):
                out += list(child.subtree)
        elif child.dep_ not in c["left_out"]:
            out += list(child.subtree)
    first = min(t.i for t in out)
    return [t for t in out if t.i >= first]


def _reason(head, label: str, hit: str) -> list:
    """A reason's clause, infinitive or (health) condition; a hit that opens with its
    connective ("due to a bad flu") is the connective phrase already."""
    if _opens_with_connective(hit):
        return []
    if label == "reason" and head.pos_ in NOUNS:
        return _subtree_without(head, ("relcl", "acl", "cc", "conj", "punct"))
    t = head
    while t.pos_ not in CLAUSE_HEADS:
        if t.pos_ == "ADP" and _connective_ends_at(t):
            return [x for x in t.subtree if x.i > t.i]  # its object; the connective joins later
        if t.head.i == t.i:
            return []
        t = t.head
    c = conventions()
    while (
        t.dep_ == "xcomp"
        and _infinitive(t)
        and t.head.pos_ in CLAUSE_HEADS
        and t.head.lemma_.lower() in c["governing_lemmas"]
    ):
        t = t.head  # "I [need to drive …]": the writer's clause
    return _subtree_without(t, set(c["left_out"]) | set(c["left_out_of_reasons"]))


def _opens_with_connective(hit: str) -> bool:
    from synth.deid.lexicon.connectives import opening_connective

    return opening_connective(hit)[1] == "phrase"


def _infinitive(verb) -> bool:
    return any(child.dep_ == "aux" and child.tag_ == "TO" for child in verb.children)


def _connective_ends_at(token) -> bool:
    """Whether a listed phrase connective ends with this preposition ("due [to]")."""
    end = token.idx + len(token) + 1
    text = token.doc.text[:end].rstrip() + " "
    return connective_before(text, len(text), "reason") < len(text)


def _word_range(words, start: int, end: int, first: int, last: int) -> tuple[int, int]:
    """The tokenizer words inside [start, end), never fewer than the span had."""
    inside = [i for i, (a, b) in enumerate(words) if a >= start and b <= end]
    if not inside:
        return first, last
    return min(inside[0], first), max(inside[-1], last)


def _clipped(tags: list[str], label: str, first: int, last: int, new_first: int, new_last: int):
    """The completed range stopped where a span of another type (or a sentence) begins."""
    lo = first
    while lo > new_first and _free(tags[lo - 1], label):
        lo -= 1
    hi = last
    while hi < new_last and _free(tags[hi + 1], label):
        hi += 1
    return lo, hi


def _free(tag: str, label: str) -> bool:
    return tag == "O" or tag[2:] == label
