"""Planning CVs, shard by shard: one DP-sampled attribute row per CV, then its prompts.

The role, universities, degrees, employers and years come from the DP network; a
generalised name ('Other University', 'Generic Company') becomes a public one from the
persona's country: a university of its list in universities_by_country.yaml that the
model did not keep (else of the global universities.yaml), or a company from Faker in
the persona's locale. Slots
are compacted (no gaps), a university without a degree gets the count rule, and the
years are made plausible (plausible_years: the employers' sum at most the total, the
total at most a working life).
"""

import numpy as np
import pandas as pd
from faker import Faker

from synth import ConfigError
from synth.generation.template import SLOT, fill
from synth.generation.trimming import years_claimed
from synth.io.files import read_yaml
from synth.kinds import ShardPlan, balanced_labels, shard_rows, shard_streams
from synth.kinds.cvs.entities import entity_type
from synth.kinds.cvs.extract.table import GENERIC_COMPANY, NONE, OTHER_UNIVERSITY, SLOTS
from synth.kinds.cvs.role_words import RoleWords, languages_of
from synth.kinds.cvs.sections import CVTemplates, load_templates, taxonomy_file
from synth.kinds.cvs.vocabulary import load_vocabulary
from synth.kinds.persona import make_personas, seeded_faker
from synth.record import PlannedDocument

DEGREE_BY_POSITION = ("Bachelor's", "Master's", "PhD")


def years_text(n: int) -> str:
    return "less than a year" if n <= 0 else ("1 year" if n == 1 else f"{n} years")


# A working life from 20 to 65: the most years of experience a CV states. The top year
# bin reaches 50, and a value past it is clipped into that bin (out_of_range: clip), so
# the network can draw totals no working life holds.
MAX_WORKING_YEARS = 45


def plausible_years(total: int, employer_years: list[int]) -> tuple[int, list[int]]:
    """(total, per-employer years) as a CV can state them: each ≥ 0, the employers' sum
    at most the total, the total at most MAX_WORKING_YEARS. The network samples them
    apart, so a total below the employers' sum is raised to it, and employers that sum
    past a working life lose years, the longest first."""
    years = [min(max(int(y), 0), MAX_WORKING_YEARS) for y in employer_years]
    while sum(years) > MAX_WORKING_YEARS:
        years[years.index(max(years))] -= 1
    return min(max(int(total), sum(years)), MAX_WORKING_YEARS), years


def cv_values(row: pd.Series, public: list[str], rng: np.random.Generator, fake: Faker) -> dict:
    """The inserted attributes of one CV: role, entries, total years (all strings).

    `public`: the public universities the model did not keep, for 'Other University'."""
    universities, companies = [], []
    for k in range(1, SLOTS + 1):
        name = str(row.get(f"university_{k}", NONE))
        if name != NONE:
            if name == OTHER_UNIVERSITY:
                name = public[rng.integers(len(public))]
            degree = str(row.get(f"degree_{k}", NONE))
            universities.append([name, degree])
        company = str(row.get(f"company_{k}", NONE))
        if company != NONE:
            if company == GENERIC_COMPANY:
                company = fake.company()
            companies.append((company, int(row.get(f"years_{k}", 0))))
    for position, entry in enumerate(universities):
        if entry[1] == NONE:
            entry[1] = DEGREE_BY_POSITION[min(position, 2)]
    total, employer_years = plausible_years(
        int(row.get("total_years", 0)), [y for _, y in companies]
    )
    companies = [(name, y) for (name, _), y in zip(companies, employer_years)]
    values = {"role": str(row["role"]), "total_years": years_text(total)}
    graduated = graduation_years(total, len(universities))
    for k, ((name, degree), year) in enumerate(zip(universities, graduated), 1):
        values |= {f"university_{k}": name, f"degree_{k}": degree, f"graduation_year_{k}": year}
    for k, (name, years) in enumerate(companies, 1):
        values |= {f"company_{k}": name, f"years_{k}": years_text(years)}
    return values


# The year a CV is written in: graduation years count back from it (a constant, so a seed
# gives the same CVs in any year).
AS_OF_YEAR = 2025
# Years between one degree and the next (a Master's two years after the Bachelor's).
YEARS_PER_DEGREE = 2


def graduation_years(total_years: int, degrees: int) -> list[str]:
    """The year each degree was taken, earliest first: the last one when the working
    years began (AS_OF_YEAR minus the total), each earlier one YEARS_PER_DEGREE before."""
    last = AS_OF_YEAR - total_years
    return [str(last - YEARS_PER_DEGREE * (degrees - 1 - k)) for k in range(degrees)]


def home_city(country_code: str, fake: Faker, rng) -> str:
    """Where the CV's owner lives: a city of more than 100,000 people of their country
    (GeoNames), a Faker city where GeoNames lists none."""
    from synth.kinds.tickets.sources import big_cities

    cities = big_cities().get(country_code)
    if cities is None or cities.empty:
        return fake.city()
    return str(cities.city.iloc[int(rng.integers(len(cities)))])


# Capital letters whose spoken name starts with a vowel sound: "an HR executive".
VOWEL_SOUND_LETTERS = set("AEFHILMNORSX")


def with_article(title: str) -> str:
    """'a'/'an' + title, by sound: a lower-case vowel ('an arts teacher'), or an acronym
    whose first letter is spoken with a vowel ('an ETL developer', 'an SAP developer');
    otherwise 'a' ('a DevOps engineer', 'a .NET developer', 'a Java developer')."""
    word = title.split()[0] if title.strip() else title
    acronym = len(word) > 1 and word.isupper()
    vowel = word[:1] in VOWEL_SOUND_LETTERS if acronym else word[:1].lower() in set("aeiou")
    return f"{'an' if vowel else 'a'} {title}"


def assemble(templates: CVTemplates, values: dict, persona: dict, rng) -> tuple[str, str, list]:
    """(body with <generate> slots, template id naming the chosen variants, each slot's
    fallback line in order)."""
    title = templates.title(values["role"])
    words = RoleWords(
        templates.skills.get(values["role"]), templates.duties.get(values["role"]), rng
    )
    common = {
        **persona,
        **values,
        "title": title,
        "a_title": with_article(title),
        "role_skills": words.role_skills(),
        "languages": languages_of(persona["country_code"]),
        "hobbies": words.hobbies,
        **words.duty(0),
    }
    parts, chosen, fallbacks = [], [], []
    for section in templates.sections:
        v = int(rng.integers(len(section.prompts)))
        chosen.append(f"{section.id}{v}")
        if section.repeat == "universities":
            entries = [
                {
                    "university": values[f"university_{k}"],
                    "degree": values[f"degree_{k}"],
                    "graduation_year": values[f"graduation_year_{k}"],
                    "study_skill": words.next_skill(),
                }
                for k in range(1, SLOTS + 1)
                if f"university_{k}" in values
            ]
        elif section.repeat == "companies":
            entries = [
                {"company": values[f"company_{k}"], "years": values[f"years_{k}"]}
                | words.duty(k - 1)
                for k in range(1, SLOTS + 1)
                if f"company_{k}" in values
            ]
        else:
            entries = [{}]
        if not entries:
            continue
        lines = [_capitalised(fill(section.prompts[v], {**common, **e}), title) for e in entries]
        fallback = section.fallbacks[v] if section.fallbacks else ""
        for e in entries:
            more = {"more_skills": words.more_skills()} if "${more_skills}" in fallback else {}
            fallbacks.append(fill(fallback, {**common, **e, **more}))
        parts.append("\n".join(filter(None, [section.heading, *lines])))
    return "\n\n".join(parts), "cv:" + "-".join(chosen), fallbacks


def _capitalised(text: str, title: str) -> str:
    """A line that opens with the job title opens with a capital, as a CV's lines do
    ('advocate, Gaillard' was written); a name or company keeps its own spelling."""
    return "\n".join(
        line[:1].upper() + line[1:] if line.startswith(title) else line for line in text.split("\n")
    )


def instruction(persona: dict, title: str) -> str:
    return (
        f"Write the CV of {persona['name']}, {with_article(title)}, section by section, in plain "
        "English, about 30 words per section, with no placeholders."
    )


# Words a section's slot gets at the least: a CV drawn shorter than its fixed text plus
# this per slot is aimed at that floor instead, so no section is left empty.
MIN_SLOT_WORDS = 10


def _target_words(row: pd.Series, pieces: list[str]) -> int | None:
    """The length the network drew for this CV, at least its fixed text plus
    MIN_SLOT_WORDS per slot (models fitted before `words` have none: no target)."""
    words = int(row.get("words", 0) or 0)
    if words <= 0:
        return None
    floor = len(" ".join(pieces).split()) + MIN_SLOT_WORDS * (len(pieces) - 1)
    return max(words, floor)


def public_universities(taxonomy_dir, kept: set) -> dict:
    """{country code: universities the model did not keep}, None: the global list."""
    path = taxonomy_file(taxonomy_dir, "universities_by_country.yaml")
    doc = read_yaml(path, "universities by country") or {}
    if not isinstance(doc, dict) or not all(isinstance(v, list) for v in doc.values()):
        raise ConfigError(f"universities by country {path}: expected 'CODE: [name, …]' per country")
    lists = {str(c): [str(u) for u in names if u not in kept] for c, names in doc.items()}
    lists[None] = [u for u in load_vocabulary("universities").canonical if u not in kept]
    return lists


class CVPlanner:
    """Plans a run's CVs shard by shard (synth.kinds.Planner); `model`: the DP CV model."""

    def __init__(self, cfg, run_id: str, model):
        if cfg.cvs.attributes == "public":
            self._public(cfg, run_id)
            return
        if model is None:
            raise ConfigError(
                "doc_type cv needs a DP CV model: set dp_model (run `hrsynth "
                "extract` then `hrsynth fit --schema configs/cv_schema.yaml`)"
            )
        if "role" not in model.schema.names:
            raise ConfigError(
                f"dp_model {cfg.run.dp_model} has no 'role' attribute: it is not a CV "
                "model; fit one on an extracted CV table"
            )
        self.cfg, self.run_id, self.model = cfg, run_id, model
        self.templates = load_templates(cfg.run.taxonomy_dir)
        domain = {a.name: set(a.values) for a in model.schema.attributes if a.type == "categorical"}
        self.public = public_universities(cfg.run.taxonomy_dir, domain.get("university_1", set()))
        self.roles = model.schema.attributes[model.schema.names.index("role")].values
        untitled = sorted(str(r) for r in self.roles if str(r) not in self.templates.titles)
        if untitled:
            print(
                f"{len(untitled)} role(s) have no title in roles.yaml and are written as "
                f"their label (default_title): {', '.join(untitled[:8])}"
                + (" …" if len(untitled) > 8 else "")
            )
        mode = {"mode": cfg.cvs.roles}
        if cfg.cvs.roles != "dp_model":
            mode["roles"] = len(self.roles)
        self.notes = {
            "dp_models": {
                cfg.run.dp_model: model.to_dict()["ledger"]
                | {
                    "degree": model.degree,
                    "used_for": "CV attributes",
                    "holdout": model.fit_info.get("holdout"),
                    "vocabularies": model.fit_info.get("vocabularies"),
                }
            },
            "cv_roles": mode | {"untitled_roles": untitled},
        }

    def _public(self, cfg, run_id: str) -> None:
        """Attributes from the public lists alone (synth.kinds.cvs.public): no DP model."""
        from synth.kinds.cvs.public import PublicRows

        self.cfg, self.run_id = cfg, run_id
        self.templates = load_templates(cfg.run.taxonomy_dir)
        self.public = public_universities(cfg.run.taxonomy_dir, set())
        self.roles = sorted(self.templates.titles)
        self.model = PublicRows(self.roles)
        self.notes = {
            "cv_attributes": "public lists only (cvs.attributes: public): no private data, no ε",
            "cv_roles": {"mode": cfg.cvs.roles, "roles": len(self.roles)},
        }

    def plan_shard(self, shard: int) -> ShardPlan:
        cfg = self.cfg
        first = shard * cfg.run.shard_size
        n = shard_rows(cfg.run.num_docs, cfg.run.shard_size, shard)
        rng, dp_rng = shard_streams(cfg.run.seed, shard, 2)
        personas = make_personas(n, cfg.run.countries, rng)
        fakers = {}
        for locale in dict.fromkeys(p["locale"] for p in personas):  # first-seen order: seeded
            fakers[locale] = seeded_faker(locale, int(rng.integers(0, 2**31)))
        rows, counts = self._sample_rows(n, first, rng, dp_rng)
        docs = [
            self._cv(first + k, shard, row, personas[k], fakers, rng)
            for k, (_, row) in enumerate(rows.iterrows())
        ]
        return ShardPlan(docs, counts, rows.assign(id=[d.id for d in docs]))

    def _cv(self, index: int, shard: int, row, persona: dict, fakers: dict, rng) -> PlannedDocument:
        templates = self.templates
        country_list = self.public.get(persona["country_code"]) or self.public[None]
        values = cv_values(row, country_list, rng, fakers[persona["locale"]])
        values["city"] = home_city(persona["country_code"], fakers[persona["locale"]], rng)
        body, template_id, fallbacks = assemble(templates, values, persona, rng)
        title = templates.title(values["role"])
        pieces = body.split(SLOT)
        # The role is inserted as its job title ('Data Science' -> 'data scientist'); the
        # owner's name is an entity too (what the personal-data detector learns).
        entities = {**values, "role": title, "name": persona["name"]}
        return PlannedDocument(
            index=index,
            shard=shard,
            run_id=self.run_id,
            doc_type="cv",
            label=values["role"],
            category="CV",
            subcategory=values["role"],
            template_id=template_id,
            header=templates.header,
            pieces=pieces,
            instruction=instruction(persona, title),
            entities={k: str(v) for k, v in entities.items()},
            entity_labels={k: entity_type(k) for k in entities},
            target_words=_target_words(row, pieces),
            attributes={k: str(v) for k, v in values.items()},
            persona=persona,
            fallbacks=fallbacks,
            most_years=max(years_claimed(values["total_years"]), default=0),
        )

    def _sample_rows(self, n: int, first: int, rng, dp_rng) -> tuple[pd.DataFrame, dict]:
        """The shard's DP attribute rows, and its counts for the manifest (rows whose
        balanced role was clamped)."""
        if self.cfg.cvs.roles == "dp_model":
            return self.model.sample(n, dp_rng), {}
        roles = balanced_labels(self.roles, n, rng, start=first)
        rows, clamped = self.model.sample_given("role", roles, dp_rng)
        return rows, {"cv_roles": {"clamped_rows": clamped}}
