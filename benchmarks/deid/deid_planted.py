"""Recall of the default detectors on planted personal data of the personas' countries.

The set is ours (benchmarks/data/planted_pii.yaml: ticket openings with one value each,
values drawn with Faker and, where Faker has none, by each id's published rule with its
check digit): national ids, tax and social-security numbers of GB, DE, IT, ES, FR, NL
and the US; employee and ticket numbers in the forms HR systems print; names in
non-Latin scripts; a first name written alone after the full name; house addresses;
and e-mails, phones and IBANs as a control. It says which types are caught at all, not
how often people write them: every number here comes from a set we wrote.

A planted value counts as caught when every character of it lies inside detected spans
(`covered`: what de-identification needs) and as touched when any does.

    python -m benchmarks.deid.deid_planted --label after [--docs-per-type 12]

Detectors: `--detectors` (default presidio, deidentify's default when no detector is
built), through synth.deid.analyzer.analyze.detect as deidentify runs them. Prints a table and
merges {label: per-type recall} into benchmarks/results/deid_planted.json; run it with
an older checkout's code on the same set for a "before" row (same script, same seed).
"""

import argparse
import json
import random
import string
import sys
import time
import zlib
from collections import defaultdict

from faker import Faker

from benchmarks.report import DATA_DIR, RESULTS_DIR, write_results
from synth.io.files import read_yaml

TEMPLATES = DATA_DIR / "planted_pii.yaml"
RESULTS = RESULTS_DIR / "deid_planted.json"


def uk_nino(rng: random.Random) -> str:
    first = rng.choice("ABCEGHJKLMNOPRSTWXYZ")
    second = rng.choice([c for c in "ABCEGHJKLMNPRSTWXYZ" if first + c not in BAD_NINO])
    digits = "".join(rng.choice(string.digits) for _ in range(6))
    suffix = rng.choice("ABCD")
    if rng.random() < 0.5:
        return f"{first}{second} {digits[:2]} {digits[2:4]} {digits[4:]} {suffix}"
    return f"{first}{second}{digits}{suffix}"


BAD_NINO = {"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"}


def de_tax_id(rng: random.Random) -> str:
    """Steuer-IdNr: 10 digits (one repeated, one absent, no leading 0) and a check digit
    (ISO 7064 MOD 11,10)."""
    while True:
        digits = rng.sample(range(10), 9)
        digits.insert(rng.randrange(10), rng.choice(digits))
        if digits[0] != 0:
            break
    product = 10
    for d in digits:
        total = (d + product) % 10 or 10
        product = (total * 2) % 11
    check = (11 - product) % 10
    number = "".join(map(str, digits)) + str(check)
    return (
        f"{number[:2]} {number[2:5]} {number[5:8]} {number[8:]}" if rng.random() < 0.4 else number
    )


def de_social_security(rng: random.Random) -> str:
    """Rentenversicherungsnummer: area, birth date, surname initial, serial, check digit."""
    area = f"{rng.randrange(2, 90):02d}"
    born = f"{rng.randrange(1, 29):02d}{rng.randrange(1, 13):02d}{rng.randrange(50, 100):02d}"
    letter = rng.choice(string.ascii_uppercase)
    serial = f"{rng.randrange(0, 50):02d}"
    digits = area + born + f"{ord(letter) - 64:02d}" + serial
    weights = [2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1]
    check = sum(sum(map(int, str(int(d) * w))) for d, w in zip(digits, weights)) % 10
    return (
        f"{area} {born} {letter} {serial}{check}"
        if rng.random() < 0.5
        else (f"{area}{born}{letter}{serial}{check}")
    )


def numbered(rng: random.Random, forms: list[str]) -> str:
    form = rng.choice(forms)
    return "".join(rng.choice(string.digits) if c == "9" else c for c in form)


def value_of(kind: str, rng: random.Random, fakers: dict) -> str | tuple[str, str]:
    def fake(locale: str) -> Faker:
        if locale not in fakers:
            fakers[locale] = Faker(locale)
            fakers[locale].seed_instance(zlib.crc32(locale.encode()))
        return fakers[locale]

    match kind:
        case "UK_NINO":
            return uk_nino(rng)
        case "DE_TAX_ID":
            return de_tax_id(rng)
        case "DE_SOCIAL_SECURITY":
            return de_social_security(rng)
        case "IT_FISCAL_CODE":
            return fake("it_IT").ssn()
        case "ES_DNI":
            return fake("es_ES").nif()
        case "ES_NIE":
            return fake("es_ES").nie()
        case "FR_NIR":
            nir = fake("fr_FR").ssn()
            parts = (nir[0], nir[1:3], nir[3:5], nir[5:7], nir[7:10], nir[10:13], nir[13:])
            return " ".join(parts) if rng.random() < 0.5 else nir
        case "NL_BSN":
            return fake("nl_NL").ssn()
        case "US_SSN":
            return fake("en_US").ssn()
        case "EMPLOYEE_ID":
            return numbered(rng, ["EMP-999999", "E999999", "HR99999", "99999999", "P-99999"])
        case "TICKET_ID":
            return numbered(rng, ["INC9999999", "REQ9999999", "HR-2026-99999", "#99999"])
        case "NON_LATIN_NAME":
            locale = rng.choice(["ar_AA", "ru_RU", "zh_CN", "el_GR", "hi_IN", "ja_JP"])
            return fake(locale).name()
        case "FIRST_NAME_ALONE":
            locale = rng.choice(["pt_PT", "en_US", "de_DE", "it_IT", "es_ES", "fr_FR"])
            first, last = fake(locale).first_name(), fake(locale).last_name()
            return f"{first} {last}", first
        case "HOUSE_ADDRESS":
            locale = rng.choice(["en_US", "en_GB", "de_DE", "it_IT", "es_ES", "fr_FR"])
            return fake(locale).street_address().replace("\n", ", ")
        case "EMAIL":
            return fake("en_GB").email()
        case "PHONE":
            return fake(rng.choice(["en_GB", "de_DE", "fr_FR"])).phone_number()
        case "IBAN":
            return fake(rng.choice(["de_DE", "fr_FR", "es_ES"])).iban()
    raise ValueError(kind)


def planted_set(per_type: int, seed: int = 0) -> list[dict]:
    """Documents with their one gold span (the lone first name, for FIRST_NAME_ALONE)."""
    templates = read_yaml(TEMPLATES, "planted templates")["templates"]
    rng, fakers = random.Random(seed), {}
    random.seed(seed)  # some Faker providers (es_ES nif, nie) draw from the module
    docs = []
    for kind, openings in templates.items():
        for i in range(per_type):
            value = value_of(kind, rng, fakers)
            full, first = value if isinstance(value, tuple) else (value, None)
            template = openings[i % len(openings)]
            text = template.replace("{value}", full).replace("{first}", first or "")
            if first:
                start = text.rindex(first)
            else:
                start = text.index(full)
            gold = (start, start + len(first or full))
            docs.append({"type": kind, "text": text, "gold": gold})
    return docs


def recall(docs: list[dict], detectors: list[str]) -> dict:
    from synth.deid.analyzer.analyze import detect
    from synth.deid.analyzer.detectors import make_detectors

    made = make_detectors(detectors)
    started = time.time()
    found = detect([d["text"] for d in docs], made)
    per_type = defaultdict(lambda: {"docs": 0, "covered": 0, "touched": 0})
    for doc, spans in zip(docs, found):
        start, end = doc["gold"]
        inside = set()
        for s in spans:
            inside |= set(range(max(s.start, start), min(s.end, end)))
        row = per_type[doc["type"]]
        row["docs"] += 1
        row["covered"] += len(inside) == end - start
        row["touched"] += bool(inside)
    table = {
        kind: {**row, "recall": round(row["covered"] / row["docs"], 3)}
        for kind, row in per_type.items()
    }
    return {"per_type": table, "wall_s": round(time.time() - started, 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", required=True, help="the row's name: before, after, …")
    parser.add_argument("--docs-per-type", type=int, default=12)
    parser.add_argument("--detectors", default="presidio")
    args = parser.parse_args(argv)
    docs = planted_set(args.docs_per_type)
    result = recall(docs, args.detectors.split(","))
    runs = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
    runs[args.label] = {
        "detectors": args.detectors,
        "documents": len(docs),
        "set": "ours: benchmarks/data/planted_pii.yaml, seed 0",
        **result,
    }
    RESULTS.parent.mkdir(exist_ok=True)
    write_results(RESULTS.name, runs, indent=1)
    labels = list(runs)
    print(f"{'type':<20}" + "".join(f"{label:>10}" for label in labels) + "   (covered / docs)")
    for kind in runs[args.label]["per_type"]:
        cells = [runs[lb]["per_type"].get(kind, {}).get("recall") for lb in labels]
        print(f"{kind:<20}" + "".join(f"{'-' if c is None else c:>10}" for c in cells))
    print(f"{len(docs)} documents; written to {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
