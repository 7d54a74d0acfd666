"""Faker personas: who writes the ticket.

Name, email, company and company email are made consistent with each other (the email
is built from the name, the company email from the name and the company's domain), and
the locale matches the persona's country, so a German persona has a German name.
"""

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

import numpy as np
from faker import Faker

from synth import DATA_DIR, ConfigError
from synth.io.files import load_yaml

TLD = {"US": "com", "GB": "co.uk"}


@dataclass(frozen=True)
class Country:
    code: str
    name: str
    nationality: str
    locale: str
    currency: str
    wage_scale: float
    date_order: str
    date_separator: str = "/"  # how numeric dates are written: 30/6, 30.6.
    language: str = "English"  # spoken first there (a CV's languages section)


@cache
def load_countries() -> dict[str, Country]:
    doc = load_yaml((DATA_DIR / "countries.yaml").read_text(encoding="utf-8"), "countries.yaml")
    return {code: Country(code=code, **fields) for code, fields in doc.items()}


def check_countries(codes: list[str]) -> list[Country]:
    known = load_countries()
    unknown = [c for c in codes if c not in known]
    if unknown or not codes:
        raise ConfigError(
            f"countries: unknown or empty {unknown or codes}; use codes from "
            f"synth/data/countries.yaml ({', '.join(known)}) or add an entry there"
        )
    return [known[c] for c in codes]


def ascii_slug(text: str, sep: str = "") -> str:
    """'Müller & Söhne' -> 'muellersoehne': safe for email addresses and domains."""
    text = text.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return sep.join(re.findall(r"[a-z0-9]+", text))


def company_domain(company: str, country: str) -> str:
    words = [w for w in re.findall(r"[A-Za-zÀ-ÿ]+", company) if len(w) > 2][:2] or ["company"]
    return f"{ascii_slug('-'.join(words), '-')}.{TLD.get(country, country.lower())}"


@cache
def _faker(locale: str) -> Faker:
    return Faker(locale)


def seeded_faker(locale: str, seed: int) -> Faker:
    """The process's Faker for `locale`, reseeded: a shard is planned with fresh seeds,
    and building a Faker costs far more than planning a shard's documents."""
    fake = _faker(locale)
    fake.seed_instance(seed)
    return fake


def make_personas(n: int, countries: list[str], rng: np.random.Generator) -> list[dict]:
    """n personas, countries drawn uniformly from `countries`, deterministic given rng."""
    chosen = check_countries(countries)
    picks = rng.integers(0, len(chosen), size=n)
    fakers = {}
    for c in chosen:
        fakers[c.code] = seeded_faker(c.locale, int(rng.integers(0, 2**31)))
    personas = []
    for i in picks:
        c = chosen[i]
        fake = fakers[c.code]
        first, last = fake.first_name(), fake.last_name()
        company = fake.company()
        domain = company_domain(company, c.code)
        user = f"{ascii_slug(first)}.{ascii_slug(last)}"
        personas.append(
            {
                "first_name": first,
                "last_name": last,
                "name": f"{first} {last}",
                "email": f"{user}@{fake.free_email_domain()}",
                "company": company,
                "company_domain": domain,
                "company_email": f"{user}@{domain}",
                "country_code": c.code,
                "country": c.name,
                "nationality": c.nationality,
                "locale": c.locale,
            }
        )
    return personas
