"""First and last names of the personas' locales (Faker's public lists), and what a word
written as a name looks like."""

import functools
import re

# The personas' locales, whose Faker name lists say what a first or last name is.
NAME_LOCALES = ("en_US", "en_GB", "de_DE", "it_IT", "es_ES", "fr_FR", "pt_PT", "nl_NL")


@functools.cache
def faker_names(field: str, locales: tuple[str, ...] = NAME_LOCALES) -> frozenset[str]:
    """Faker's own list `field` (`first_names`, `last_names`) of each locale (public data)."""
    import importlib

    names = set()
    for locale in locales:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        names |= set(getattr(provider, field, ()))
    return frozenset(names)


def first_names() -> frozenset[str]:
    """First names of the personas' locales."""
    return faker_names("first_names")


def last_names() -> frozenset[str]:
    """Last names of the personas' locales and of India's (Faker's lists)."""
    return faker_names("last_names", (*NAME_LOCALES, "en_IN"))


def name_word(word: str) -> bool:
    """A capitalised word that could be a name (not "I")."""
    return bool(re.fullmatch(r"[A-Z][\w'’.-]*", word)) and word != "I"


def name_like(words: str) -> bool:
    """One to three words, each written as a name."""
    parts = words.split()
    return 0 < len(parts) <= 3 and all(name_word(w.strip(",.")) for w in parts)
