"""Counts and amounts: day counts, stays, money in the writer's currency and grouping,
percentages; in digits or words."""

from synth import ConfigError
from synth.calendar import number_word
from synth.kinds.tickets.forms.catalogue import Writer

CURRENCY = {"$": ("dollars", "USD"), "€": ("euros", "EUR"), "£": ("pounds", "GBP")}
# How amounts are grouped where people write them: 45,400 / 45.400 / 45 400.
THOUSANDS = {"US": ",", "GB": ",", "DE": ".", "IT": ".", "ES": ".", "NL": ".", "FR": " "}
DECIMAL_COMMA = {"DE", "IT", "ES", "NL", "FR"}


def render_day_count(form: str, value: str, writer: Writer, rng) -> str | None:
    n = int(value.split()[0])
    if form == "digits":
        return value
    if form == "words":
        return "a day" if n == 1 else (f"{number_word(n)} days" if number_word(n) else None)
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
        return f"{number_word(weeks)} weeks" if number_word(weeks) else None
    raise ConfigError(f"forms.yaml: unknown day_count form '{form}'")


UNIT_DAYS = {"day": 1, "week": 7, "fortnight": 14, "month": 30}
HEDGES = ("about", "around", "roughly", "approximately", "maybe")


def render_stay(form: str, value: str, writer: Writer, rng) -> str | None:
    count, unit = value.split()
    n, unit = int(count), unit.rstrip("s")
    if form == "digits":
        return value
    if form == "hedged":  # about three weeks / around 3 weeks
        hedge = HEDGES[rng.integers(len(HEDGES) - 1)]
        words = number_word(n) if n > 1 and rng.integers(2) else None
        return f"{hedge} {words or n} {unit}s" if n > 1 else f"{hedge} a {unit}"
    if form == "words":
        return f"{number_word(n)} {unit}s" if number_word(n) and n > 1 else None
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
        word = number_word(int(number)) if number.isdigit() else None
        return f"{word} percent" if word else None
    raise ConfigError(f"forms.yaml: unknown percent form '{form}'")
