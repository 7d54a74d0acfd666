"""Phrases, people and places: lay words and clause grammars, colleagues' names, cities
and airports as people call them."""

from functools import cache

from faker import Faker

from synth import ConfigError
from synth.kinds.tickets import clauses
from synth.kinds.tickets.forms.catalogue import FORMS_DIR, Writer, load_catalogue


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


@cache
def airports() -> tuple[dict[str, tuple[str, str]], dict[str, int]]:
    """Airport name -> (IATA code, city) for names that are unique, and airports per city."""
    from synth.kinds.tickets import sources

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
