"""The privacy score of one de-identified document, as the resume de-identification study
(docs/references.md) defines it:

    1 − (summed length of the annotated private strings still found in the output)
        / (summed length of all annotated private strings)

"Found" is a case-insensitive substring search of each annotated string (whitespace
runs read as one space), so a value that survives anywhere in the output counts, not
only at its old place. A document with nothing annotated scores 1.
"""


def normalised(text: str) -> str:
    """Lower case, whitespace runs as one space: what "found" compares."""
    return " ".join(text.lower().split())


def privacy_score(private_strings: list[str], output: str) -> float:
    strings = [s for s in private_strings if s.strip()]
    total = sum(len(normalised(s)) for s in strings)
    if not total:
        return 1.0
    found = normalised(output)
    leaked = sum(len(normalised(s)) for s in strings if normalised(s) in found)
    return 1.0 - leaked / total
