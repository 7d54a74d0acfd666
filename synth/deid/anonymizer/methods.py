"""What `deidentify --method` may name: hrsynth's four methods and the ones installed
packages register (`hrsynth.methods`, synth/plugins.py), each declaring what it does,
so that no other module lists method names.

- a span method replaces each span detectors found (`tag`, `surrogate`, and every
  installed method): it needs detectors, and has a key (original → replacement);
- a language-model method has the model write the document again (`rewrite`,
  `abstract`): detectors are optional (they tag what the reply still holds), and there
  is no key.

An installed method is a class an entry point names as `module:Class`, made once per
batch, with `replace(type, original, context) -> str`: the text that stands for
`original`, a span of personal type `type`, given the operator's context
(synth.deid.anonymizer.context: the document's id, the run's seed and country, the
document's spans and the `--method-option` values); a method written for the older
contract, `replace(type, original)`, still works (docs/extending.md). Its call goes
through the plugin seam and its answer is checked: a string, holding none of the
original.

`--method` names one method, or one per type: `surrogate,CONDUCT=tag,PERSON=initials`
(`MethodPlan`): types named get theirs, the others the bare name (surrogate when none
is given). A language-model method rewrites the whole document, so it is never one type's.
"""

import inspect
from dataclasses import dataclass, field

from synth import ConfigError, plugins
from synth.deid.anonymizer.private_strings import SEEN, document_originals, holds_original

SPANS, LANGUAGE_MODEL = "spans", "language model"
METHODS = {"tag": SPANS, "surrogate": SPANS, "rewrite": LANGUAGE_MODEL, "abstract": LANGUAGE_MODEL}


DEFAULT_METHOD = "surrogate"


@dataclass(frozen=True)
class MethodPlan:
    """The method of each personal type: `by_type`'s where named, else `default`."""

    default: str
    by_type: dict[str, str] = field(default_factory=dict)

    def method_of(self, kind: str) -> str:
        return self.by_type.get(kind, self.default)

    def names(self) -> list[str]:
        return list(dict.fromkeys([self.default, *self.by_type.values()]))


def method_plan(method: str) -> MethodPlan:
    """`--method`'s value read: `NAME` or `NAME,TYPE=NAME,...` (syntax only; `check_chosen`
    checks the names and types)."""
    default, by_type = None, {}
    for item in (part.strip() for part in str(method).split(",")):
        if not item:
            continue
        kind, eq, name = (p.strip() for p in item.partition("="))
        if not eq:
            if default is not None:
                raise ConfigError(
                    f"--method {method!r} names two methods for every type ({default}, {kind});"
                    " give one bare name and TYPE=NAME for the others"
                )
            default = kind
        elif not kind or not name:
            raise ConfigError(f"--method {method!r}: {item!r} is not TYPE=METHOD")
        elif kind in by_type:
            raise ConfigError(
                f"--method {method!r} names {kind} twice ({by_type[kind]}, {name}); "
                f"give {kind}=METHOD once"
            )
        else:
            by_type[kind] = name
    return MethodPlan(default or DEFAULT_METHOD, by_type)


def registered() -> dict[str, str]:
    """{method: SPANS or LANGUAGE_MODEL}; an installed method replaces spans."""
    return {name: METHODS.get(name, SPANS) for name in plugins.registry("methods", METHODS)}


def replaces_spans(method: str) -> bool:
    known = registered()
    return all(known.get(name) == SPANS for name in method_plan(method).names())


def uses_language_model(method: str) -> bool:
    plan = method_plan(method)
    return not plan.by_type and registered().get(plan.default) == LANGUAGE_MODEL


def installed_method(name: str) -> type:
    """The class an installed package registers as method `name`, checked to have
    `replace`, seen through the seam."""
    target = plugins.installed("methods")[name]
    found = plugins.load("methods", name, target, ("replace",))
    if not isinstance(found, type) or not callable(found.replace):
        raise ConfigError(
            f"method {name!r} ({target}) is not a class with replace(type, original); "
            "docs/extending.md"
        )
    return plugins.guard(found, "methods", name)


def check_chosen(method: str, options: dict | None = None) -> None:
    """Each method named known and (an installed one) loadable, each type named a
    personal type, no language-model method given per type; every other broken installed
    method a warning line."""
    from synth.deid.anonymizer.context import OperatorContext
    from synth.deid.types import personal_types

    plan = method_plan(method)
    for name in plan.names():
        if name not in plugins.registry("methods", METHODS):
            raise ConfigError(f"--method {name!r} unknown; use one of {', '.join(registered())}")
    if plan.by_type:
        types = personal_types().names
        for kind, name in plan.by_type.items():
            if kind not in types:
                raise ConfigError(
                    f"--method {kind}={name}: {kind!r} is no personal type; use one of "
                    f"{', '.join(types)}"
                )
        lm = [n for n in plan.names() if registered().get(n) == LANGUAGE_MODEL]
        if lm:
            raise ConfigError(
                f"--method {method!r}: {lm[0]} rewrites the whole document, it cannot be one "
                "type's method; give it alone, or per type only tag, surrogate or an "
                "installed method"
            )
    plugins.check_chosen("methods", METHODS, installed_method, plan.names())
    for name in plan.names():
        if name in plugins.installed("methods"):  # tried once on the driver, before any work
            context = OperatorContext("check", 0, "US", "Maria Lopez", (), options or {})
            try:
                replacer(name)("PERSON", "Maria Lopez", context)
            except LeakingReplacement as e:
                raise ConfigError(str(e)) from None


def help_names() -> list[str]:
    """Every --method name for --help, a broken installed one marked (never fails)."""
    return plugins.help_names("methods", METHODS, installed_method)


def replacer(method: str, surrogates=None):
    """(type, original, context) -> the text written for a span: `tag`'s placeholder,
    the document's surrogates, or an installed method's answer, checked where it enters.
    An installed method is made here: once per batch (`operators`)."""
    from synth.deid.types import personal_types

    if method == "tag":
        types = personal_types()
        return lambda kind, original, context=None: types.tag(kind)
    if method == "surrogate":
        return lambda kind, original, context=None: surrogates.replace(kind, original)
    wants_context = takes_context(plugins.installed("methods")[method], method)
    made = installed_method(method)()

    def replace(kind, original, context=None):
        if context is not None:
            SEEN.remember(document_originals(context.text, context.spans))
        args = (kind, original, context) if wants_context else (kind, original)
        written = plugins.call_for(made, "replace", f"a {kind} span", *args)
        return checked_replacement(method, original, written, kind)

    return replace


def takes_context(target: str, name: str) -> bool:
    """Whether an installed method's `replace` takes the operator's context (three
    arguments) or only (type, original), the contract before it."""
    found = plugins.load("methods", name, target, ("replace",))
    try:
        params = inspect.signature(found.replace).parameters
    except (TypeError, ValueError):
        return False
    positional = [
        p for p in params.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    return len(positional) >= 4 or any(p.kind == p.VAR_POSITIONAL for p in params.values())


class LeakingReplacement(Exception):
    """An installed method's replacement that holds a private string: the document is
    refused (written without text, its error this line: it names the method and the
    type, never the text)."""

    content_free = True


def checked_replacement(method: str, original: str, written, kind: str = "a") -> str:
    """An installed method's replacement: a string that holds, read as a reader reads it
    (synth.deid.anonymizer.private_strings), neither the original (a method returning its
    input would share the personal data it was asked to hide) nor any other private
    string this process has seen (another span's, another document's)."""
    if not isinstance(written, str):
        raise ConfigError(
            f"method {method!r} returned {type(written).__name__} for a span, not its text; "
            "replace(type, original) must return a string (docs/extending.md)"
        )
    own = holds_original(original, written)
    if own or SEEN.found_in(written):
        what = "the original" if own else "another span's original seen in this run"
        raise LeakingReplacement(
            f"method {method!r} returned a replacement that holds {what} (read without "
            f"invisible characters, width and case folded) for a {kind} span; it must "
            "write something else (docs/extending.md)"
        )
    return written
