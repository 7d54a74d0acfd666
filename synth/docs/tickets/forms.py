"""Surface forms: each sampled value written the way people write it.

A ticket's writer has habits: one form per kind of value (dates as '30/6', money as
'45k'), drawn per ticket from the weights in `synth/data/forms/forms.yaml`, used for every
value of that kind in the ticket when it applies (a relative date only applies near the
reference date). The sampled value stays the entity's `value`; the rendered form is what
the text and the span carry. `read_back` inverts every form, which is how the tests show
that a span still means its value ('next Monday' from the reference date is the date).
"""

import datetime as dt
import re
from dataclasses import dataclass
from functools import cache

import numpy as np
from faker import Faker

from synth import DATA_DIR, ConfigError
from synth.docs.persona import load_countries
from synth.docs.tickets import clauses
from synth.generation.numbers import NUMBER_WORDS, ordinal

FORMS_DIR = DATA_DIR / "forms"
MODES = ("canonical", "all", "half_a", "half_b")
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
CURRENCY = {"$": ("dollars", "USD"), "€": ("euros", "EUR"), "£": ("pounds", "GBP")}
# How amounts are grouped where people write them: 45,400 / 45.400 / 45 400.
THOUSANDS = {"US": ",", "GB": ",", "DE": ".", "IT": ".", "ES": ".", "NL": ".", "FR": " "}
DECIMAL_COMMA = {"DE", "IT", "ES", "NL", "FR"}
YEARLESS_DAYS = 150  # a date without its year is read as the nearest one: keep it near
ORDINAL_DAYS = 27  # 'Thursday the 20th' names one date within four weeks of today


@dataclass(frozen=True)
class Catalogue:
    kind_of: dict[str, str]  # variable -> kind
    forms: dict[str, dict[str, tuple[float, str]]]  # kind -> form -> (weight, half)
    lay: dict[str, dict[str, list[str]]]  # kind -> listed value -> lay phrases
    supervisors: frozenset[str]
    described: tuple[str, ...]  # whom a complaint is about, described (new information)


@cache
def load_catalogue() -> Catalogue:
    from synth.io.files import read_yaml

    doc = read_yaml(FORMS_DIR / "forms.yaml", "surface forms")
    lay = read_yaml(FORMS_DIR / "lay_phrases.yaml", "lay phrases")
    forms = {
        kind: {name: (float(f["weight"]), f["half"]) for name, f in entries.items()}
        for kind, entries in doc["kinds"].items()
    }
    for kind, entries in forms.items():
        if not entries or any(h not in ("a", "b") or w <= 0 for w, h in entries.values()):
            raise ConfigError(f"forms.yaml: kind '{kind}' needs forms with weight > 0 and half a|b")
    unknown = set(doc["variables"].values()) - set(forms)
    if unknown:
        raise ConfigError(f"forms.yaml: variables use unknown kind(s) {sorted(unknown)}")
    return Catalogue(
        kind_of=dict(doc["variables"]),
        forms=forms,
        lay={k: v for k, v in lay.items() if k != "complaint_target"},
        supervisors=frozenset(lay["complaint_target"]["supervisors"]),
        described=tuple(lay["complaint_target"]["described"]),
    )


def allowed(kind: str, mode: str) -> dict[str, float]:
    """The forms of `kind` a run may use, with their weights."""
    entries = load_catalogue().forms[kind]
    if mode == "canonical":
        first = next(iter(entries))
        return {first: 1.0}
    if mode == "all":
        return {name: w for name, (w, _) in entries.items()}
    half = mode.removeprefix("half_")
    return {name: w for name, (w, h) in entries.items() if h == half}


@dataclass(frozen=True)
class Writer:
    """What a form needs to know about who writes and when."""

    country_code: str
    locale: str
    reference_date: dt.date


def render_values(
    values: dict[str, str],
    writer: Writer,
    mode: str,
    rng: np.random.Generator,
    form_weights: dict | None = None,
) -> tuple[dict[str, str], dict[str, str]]:
    """({variable: text as written}, {variable: form used}) for one ticket.

    One habit per kind, drawn once; a value it does not fit draws among the forms that
    fit (and that form becomes the habit). A value no allowed form fits stays as sampled
    (form 'canonical'). `form_weights` (a writing profile's, used with mode 'all')
    replace the catalogue's weights per kind."""
    catalogue, habits = load_catalogue(), {}
    surface, used = {}, {}
    for name, value in values.items():
        kind = catalogue.kind_of.get(name)
        if kind is None:
            surface[name], used[name] = value, "canonical"
            continue
        weights = allowed(kind, mode)
        if form_weights and kind in form_weights and mode == "all":
            # a writing profile's shares (synth.docs.tickets.writing_profile)
            weights = {f: form_weights[kind].get(f, 0.0) for f in weights}
            weights = {f: v for f, v in weights.items() if v > 0} or allowed(kind, mode)
        if kind not in habits:
            habits[kind] = _draw(weights, rng)
        options = dict(weights)
        while options:
            form = habits[kind] if habits[kind] in options else _draw(options, rng)
            text = render(kind, form, value, writer, rng)
            if text is not None:
                surface[name], used[name] = text, form
                habits[kind] = form  # a habit that did not fit gives way to one that did
                break
            options.pop(form)
        else:
            surface[name], used[name] = value, "canonical"
    return surface, used


def _draw(weights: dict[str, float], rng: np.random.Generator) -> str:
    names = list(weights)
    p = np.array([weights[n] for n in names], float)
    return names[rng.choice(len(names), p=p / p.sum())]


def render(kind: str, form: str, value: str, writer: Writer, rng) -> str | None:
    """`value` written in `form`, or None when the form does not apply to it."""
    return RENDERERS[kind](form, value, writer, rng)


# Dates ---------------------------------------------------------------------------------


def parse_date(value: str) -> dt.date:
    for fmt in ("%B %d, %Y", "%d %B %Y"):
        try:
            return dt.datetime.strptime(value, fmt).date()
        except ValueError:
            continue
    raise ValueError(f"not a sampled date: {value!r}")


def _month_first(writer: Writer) -> bool:
    return load_countries()[writer.country_code].date_order == "mdy"


def _separator(writer: Writer) -> str:
    return load_countries()[writer.country_code].date_separator


def _nearest_yearless(month: int, day: int, ref: dt.date) -> dt.date | None:
    candidates = []
    for year in (ref.year - 1, ref.year, ref.year + 1):
        try:
            candidates.append(dt.date(year, month, day))
        except ValueError:
            continue
    return min(candidates, key=lambda d: abs((d - ref).days)) if candidates else None


def _weekday_ordinal_matches(weekday: int, day: int, ref: dt.date) -> list[dt.date]:
    span = range(-ORDINAL_DAYS, ORDINAL_DAYS + 1)
    return [
        d
        for d in (ref + dt.timedelta(days=k) for k in span)
        if d.weekday() == weekday and d.day == day
    ]


def render_date(form: str, value: str, writer: Writer, rng) -> str | None:
    d, ref = parse_date(value), writer.reference_date
    delta = (d - ref).days
    mdy, sep = _month_first(writer), _separator(writer)
    month, short = MONTHS[d.month - 1], MONTHS[d.month - 1][:3]
    yearless_ok = abs(delta) <= YEARLESS_DAYS and _nearest_yearless(d.month, d.day, ref) == d
    if form == "long":
        return value
    if form == "iso":
        return d.isoformat()
    if form == "numeric_year":
        pad = bool(rng.integers(2)) or sep == "."
        a, b = (d.month, d.day) if mdy else (d.day, d.month)
        return f"{a:02d}{sep}{b:02d}{sep}{d.year}" if pad else f"{a}{sep}{b}{sep}{d.year}"
    if form == "relative_day":
        return {0: "today", 1: "tomorrow", -1: "yesterday"}.get(delta)
    if form == "weekday":
        name = WEEKDAYS[d.weekday()]
        if 1 <= delta <= 6:
            return f"this {name}"
        if 7 <= delta <= 13:
            return f"next {name}"
        if -7 <= delta <= -1:
            return f"last {name}"
        return None
    if form == "weekday_ordinal":
        if not 1 <= abs(delta) <= ORDINAL_DAYS or _weekday_ordinal_matches(
            d.weekday(), d.day, ref
        ) != [d]:
            return None
        lead = "this " if 1 <= delta <= 6 else ""
        return f"{lead}{WEEKDAYS[d.weekday()]}, the {ordinal(d.day)}"
    if not yearless_ok:
        return None
    if form == "weekday_date":  # Tue 14.3 / Friday, 21 March / Mon 6/3
        name = WEEKDAYS[d.weekday()]
        name = name[:3] if rng.integers(2) else name
        if rng.integers(2):
            day_month = f"{month} {d.day}" if mdy else f"{d.day} {month}"
            return f"{name}, {day_month}" if rng.integers(2) else f"{name} {day_month}"
        short_date = render_date("numeric_short", value, writer, rng)
        return f"{name} {short_date.rstrip('.')}"
    if form == "numeric_short":
        if sep == ".":
            return f"{d.day}.{d.month}."
        return f"{d.month}/{d.day}" if mdy else f"{d.day}/{d.month}"
    if form == "month_day":
        return f"{month} {d.day}" if mdy else f"{d.day} {month}"
    if form == "ordinal_of":
        return f"the {ordinal(d.day)} of {month}"
    if form == "ordinal_lower":
        return f"{d.day} of {month.lower()}"
    if form == "abbreviated":
        return f"{short} {d.day}" if mdy else f"{d.day} {short}"
    raise ConfigError(f"forms.yaml: unknown date form '{form}'")


MONTH_RE = "|".join(MONTHS + [m[:3] for m in MONTHS])


def _month_number(name: str) -> int:
    return [m[:3].lower() for m in MONTHS].index(name[:3].lower()) + 1


def read_date(text: str, writer: Writer) -> dt.date:
    """The date a written form means, from the writer's reference date and conventions."""
    ref, t = writer.reference_date, text.strip()
    weekday_names = "|".join(WEEKDAYS + [w[:3] for w in WEEKDAYS])
    if m := re.fullmatch(rf"({weekday_names}),? (\d.*|[A-Z][a-z]+ \d+|\d+ [A-Z][a-z]+)", t):
        d = read_date(m.group(2), writer)
        if WEEKDAYS[d.weekday()][:3] != m.group(1)[:3]:
            raise ValueError(f"{text!r}: the weekday is not the date's")
        return d
    relative = {"today": 0, "tomorrow": 1, "yesterday": -1}
    if t.lower() in relative:
        return ref + dt.timedelta(days=relative[t.lower()])
    if m := re.fullmatch(r"(this|next|last) (\w+)", t, re.IGNORECASE):
        weekday = WEEKDAYS.index(m.group(2).capitalize())
        window = {"this": range(1, 7), "next": range(7, 14), "last": range(-7, 0)}
        return next(
            ref + dt.timedelta(days=k)
            for k in window[m.group(1).lower()]
            if (ref + dt.timedelta(days=k)).weekday() == weekday
        )
    if m := re.fullmatch(r"(?:this )?(\w+), the (\d+)(?:st|nd|rd|th)", t, re.IGNORECASE):
        (only,) = _weekday_ordinal_matches(
            WEEKDAYS.index(m.group(1).capitalize()), int(m.group(2)), ref
        )
        return only
    if m := re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", t):
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    if m := re.fullmatch(r"(\d{1,2})([/.\-])(\d{1,2})\2(\d{4})", t):
        a, b = int(m.group(1)), int(m.group(3))
        month, day = (a, b) if _month_first(writer) else (b, a)
        return dt.date(int(m.group(4)), month, day)
    if m := re.fullmatch(r"(\d{1,2})([/.])(\d{1,2})\.?", t):
        a, b = int(m.group(1)), int(m.group(3))
        month, day = (a, b) if _month_first(writer) else (b, a)
        return _nearest_yearless(month, day, ref)
    if m := re.fullmatch(rf"({MONTH_RE}) (\d{{1,2}}), (\d{{4}})", t, re.IGNORECASE):
        return dt.date(int(m.group(3)), _month_number(m.group(1)), int(m.group(2)))
    if m := re.fullmatch(rf"(\d{{1,2}}) ({MONTH_RE}) (\d{{4}})", t, re.IGNORECASE):
        return dt.date(int(m.group(3)), _month_number(m.group(2)), int(m.group(1)))
    if m := re.fullmatch(
        rf"(?:the )?(\d{{1,2}})(?:st|nd|rd|th)? of ({MONTH_RE})", t, re.IGNORECASE
    ):
        return _nearest_yearless(_month_number(m.group(2)), int(m.group(1)), ref)
    if m := re.fullmatch(rf"({MONTH_RE}) (\d{{1,2}})", t, re.IGNORECASE):
        return _nearest_yearless(_month_number(m.group(1)), int(m.group(2)), ref)
    if m := re.fullmatch(rf"(\d{{1,2}}) ({MONTH_RE})", t, re.IGNORECASE):
        return _nearest_yearless(_month_number(m.group(2)), int(m.group(1)), ref)
    raise ValueError(f"not a date form: {text!r}")


# Counts and amounts --------------------------------------------------------------------


def _count_word(n: int) -> str | None:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else None


def render_day_count(form: str, value: str, writer: Writer, rng) -> str | None:
    n = int(value.split()[0])
    if form == "digits":
        return value
    if form == "words":
        return "a day" if n == 1 else (f"{_count_word(n)} days" if _count_word(n) else None)
    if form == "couple":
        return "a couple of days" if n == 2 else None
    if n % 7:
        return None
    weeks = n // 7
    if form == "weeks_digits":
        return f"{weeks} week" + ("s" if weeks > 1 else "")
    if form == "weeks_words":
        if weeks == 1:
            return "a week"
        if weeks == 2 and rng.integers(2):
            return "a fortnight"
        return f"{_count_word(weeks)} weeks" if _count_word(weeks) else None
    raise ConfigError(f"forms.yaml: unknown day_count form '{form}'")


UNIT_DAYS = {"day": 1, "week": 7, "fortnight": 14, "month": 30}
HEDGES = ("about", "around", "roughly", "approximately", "maybe")


def read_days(text: str) -> int:
    """Days a written duration means (a month counts 30)."""
    t = text.lower().replace("a couple of", "two")
    t = re.sub(rf"^(?:{'|'.join(HEDGES)}) ", "", t)
    m = re.fullmatch(r"(\d+|a|an|\w+) (day|week|fortnight|month)s?", t)
    if not m:
        raise ValueError(f"not a duration form: {text!r}")
    count = m.group(1)
    n = 1 if count in ("a", "an") else int(count) if count.isdigit() else NUMBER_WORDS.index(count)
    return n * UNIT_DAYS[m.group(2)]


def render_stay(form: str, value: str, writer: Writer, rng) -> str | None:
    count, unit = value.split()
    n, unit = int(count), unit.rstrip("s")
    if form == "digits":
        return value
    if form == "hedged":  # about three weeks / around 3 weeks
        hedge = HEDGES[rng.integers(len(HEDGES) - 1)]
        words = _count_word(n) if n > 1 and rng.integers(2) else None
        return f"{hedge} {words or n} {unit}s" if n > 1 else f"{hedge} a {unit}"
    if form == "words":
        return f"{_count_word(n)} {unit}s" if _count_word(n) and n > 1 else None
    if form == "in_days":
        return f"{n * 7} days" if unit == "week" else None
    if form == "colloquial":
        if (n, unit) in ((2, "week"), (14, "day")):
            return "a fortnight" if rng.integers(2) else "a couple of weeks"
        if (n, unit) == (7, "day"):
            return "a week"
        if (n, unit) == (2, "month"):
            return "a couple of months"
        return None
    raise ConfigError(f"forms.yaml: unknown stay form '{form}'")


def _grouped(amount: int, separator: str) -> str:
    return f"{amount:,}".replace(",", separator)


def _thousands(amount: int) -> str:
    return f"{amount / 1000:.1f}".removesuffix(".0") + "k"


def render_money(form: str, value: str, writer: Writer, rng) -> str | None:
    symbol, amount = value[0], int(value[1:].replace(",", ""))
    word, code = CURRENCY[symbol]
    sep = THOUSANDS.get(writer.country_code, ",")
    if form == "symbol":
        return value
    if form == "amount_word":
        return f"{amount} {word}"
    if form == "thousands":
        return _thousands(amount)
    if form == "symbol_thousands":
        return symbol + _thousands(amount)
    if form == "code":
        return f"{_grouped(amount, sep)} {code}"
    if form == "local":
        return f"{_grouped(amount, sep)} {symbol if symbol == '€' else word}"
    raise ConfigError(f"forms.yaml: unknown money form '{form}'")


def read_amount(text: str) -> float:
    """The amount a written sum means ('45.4k' is 45,400; '45.400 €' is 45,400)."""
    t = re.sub(r"[$€£]|dollars|euros|pounds|USD|EUR|GBP", "", text).strip()
    if t.endswith("k"):
        return float(t[:-1].replace(",", ".")) * 1000
    return float(re.sub(r"[ ,.]", "", t))


def render_percent(form: str, value: str, writer: Writer, rng) -> str | None:
    number = value.removesuffix("%")
    if form == "sign":
        return value
    if form == "word":
        return f"{number} percent"
    if form == "per_cent":
        return f"{number} per cent"
    if form == "spaced":
        local = number.replace(".", ",") if writer.country_code in DECIMAL_COMMA else number
        return f"{local} %"
    if form == "words":
        word = _count_word(int(number)) if number.isdigit() else None
        return f"{word} percent" if word else None
    raise ConfigError(f"forms.yaml: unknown percent form '{form}'")


def read_percent(text: str) -> float:
    m = re.fullmatch(r"([\w.,]+) ?(?:%|percent|per cent)", text.strip())
    if not m:
        raise ValueError(f"not a percentage form: {text!r}")
    number = m.group(1).replace(",", ".")
    return float(number) if re.fullmatch(r"[\d.]+", number) else float(NUMBER_WORDS.index(number))


# Phrases, people, places ---------------------------------------------------------------


def _render_phrase(kind: str, grammar: str | None = None, lay_inside: bool = False):
    """Listed, lay words, or (with `grammar`) a noun phrase of that variable's clause
    grammar around the listed or lay words ("a bad flu that won't go away")."""

    def render_phrase(form: str, value: str, writer: Writer, rng) -> str | None:
        if form == "listed":
            return value
        phrases = load_catalogue().lay[kind].get(value)
        if form == "grammar" and grammar:
            # A health reason's phrase holds the condition, as listed or in lay words; a
            # life event's grammar picks the event's own phrases from the sampled value.
            options = [value, *(phrases or [])] if lay_inside else [value]
            written = options[rng.integers(len(options))]
            return clauses.write(grammar, "noun_phrase", rng, {"value": written, "topic": value})
        if form == "grammar":
            return None
        return phrases[rng.integers(len(phrases))] if phrases else None

    return render_phrase


def _render_written(variable: str):
    """Listed, or a noun phrase of the variable's clause grammar (which writes its own
    value: the ticket's topic, not a fact sampled with others)."""

    def render_written(form: str, value: str, writer: Writer, rng) -> str | None:
        if form == "listed":
            return value
        if form == "grammar":
            return clauses.write(variable, "noun_phrase", rng)
        raise ConfigError(f"forms.yaml: unknown form '{form}' for {variable}")

    return render_written


@cache
def _lay_reverse(kind: str) -> dict[str, str]:
    return {p.lower(): value for value, ps in load_catalogue().lay[kind].items() for p in ps}


def read_phrase(kind: str, text: str) -> str:
    """The listed value a lay phrase stands for (a listed value reads as itself)."""
    return _lay_reverse(kind).get(text.lower(), text)


@cache
def _faker(locale: str) -> Faker:
    return Faker(locale)


def colleague_name(writer: Writer, rng) -> str:
    fake = _faker(writer.locale)
    fake.seed_instance(int(rng.integers(2**31)))
    return f"{fake.first_name()} {fake.last_name()}"


def render_target(form: str, value: str, writer: Writer, rng) -> str | None:
    if form == "listed":
        return value
    if form == "name":
        return colleague_name(writer, rng)
    if form == "role_and_name":
        return f"{value}, {colleague_name(writer, rng)}"
    if form == "first_name":
        return colleague_name(writer, rng).split()[0]
    if form == "described":
        described = load_catalogue().described
        return described[rng.integers(len(described))]
    if form == "phrase":
        name = colleague_name(writer, rng)
        bindings = {"name": name, "first_name": name.split()[0]}
        return clauses.write("to_who", "noun_phrase", rng, bindings)
    if form == "my_manager":
        return (
            ("my manager", "my boss")[rng.integers(2)]
            if value in load_catalogue().supervisors
            else None
        )
    raise ConfigError(f"forms.yaml: unknown complaint_target form '{form}'")


def render_place(form: str, value: str, writer: Writer, rng) -> str | None:
    if form == "city":
        return value
    if form == "office":
        return f"our {value} office"
    if form == "area":
        return f"the {value} area"
    if form == "centre":
        return f"downtown {value}" if writer.country_code == "US" else f"central {value}"
    raise ConfigError(f"forms.yaml: unknown place form '{form}'")


def read_place(text: str) -> str:
    m = re.fullmatch(r"our (.+) office|the (.+) area|downtown (.+)|central (.+)|(.+)", text)
    return next(g for g in m.groups() if g)


@cache
def airports() -> tuple[dict[str, tuple[str, str]], dict[str, int]]:
    """Airport name -> (IATA code, city) for names that are unique, and airports per city."""
    from synth.docs.tickets import sources

    table = sources.read_table(sources.SOURCES_DIR / "airports.csv", keep_default_na=False)
    unique = table.drop_duplicates("name", keep=False)
    by_name = {r.name: (r.iata, r.city) for r in unique.itertuples(index=False)}
    per_city = table[table.city != ""].groupby(["city", "country_code"]).size()
    return by_name, {city: n for (city, _), n in per_city.items()}


@cache
def airport_short_names() -> dict[str, list[str]]:
    """Official name -> what people call it (forms/airport_names.yaml)."""
    from synth.io.files import read_yaml

    return read_yaml(FORMS_DIR / "airport_names.yaml", "airport short names")


def render_airport(form: str, value: str, writer: Writer, rng) -> str | None:
    if form == "name":
        return value
    if form == "short":
        names = airport_short_names().get(value)
        return names[rng.integers(len(names))] if names else None
    by_name, per_city = airports()
    if value not in by_name:
        return None
    code, city = by_name[value]
    if form == "iata":
        return code
    # A city with one airport: its name says which airport it is.
    if not city or per_city.get(city, 0) != 1:
        return None
    if form == "city_airport":
        return f"the {city} airport"
    if form == "city_code":
        return f"{city} ({code})"
    raise ConfigError(f"forms.yaml: unknown airport form '{form}'")


def read_airport(text: str) -> str:
    short = {n: full for full, names in airport_short_names().items() for n in names}
    if text in short:
        return short[text]
    by_name, _ = airports()
    by_code = {code: name for name, (code, _) in by_name.items()}
    by_city = {city: name for name, (_, city) in by_name.items() if city}
    if m := re.fullmatch(r"the (.+) airport", text):
        return by_city[m.group(1)]
    if m := re.fullmatch(r"(.+) \(([A-Z]{3})\)", text):
        return by_code[m.group(2)]
    return by_code.get(text, text)


RENDERERS = {
    "date": render_date,
    "day_count": render_day_count,
    "stay": render_stay,
    "money": render_money,
    "percent": render_percent,
    "health_reason": _render_phrase("health_reason", grammar="reason", lay_inside=True),
    "complaint": _render_written("complaint"),
    "change_reason": _render_written("reason_of_change"),
    "life_event": _render_phrase("life_event", grammar="description_life_event"),
    "complaint_target": render_target,
    "place": render_place,
    "airport": render_airport,
}
