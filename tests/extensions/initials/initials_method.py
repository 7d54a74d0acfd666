"""A fifth de-identification method, as a user adds one (docs/extending.md): this module
and its entry point in pyproject.toml beside it. It writes a person's initials and
another type's placeholder; tests/test_extensions.py installs it and runs it through
`hrsynth deidentify --method initials`."""


class Initials:
    """Made once where it runs (each de-identification actor)."""

    def replace(self, type: str, original: str) -> str:
        if type == "PERSON":
            return ".".join(word[0].upper() for word in original.split() if word[0].isalpha()) + "."
        return f"<{type.lower()}>"
