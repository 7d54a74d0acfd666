"""A de-identification method on the operator contract (docs/extending.md): it reads the
context hrsynth gives each operator. The same value gets the same pseudonym in every
document of a run, keyed on the run's seed (no environment variable), a `prefix` from
`--method-option prefix=...`; tests/test_extensions.py runs it for PERSON while dates
are tagged (`--method tag,PERSON=pseudonyms`)."""

import hashlib


class Pseudonyms:
    def replace(self, type: str, original: str, context) -> str:
        value = " ".join(original.lower().split())
        digest = hashlib.sha256(f"{context.seed}|{type}|{value}".encode()).hexdigest()
        return f"{context.options.get('prefix', type)}-{digest[:6]}"
