"""`PatternDetector`: a personal-data detector that is one regular expression, the base
an installed detector takes when a pattern is all it knows (docs/extending.md).

It declares its `TYPES` (the one type it reports), which deidentify checks against the
personal types before any work; `detect` gives the one list of spans per text that
`synth.deid.spans.checked_spans` asks for.
"""

import re

from synth.deid.spans import Span


class PatternDetector:
    """Set `name`, `type` (one of synth/data/deid/types.yaml's) and `regex` on a
    subclass; it is built with no arguments where it runs. `flags`: re's flags."""

    name: str
    type: str
    regex: str
    flags: int = 0

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if hasattr(cls, "type"):
            cls.TYPES = (cls.type,)

    def __init__(self):
        self.pattern = re.compile(self.regex, self.flags)

    def detect(self, texts: list[str]) -> list[list[Span]]:
        return [
            [Span(m.start(), m.end(), self.type, self.name) for m in self.pattern.finditer(text)]
            for text in texts
        ]
