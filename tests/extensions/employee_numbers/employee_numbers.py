"""A fifth personal-data detector, as a user adds one (docs/extending.md): this module
and its entry point in pyproject.toml beside it. It finds employee numbers written
EMP-1234, which the other detectors do not know; tests/test_extensions.py installs it
and runs it through `hrsynth deidentify`."""

from synth.deid.analyzer.pattern import PatternDetector


class EmployeeNumbers(PatternDetector):
    """Built once where it runs (each de-identification actor)."""

    name, type, regex = "employee_numbers", "ID", r"\bEMP-\d{4,}\b"
