"""Clause grammars: the descriptive values written from parts kept as data.

A complaint, the person complained about, a reason for a shift change, a health reason
or a life event is written by people in their own words; forty hand clauses per type
teach a detector forty clauses. Each type has a grammar in
`synth/data/clauses/grammar/VARIABLE.yaml`: symbols, each a list of alternatives, an
alternative a string in which

- `{symbol}` is replaced by one of that symbol's alternatives (recursively),
- `{symbol:form}` does the same with a verb form asked for (`base`, `s`, `past`, `ing`,
  `pp`), which the symbol's `[go|goes|went|going|gone]` groups follow (a group of four
  uses its past form as the participle),
- `{name}` of a binding the caller gives (`value`: the sampled value as the clause
  writes it, `name` and `first_name`: a colleague's name in the writer's locale);
  `topic`, the sampled value itself, picks the value's own symbols (`by_value`).

A grammar's top symbols are what a template asks for (`clause`, `predicate`,
`noun_phrase`); `by_value` maps a sampled value to a prefix: PREFIX_clause is then
written for it instead of `clause` (a life event's own verbs). The whole expansion is the value, and so the span
(docs/annotation.md): what people leave outside a span (the connective, a hedge before
it) is the template's.
"""

import re
from functools import cache

import numpy as np

from synth import ConfigError
from synth.io.files import read_yaml
from synth.kinds.tickets.sources import CLAUSES_DIR

GRAMMAR_DIR = CLAUSES_DIR / "grammar"
FORMS = ("base", "s", "past", "ing", "pp")
BINDINGS = ("value", "topic", "name", "first_name")
REFERENCE = re.compile(r"\{([a-z_]+)(?::([a-z]+))?\}")
VERB = re.compile(r"\[([^\[\]|]+(?:\|[^\[\]|]+){3,4})\]")
MAX_DEPTH = 12


@cache
def grammars() -> dict[str, dict]:
    """variable -> its grammar: {'symbols': {symbol: alternatives}, 'by_value': {...}}."""
    return {p.stem: _checked(p) for p in sorted(GRAMMAR_DIR.glob("*.yaml"))}


def _checked(path) -> dict:
    doc = read_yaml(path, "clause grammar")
    if not isinstance(doc, dict) or not doc:
        raise ConfigError(f"clause grammar {path} is empty; restore it from git or remove the file")
    by_value = doc.pop("by_value", None) or {}
    fix = f"give it alternatives or remove it from {path}"
    for symbol, alternatives in doc.items():
        if not isinstance(alternatives, list) or not alternatives:
            raise ConfigError(f"clause grammar {path}: symbol '{symbol}' is empty; {fix}")
        if not all(isinstance(a, str) for a in alternatives):
            raise ConfigError(f"clause grammar {path}: symbol '{symbol}' holds a non-string")
        for alternative in alternatives:
            for name, form in REFERENCE.findall(alternative):
                if name not in doc and name not in BINDINGS:
                    raise ConfigError(
                        f"clause grammar {path}: '{symbol}' refers to '{{{name}}}', which is "
                        "not a symbol of the file; define it or fix the name"
                    )
                if form and form not in FORMS:
                    raise ConfigError(
                        f"clause grammar {path}: '{symbol}' asks for form '{form}'; "
                        f"forms: {', '.join(FORMS)}"
                    )
    unknown = {p for p in by_value.values() if not any(s.startswith(p + "_") for s in doc)}
    if unknown:
        raise ConfigError(
            f"clause grammar {path}: by_value names prefixes no symbol has ({sorted(unknown)}); "
            "write their PREFIX_clause symbols or fix the names"
        )
    return {"symbols": doc, "by_value": by_value}


def has_grammar(variable: str, symbol: str) -> bool:
    g = grammars().get(variable)
    return g is not None and symbol in g["symbols"]


def write(
    variable: str, symbol: str, rng: np.random.Generator, bindings: dict | None = None
) -> str:
    """One value of `variable`: its grammar's `symbol` expanded (the value's own
    PREFIX_symbol when `by_value` names a prefix for bindings['topic'], or for
    bindings['value'] when no topic is given)."""
    g = grammars()[variable]
    bindings = bindings or {}
    own = f"{g['by_value'].get(bindings.get('topic', bindings.get('value')))}_{symbol}"
    symbol = own if own in g["symbols"] else symbol
    text = _expand(g["symbols"], symbol, "base", rng, bindings, 0)
    return _tidy(text)


def _expand(symbols, symbol, form, rng, bindings, depth) -> str:
    if depth > MAX_DEPTH:
        raise ConfigError(f"clause grammar: '{symbol}' refers to itself more than {MAX_DEPTH} deep")
    alternatives = symbols[symbol]
    text = alternatives[rng.integers(len(alternatives))]
    text = VERB.sub(lambda m: _inflected(m.group(1).split("|"), form), text)

    def replace(m):
        name, asked = m.group(1), m.group(2)
        if name in bindings and name not in symbols:
            return str(bindings[name])
        if name not in symbols:
            raise ConfigError(
                f"clause grammar: '{{{name}}}' needs a binding the caller did not give"
            )
        return _expand(symbols, name, asked or form, rng, bindings, depth + 1)

    return REFERENCE.sub(replace, text)


def _inflected(forms: list[str], form: str) -> str:
    if len(forms) == 4:
        forms = [*forms, forms[2]]
    return forms[FORMS.index(form)]


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r" ([,.;:!?])", r"\1", text).strip(" ,")
