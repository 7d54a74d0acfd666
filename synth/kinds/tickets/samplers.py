"""Variable samplers: one function per taxonomy `sampler:` name.

Each takes the number of rows, a numpy Generator, the rows' personas and a
SamplingContext, and returns {variable: list of n strings}. Values within a row are
consistent (dates in order, the raise matches both salaries, the flight leaves the
persona's country, days match the absence). Sampling rules: docs/generation.md.
"""

import datetime as dt
import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from synth import ConfigError
from synth.kinds.persona import load_countries
from synth.kinds.tickets import sources


@dataclass
class SamplingContext:
    reference_date: dt.date
    # Rows sampled from the DP absence model, one per health-absence ticket.
    absences: pd.DataFrame | None = None


def format_date(day: dt.date, country_code: str) -> str:
    """'March 3, 2027' for month-first countries, '3 March 2027' otherwise."""
    order = load_countries()[country_code].date_order
    month = day.strftime("%B")
    return f"{month} {day.day}, {day.year}" if order == "mdy" else f"{day.day} {month} {day.year}"


def format_money(amount: int, country_code: str) -> str:
    return f"{load_countries()[country_code].currency}{amount:,}"


def format_days(n: int) -> str:
    return "1 day" if n == 1 else f"{n} days"


def accommodation(n, rng, personas, ctx):
    cities = sources.big_cities()
    units = sources.read_mapping("stay_durations.yaml")
    unit_names = list(units)
    location, duration = [], []
    for p in personas:
        table = cities.get(p["country_code"])
        if table is None:
            raise ConfigError(f"no city over 100,000 people for country {p['country_code']}")
        location.append(table.city.iloc[rng.integers(len(table))])
        unit = unit_names[rng.integers(len(unit_names))]
        low, high = units[unit]
        count = int(rng.integers(low, high + 1))
        duration.append(f"{count} {unit}")
    return {"location": location, "duration": duration}


def complaint(n, rng, personas, ctx):
    complaints, targets = (
        sources.read_list("complaints.txt"),
        sources.read_list("complaint_targets.txt"),
    )
    return {
        "complaint": [complaints[i] for i in rng.integers(len(complaints), size=n)],
        "to_who": [targets[i] for i in rng.integers(len(targets), size=n)],
    }


def shift_change(n, rng, personas, ctx):
    reasons = sources.read_list("shift_change_reasons.txt")
    offsets = rng.integers(2, 46, size=n)
    return {
        "date": [
            format_date(ctx.reference_date + dt.timedelta(days=int(d)), p["country_code"])
            for d, p in zip(offsets, personas)
        ],
        "reason_of_change": [reasons[i] for i in rng.integers(len(reasons), size=n)],
    }


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def job_title(occupation: str) -> str:
    """BLS 'Miscellaneous Assemblers and Fabricators, All Other' -> 'assembler'."""
    parts = occupation.split(", ")
    listed = [p[4:] for p in parts if p.startswith("and ")]  # 'A, B, and C Managers'
    title = listed[0] if listed else parts[0]  # other comma parts are qualifiers
    # The head noun follows the last 'and': 'General and Operations Managers'.
    title = re.split(r" and | or ", title)[-1].replace("Miscellaneous ", "")
    words = [w for w in title.replace(",", "").lower().split() if w != "other"]
    return " ".join(words[:-1] + [_singular(words[-1])])


def salary_raise(n, rng, personas, ctx):
    jobs = sources.occupations()
    weights = jobs.employment.to_numpy(float)
    picks = rng.choice(len(jobs), size=n, p=weights / weights.sum())
    noise = rng.normal(1.0, 0.1, size=n).clip(0.6, 1.4)
    percent = rng.integers(5, 11, size=n)
    countries = load_countries()
    out = {"salary": [], "increase_in_percentage": [], "work_title": [], "new_salary": []}
    for i, p in enumerate(personas):
        scale = countries[p["country_code"]].wage_scale
        current = int(round(jobs.mean_annual_wage_usd.iloc[picks[i]] * scale * noise[i], -2))
        new = current * (100 + int(percent[i])) // 100  # exact: current is a multiple of 100
        out["salary"].append(format_money(current, p["country_code"]))
        out["new_salary"].append(format_money(new, p["country_code"]))
        out["increase_in_percentage"].append(f"{percent[i]}%")
        out["work_title"].append(job_title(jobs.title.iloc[picks[i]]))
    return out


def gender_pay_gap(n, rng, personas, ctx):
    gaps = sources.pay_gaps()
    gaps = gaps[(gaps > 1.0) & (gaps < 40.0)]  # a gap against women, without outliers
    values = rng.choice(gaps, size=n) + rng.normal(0.0, 1.0, size=n)
    return {"wage_gap": [f"{max(v, 0.5):.1f}%" for v in values]}


def _absence_start(month: int, weekday: int, ref: dt.date, rng) -> dt.date:
    """A date in `month` on `weekday` (UCI: 2 = Monday … 6 = Friday) after `ref`."""
    year = ref.year if month > ref.month else ref.year + 1
    first = dt.date(year, month, 1)
    shift = ((weekday - 2) - first.weekday()) % 7
    candidates = [first + dt.timedelta(days=shift + 7 * w) for w in range(4)]
    return candidates[rng.integers(len(candidates))]


def health_absence(n, rng, personas, ctx):
    if ctx.absences is None or len(ctx.absences) != n:
        raise ConfigError("health-absence tickets need the DP absence model: set 'dp_model'")
    readable = sources.read_mapping("health_reasons.yaml")
    out = {"date_start_absence": [], "number_of_days": [], "reason": [], "date_end_absence": []}
    for p, row in zip(personas, ctx.absences.itertuples(index=False)):
        start = _absence_start(int(row.month), int(row.day_of_week), ctx.reference_date, rng)
        days = max(1, math.ceil(float(row.hours) / 8))
        choices = readable.get(int(row.reason)) or readable[0]
        code = p["country_code"]
        out["date_start_absence"].append(format_date(start, code))
        out["date_end_absence"].append(format_date(start + dt.timedelta(days=days - 1), code))
        out["number_of_days"].append(format_days(days))
        out["reason"].append(choices[rng.integers(len(choices))])
    return out


def _life_event_phrase(event: str) -> str:
    words = event[0].lower() + event[1:]
    return ("an " if words[0] in "aeiou" else "a ") + words


def life_event(n, rng, personas, ctx):
    events = sources.life_events()
    events = events[events.life_change_units >= 20].reset_index(drop=True)
    picks = rng.integers(len(events), size=n)
    share = rng.uniform(0.5, 1.0, size=n)
    lcu = events.life_change_units.to_numpy()[picks]
    days = 1 + np.round(lcu / 100 * 9 * share).astype(int)
    return {
        "description_life_event": [_life_event_phrase(events.event.iloc[i]) for i in picks],
        "number_of_days": [format_days(int(d)) for d in days],
    }


def flight(n, rng, personas, ctx):
    routes = sources.departures()
    out = {"location": [], "date_travel": [], "airport": []}
    for p in personas:
        table = routes.get(p["country_code"])
        if table is None:
            raise ConfigError(f"no flight route leaves country {p['country_code']} in OpenFlights")
        route = table.iloc[rng.integers(len(table))]
        when = ctx.reference_date - dt.timedelta(days=int(rng.integers(3, 61)))
        out["location"].append(route.destination)
        out["airport"].append(route.airport)
        out["date_travel"].append(format_date(when, p["country_code"]))
    return out


SAMPLERS = {
    "accommodation": accommodation,
    "complaint": complaint,
    "shift_change": shift_change,
    "salary_raise": salary_raise,
    "gender_pay_gap": gender_pay_gap,
    "health_absence": health_absence,
    "life_event": life_event,
    "flight": flight,
}


def sampler_for(name: str, label: str):
    if name not in SAMPLERS:
        raise ConfigError(
            f"label '{label}': unknown sampler '{name}'; known: {', '.join(sorted(SAMPLERS))}"
        )
    return SAMPLERS[name]
