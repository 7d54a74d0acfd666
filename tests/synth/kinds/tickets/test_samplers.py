import datetime as dt
import re

import numpy as np
import pandas as pd

from synth.kinds.persona import make_personas
from synth.kinds.tickets import sources
from synth.kinds.tickets.samplers import SAMPLERS, SamplingContext

REF = dt.date(2026, 11, 22)


def sample(name, n=60, absences=None):
    rng = np.random.default_rng(1)
    personas = make_personas(n, ["US", "DE", "IT", "ES", "FR"], rng)
    return personas, SAMPLERS[name](n, rng, personas, SamplingContext(REF, absences))


def money(s):
    return int(re.sub(r"[^\d]", "", s))


def test_raise_matches_old_and_new_salary():
    _, v = sample("salary_raise")
    for old, pct, new in zip(v["salary"], v["increase_in_percentage"], v["new_salary"]):
        assert money(new) == money(old) * (100 + int(pct[:-1])) // 100
        assert 5 <= int(pct[:-1]) <= 10


def test_flight_leaves_the_personas_country():
    personas, v = sample("flight")
    names = sources.read_table(sources.SOURCES_DIR / "airports.csv", keep_default_na=False)
    country_of = dict(zip(names.name, names.country_code))
    for p, airport, when in zip(personas, v["airport"], v["date_travel"]):
        assert country_of[airport] == p["country_code"]


def test_health_days_and_dates_agree_with_the_dp_row():
    absences = pd.DataFrame(
        {
            "reason": [13] * 5,
            "month": [3, 7, 12, 1, 6],
            "day_of_week": [2, 3, 4, 5, 6],
            "hours": [0, 8, 9, 24, 120],
        }
    )
    personas, v = sample("health_absence", n=5, absences=absences)
    assert v["number_of_days"] == ["1 day", "1 day", "2 days", "3 days", "15 days"]
    for p, start, end in zip(personas, v["date_start_absence"], v["date_end_absence"]):
        fmt = "%B %d, %Y" if p["country_code"] == "US" else "%d %B %Y"
        s, e = dt.datetime.strptime(start, fmt), dt.datetime.strptime(end, fmt)
        assert s.date() > REF and e >= s


def test_cities_are_in_the_personas_country():
    personas, v = sample("accommodation")
    cities = sources.big_cities()
    for p, city in zip(personas, v["location"]):
        assert city in set(cities[p["country_code"]].city)


def test_personas_are_consistent():
    for p in make_personas(40, ["US", "DE", "FR"], np.random.default_rng(3)):
        user = p["email"].split("@")[0]
        assert p["company_email"] == f"{user}@{p['company_domain']}"
        assert p["name"] == f"{p['first_name']} {p['last_name']}"
        assert p["locale"].endswith(p["country_code"])
