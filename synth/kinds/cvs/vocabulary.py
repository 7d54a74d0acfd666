"""Public vocabularies of universities and employers (synth/data/cv/*.yaml).

A vocabulary maps every known spelling (canonical name and aliases) to the canonical
name. Matching ignores case and punctuation, except for short acronyms ('MU', 'HP',
'EY'), which must match case and all, or they would fire on ordinary words.
"""

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from synth import DATA_DIR, ConfigError
from synth.io.files import read_yaml

CV_DATA = DATA_DIR / "cv"
FILES = {"universities": CV_DATA / "universities.yaml", "companies": CV_DATA / "companies.yaml"}


def normalise(name: str) -> str:
    """Lower case, '&' as 'and', punctuation dropped, single spaces."""
    name = name.lower().replace("&", " and ")
    name = re.sub(r"[^\w\s]", " ", name)
    return " ".join(name.split())


@dataclass(frozen=True)
class Vocabulary:
    kind: str
    canonical: tuple[str, ...]
    spellings: dict  # normalised spelling -> canonical
    acronyms: dict  # exact-case acronym -> canonical
    pattern: re.Pattern  # finds any spelling in running text

    def lookup(self, name: str) -> str | None:
        return self.acronyms.get(name.strip()) or self.spellings.get(normalise(name))

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, canonical) of every spelling in text, longest first at each place."""
        found = []
        for m in self.pattern.finditer(text):
            name = self.lookup(m.group(0))
            if name:
                found.append((m.start(), m.end(), name))
        return found


def _is_acronym(s: str) -> bool:
    return len(s) <= 4 or (s.isupper() and " " not in s)


def _spelling_regex(s: str, exact_case: bool) -> str:
    words = [w for w in re.split(r"[\s.,'-]+", s.replace("&", " & ")) if w]
    body = r"[\s.,'-]*".join("(?:&|and)" if w == "&" else re.escape(w) for w in words)
    return body if exact_case else f"(?i:{body})"


@functools.cache
def candidates(source: str) -> list[str]:
    """The canonical names of a vocabulary's `candidates`: a built-in list (FILES) or a
    YAML file of the same shape. What `hrsynth fit` hands the DP layer (synth.dp.vocab)."""
    if source in FILES:
        return list(load_vocabulary(source).canonical)
    if str(source).endswith((".yaml", ".yml")):
        return list(load_vocabulary(str(source).rsplit("/", 1)[-1], source).canonical)
    raise ConfigError(f"candidates {source!r} is neither {sorted(FILES)} nor a .yaml file")


@functools.cache
def word_list(name: str) -> frozenset[str]:
    """The words (or phrases) of a plain list in synth/data/cv/, one per line, '#' lines
    being comments."""
    lines = (CV_DATA / name).read_text(encoding="utf-8").splitlines()
    return frozenset(s.strip() for s in lines if s.strip() and not s.startswith("#"))


def load_vocabulary(kind: str, path: str | None = None) -> Vocabulary:
    path = Path(path) if path else FILES[kind]
    doc = read_yaml(path, f"{kind} vocabulary")
    if not isinstance(doc, dict) or not doc:
        raise ConfigError(
            f"{kind} vocabulary {path}: expected a mapping of canonical name "
            "to a list of other spellings"
        )
    spellings, acronyms, patterns = {}, {}, []
    for name, aliases in doc.items():
        for s in [name, *(aliases or [])]:
            s = str(s)
            if _is_acronym(s):
                acronyms[s] = name
            else:
                spellings[normalise(s)] = name
            patterns.append((len(s), _spelling_regex(s, _is_acronym(s))))
    patterns.sort(key=lambda p: -p[0])  # longest alternative first: 'TU Munich' before 'TU'
    regex = re.compile(r"(?<![\w&])(?:" + "|".join(p for _, p in patterns) + r")(?![\w&])")
    return Vocabulary(kind, tuple(doc), spellings, acronyms, regex)
