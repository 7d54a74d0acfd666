"""What `deidentify --method` may name: hrsynth's four methods and the ones installed
packages register (`hrsynth.methods`, synth/plugins.py), each declaring what it does,
so that no other module lists method names.

- a span method replaces each span detectors found (`tag`, `surrogate`, and every
  installed method): it needs detectors, and has a key (original → replacement);
- a language-model method has the model write the document again (`rewrite`,
  `abstract`): detectors are optional (they tag what the reply still holds), and there
  is no key.

An installed method is a class an entry point names as `module:Class`, made once per
actor, with `replace(type, original) -> str`: the text that stands for `original`, a
span of personal type `type` (docs/extending.md). Its call goes through the plugin seam
and its answer is checked: a string, holding none of the original.
"""

from synth import ConfigError, plugins

SPANS, LANGUAGE_MODEL = "spans", "language model"
METHODS = {"tag": SPANS, "surrogate": SPANS, "rewrite": LANGUAGE_MODEL, "abstract": LANGUAGE_MODEL}


def registered() -> dict[str, str]:
    """{method: SPANS or LANGUAGE_MODEL}; an installed method replaces spans."""
    return {name: METHODS.get(name, SPANS) for name in plugins.registry("methods", METHODS)}


def replaces_spans(method: str) -> bool:
    return registered().get(method) == SPANS


def uses_language_model(method: str) -> bool:
    return registered().get(method) == LANGUAGE_MODEL


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


def check_chosen(method: str) -> None:
    """The method named, known and (an installed one) loadable; every other broken
    installed method a warning line."""
    if method not in plugins.registry("methods", METHODS):
        raise ConfigError(f"--method {method!r} unknown; use one of {', '.join(registered())}")
    plugins.check_chosen("methods", METHODS, installed_method, [method])
    if method in plugins.installed("methods"):  # tried once on the driver, before any work
        replacer(method)("PERSON", "Maria Lopez")


def help_names() -> list[str]:
    """Every --method name for --help, a broken installed one marked (never fails)."""
    return plugins.help_names("methods", METHODS, installed_method)


def replacer(method: str, surrogates=None):
    """(type, original) -> the text written for a span: `tag`'s placeholder, the
    document's surrogates, or an installed method's answer, checked where it enters."""
    from synth.deid.types import personal_types

    if method == "tag":
        types = personal_types()
        return lambda kind, original: types.tag(kind)
    if method == "surrogate":
        return surrogates.replace
    made = installed_method(method)()
    return lambda kind, original: checked_replacement(
        method, original, made.replace(kind, original)
    )


def checked_replacement(method: str, original: str, written) -> str:
    """An installed method's replacement: a string that does not hold the original (a
    method returning its input would share the personal data it was asked to hide)."""
    if not isinstance(written, str):
        raise ConfigError(
            f"method {method!r} returned {type(written).__name__} for a span, not its text; "
            "replace(type, original) must return a string (docs/extending.md)"
        )
    if original.strip() and original.strip().casefold() in written.casefold():
        raise ConfigError(
            f"method {method!r} returned a replacement that holds the original; it must "
            "write something else (docs/extending.md)"
        )
    return written
