"""A fifth personal-data detector, as a user adds one (docs/extending.md): this module
and its entry point in pyproject.toml beside it. It finds employee numbers written
EMP-1234, which the other detectors do not know; tests/test_extensions.py installs it
and runs it through `hrsynth deidentify`."""

import re

from synth.deid.spans import Span

NUMBER = re.compile(r"\bEMP-\d{4,}\b")


class EmployeeNumbers:
    """Built once where it runs (each de-identification actor)."""

    name = "employee_numbers"

    def detect(self, texts: list[str]) -> list[list[Span]]:
        return [
            [Span(m.start(), m.end(), "ID", self.name) for m in NUMBER.finditer(t)] for t in texts
        ]
