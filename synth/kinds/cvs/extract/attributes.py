"""Attributes of one CV: universities with degrees, employers with years, total years.

Rules (docs/cvs.md, "CV extraction"), in the order they run:
- A flat CV (scraped without line breaks) is cut into lines first, and its job lines
  "<title> <employer> - <place> <dates>" name its employers (flat.py).
- Text is cut into units: lines, then sentences and ';'-clauses. Time expressions and
  degrees are paired with names inside a unit only.
- Universities: names from the public vocabulary, plus capitalised phrases around a
  keyword (University, College, Institute, …) with a leading region name dropped.
  School-level lines (HSC, SSC, 10th, 12th, board, high school) are skipped.
  Degree: the nearest unused degree mention before the name in its unit, else after
  it; a university with none gets the count rule by chronological position (by year
  when every university has one, else text order): 1st → Bachelor's, 2nd → Master's,
  3rd → PhD.
- Employers: names from the public vocabulary and spaCy ORG entities, in units that
  speak of employment (a time expression, or words such as worked, joined, company),
  plus the `company - X` lines of the common scraped-CV layout. Skill lines
  ('Java- Exprience - 60 months') are not employment.
- Years at an employer: date ranges ('2016 - 2019', 'Jan 2018 - Dec 2021', '2020 to
  present', 'since 2022') and durations ('for 3 years', '6 months'), never 'N years
  old' or 'age N'. An expression right before 'at/with/in <employer>' belongs to that
  employer; otherwise to the nearest employer before it in the unit, else after it.
  The synthetic-CV paper (docs/references.md) dropped every number ≥ 10 to avoid ages; context does that job here, so
  12 years of experience is kept.
- Total years: a stated total ('8 years of experience', 'total experience of 8
  years', 'worked in sales for 10 years' with no employer in the sentence), else the
  sum over employers.
"""

import math
import re
from dataclasses import dataclass, field

from synth.calendar import NUMBER_WORDS, month_number, number_of
from synth.kinds.cvs.extract.dates import DURATION, RANGE, SINCE, YEAR
from synth.kinds.cvs.extract.flat import is_flat, job_header, reline, strip_field_words
from synth.kinds.cvs.vocabulary import load_vocabulary, normalise, word_list

LEVELS = ("Bachelor's", "Master's", "PhD")
AGE = re.compile(r"\bage[ds]?\s*:?\s*$", re.IGNORECASE)
SKILL_LINE = re.compile(r"Expe?rience\s*-\s*(?:\d|less|more)", re.IGNORECASE)
COMPANY_LINE = re.compile(r"^\s*company\s*-\s*(.+)$", re.IGNORECASE | re.MULTILINE)
SCHOOL_LINE = re.compile(
    r"\b(?:H\.?\s?S\.?\s?C|S\.?\s?S\.?\s?C|10th|12th|X(?:II)?th|"
    r"[Hh]igh [Ss]chool|HIGH SCHOOL|[Bb]oard|BOARD|[Jj]r\. [Cc]ollege|"
    r"[Jj]unior [Cc]ollege|[Mm]atriculation)\b"
)
EMPLOYMENT = re.compile(
    r"\b(?:work(?:ed|ing|s)?|join(?:ed|ing)?|employ(?:er|ment|ed)|"
    r"company|experience|career|spent|intern(?:ship)?|moved)\b",
    re.IGNORECASE,
)
COUNT = rf"(?P<n>\d{{1,2}}(?:\.\d)?|{'|'.join(NUMBER_WORDS[1:])})(?:\s*\+|\s+plus)?"
STATED_TOTAL = [
    re.compile(
        rf"\b{COUNT}\s*(?:years?|yrs?)(?:'s|’s|'|’)?\s+(?:of\s+)?(?:total\s+"
        r"|overall\s+|work\s+|professional\s+|industry\s+|relevant\s+|IT\s+)?(?:experience|"
        r"exp)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?:total|overall)\s+(?:work\s+)?experience\s*(?:of|:|-|is)?\s*"
        r"(?P<n>\d{1,2}(?:\.\d)?)\s*\+?\s*(?:years?|yrs?)",
        re.IGNORECASE,
    ),
]
WORKED_FOR = re.compile(
    r"\b(?:worked|working|been)\b[^.]*?\bfor\s+(?P<n>\d{1,2})\s*\+?\s*"
    r"(?:years?|yrs?)\b",
    re.IGNORECASE,
)
DEGREES = [  # (level, pattern): checked PhD first, so 'Post Graduate' is not 'Graduate'
    (2, r"\bPh\.?\s?D\b\.?|\bDoctor(?:ate| of Philosophy)\b"),
    (
        1,
        (
            r"\bM\.?\s?Tech\b|\bM\.\s?E\b\.?|\bM\.?\s?Sc\b|\bMSc\b|\bMCA\b|\bMBA\b|"
            r"\bM\.?\s?Com\b|\bM\.COM\b|\bM\.\s?A\b\.?|\bPGDM\b|\bPGDBA\b|\b[Mm]aster(?:'?s)?\b|"
            r"\bMASTER\b|\bPost[- ]?[Gg]raduat\w*"
        ),
    ),
    (
        0,
        (
            r"\bB\.?\s?Tech\b|\bB\.\s?E\b\.?|\bBE\b|\bB\.?\s?Sc\b|\bBSc\b|\bBCA\b|\bBBA\b|"
            r"\bB\.\s?B\.\s?A\b\.?|\bBMS\b|\bB\.?\s?Com\b|\bB\.COM\b|\bB\.\s?A\b\.?|"
            r"\b[Bb]achelor(?:'?s)?\b|\bBACHELOR\b|\b[Gg]raduat(?:e|ed|ion)\b"
        ),
    ),
]
KEYWORD = re.compile(
    r"\b(?:University|College|Institute|Polytechnic|Vishwavidyalaya|"
    r"Vidyapeeth|Academy|Universit[aéà]t?|Politecnico|Universidad|Universiteit|"
    r"Hochschule|Fachhochschule|Hogeschool|[ÉE]cole|Escuela|Instituto|Istituto)\b",
    re.IGNORECASE,
)
# A campus after a comma, before the place: 'California State University, Long Beach - Long
# Beach, CA'.
CAMPUS = r"(?:,[ \t]+[A-Z][\w'’.-]*(?:[ \t]+[A-Z][\w'’.-]*){0,2}(?=[ \t]+[-–—][ \t]))?"
CONNECTORS = r"of|for|and|&|de|di|at|degli|della|del|des|du|van|der|für|zu"
NAME_WORD = rf"(?:[A-Z][\w'’.&-]*|&|(?:{CONNECTORS}|the)(?!\w))"
ABBREVIATIONS = ("Dr", "Mr", "Mrs", "Ms", "Jr", "Sr", "St", "Pvt", "Ltd", "Co", "No", "Inc")
# Legal forms, several countries': 'Siemens AG', 'Brembo S.p.A.', 'Baker McKenzie LLP'.
LEGAL_SUFFIX = re.compile(
    r"[\s,.]*\b(?:pvt\.?|private|ltd\.?|limited|inc\.?|llp|llc|plc|corp\.?|gmbh|ag|se|"
    r"s\.\s?p\.\s?a\.?|spa|s\.\s?a\.?|s\.\s?l\.?|b\.\s?v\.?|n\.\s?v\.?|sas|sarl|srl)"
    r"(?:[\s.]+(?:ltd\.?|limited))?\.?\s*$",
    re.IGNORECASE,
)


REGIONS = word_list("regions.txt")
TITLE_WORDS = word_list("title_words.txt")
PLACEHOLDER_WORDS = word_list("placeholders.txt")
# An employer anonymised by the corpus ('Company Name', 'Current Company Name'): a job
# whose name is gone, kept as the generalised name so its years still count.
GENERIC_COMPANY = "Generic Company"
ANONYMISED_EMPLOYER = re.compile(
    r"\b(?:(?<!to\s)(?<!-\s)(?<!–\s)current\s+)?(?:company|employer|organi[sz]ation)\s+name\b",
    re.IGNORECASE,
)
# A line that is an employer and its place, beside a line with the job's dates:
# 'Siemens AG, Munich (Germany)', 'Amazon — Seattle, WA'.
EMPLOYER_AND_PLACE = re.compile(
    r"^\s*(?P<name>[^,|;()—–]+?)\s*(?:,|—|–|\|)\s*[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}"
    r"\s*(?:\([A-Z][\w ]+\)|,\s*[A-Z]{2})?\s*$"
)
# A line about a degree, not a job: 'Master's degree in Mechanical Engineering',
# 'Degree in Business Administration', 'Bachelor of Commerce', 'Laurea Magistrale'.
EDUCATION_LINE = re.compile(
    r"\bdegree\b|\bdiploma\b|\blaurea\b|\b(?:bachelor|master)(?:'?s)?\s+(?:of|in)\b",
    re.IGNORECASE,
)


def _only_placeholders(name: str) -> bool:
    words = [w.lower() for w in re.findall(r"\w+", name)]
    return bool(words) and all(w in PLACEHOLDER_WORDS for w in words)


def _strip_placeholders(name: str) -> str:
    """'Georgia Institute of Technology City , State' -> 'Georgia Institute of Technology'."""
    words = name.split()
    while words and _only_placeholders(words[-1]) or (words and not re.search(r"\w", words[-1])):
        words.pop()
    return " ".join(words)


@dataclass
class Extracted:
    universities: list[tuple[str, str]] = field(default_factory=list)  # (name, degree)
    companies: list[tuple[str, int]] = field(default_factory=list)  # (name, years)
    total_years: int = 0
    words: int = 0  # the CV's length: generation aims at the length the network draws


def units(text: str) -> list[tuple[int, int]]:
    """(start, end) of every line, cut further at sentence ends and semicolons."""
    spans = []
    for line in re.finditer(r"[^\n]+", text):
        start = line.start()
        for m in re.finditer(r"(?<=[a-z0-9)])\.\s+(?=[A-Z(])|;\s*", line.group(0)):
            before = line.group(0)[: m.start() + 1]
            if any(before.endswith(a + ".") for a in ABBREVIATIONS):
                continue
            spans.append((start, line.start() + m.end()))
            start = line.start() + m.end()
        spans.append((start, line.end()))
    return [(s, e) for s, e in spans if text[s:e].strip()]


def _round_years(months: float) -> int:
    return math.floor(months / 12 + 0.5)


def _month(name: str | None, number: str | None = None) -> int | None:
    if number:
        return int(number) if 1 <= int(number) <= 12 else None
    return month_number(name) if name else None


def time_expressions(text: str, s: int, e: int, as_of: int) -> list[tuple[int, int, int]]:
    """(start, end, years) of each range, 'since' or duration in text[s:e]."""
    chunk, found = text[s:e], []
    if SKILL_LINE.search(chunk):
        return []
    for m in RANGE.finditer(chunk):
        y1 = int(m["y1"])
        y2 = int(m["y2"]) if m["y2"].isdigit() else as_of
        m1, m2 = _month(m["m1"], m["n1"] or m["i1"]), _month(m["m2"], m["n2"] or m["i2"])
        months = (y2 - y1) * 12 + (m2 - m1 + 1 if m1 and m2 else 0)
        if 0 <= months <= 50 * 12:
            found.append((s + m.start(), s + m.end(), max(_round_years(months), 0)))
    for m in SINCE.finditer(chunk):
        found.append((s + m.start(), s + m.end(), max(as_of - int(m["y1"]), 0)))
    for m in DURATION.finditer(chunk):
        if AGE.search(chunk[: m.start()]) or any(a <= s + m.start() < b for a, b, _ in found):
            continue
        n = float(m["n"])
        months = n if m["unit"].lower().startswith("month") else n * 12
        found.append((s + m.start(), s + m.end(), _round_years(months)))
    return sorted(found)


def degree_mentions(chunk: str) -> list[tuple[int, int, int]]:
    """(start, end, level) of degree names, the higher level winning an overlap."""
    found = []
    for level, pattern in DEGREES:
        for m in re.finditer(pattern, chunk):
            if not any(a < m.end() and m.start() < b for a, b, _ in found):
                found.append((m.start(), m.end(), level))
    return sorted(found)


def _strip_region(name: str) -> str:
    words = name.split()
    for n in (3, 2, 1):
        if len(words) > n and " ".join(words[:n]).rstrip(",").title() in REGIONS:
            return " ".join(words[n:])
    return name


def _tidy(name: str) -> str:
    if name.count("(") != name.count(")"):  # 'Nestlé (Milan': the place is not the name
        name = name.split("(")[0]
    name = LEGAL_SUFFIX.sub("", name.strip(" ,.-:|()")).strip(" ,.-")
    return name.title() if name.isupper() and len(name) > 4 else name


def keyword_names(chunk: str) -> list[tuple[int, int, str]]:
    """Capitalised phrases around a university keyword, region prefix dropped."""
    out = []
    for k in KEYWORD.finditer(chunk):
        left = re.search(rf"(?:{NAME_WORD}[ \t]+){{0,5}}$", chunk[: k.start()])
        # 'Computer Science University of Memphis': the field words are the degree's.
        before = strip_field_words(left.group(0)) if left else ""
        # A name that opens with its keyword may go on with its own words first:
        # 'Universidad Politécnica de Madrid', 'Université Paris-Dauphine'.
        own = r"(?:[ \t]+[A-Z][\w'’.&-]*){0,2}" if not before else ""
        right = re.match(
            rf"{own}(?:[ \t]+(?:{CONNECTORS})(?!\w)(?:[ \t]+{NAME_WORD}){{1,4}})?{CAMPUS}",
            chunk[k.end() :],
        )
        start = k.start() - len(before)
        end = k.end() + (len(right.group(0)) if right else 0)
        phrase = chunk[start:end]
        lead = re.match(r"(?:(?:of|and|for|the|at|de|di|&)\s+)+", phrase)
        if lead:
            start, phrase = start + lead.end(), phrase[lead.end() :]
        degrees = degree_mentions(phrase)  # 'MBA from X College', 'Master of Arts X College'
        if degrees:
            rest = strip_field_words(phrase[degrees[-1][1] :].lstrip())
            start, phrase = start + len(phrase) - len(rest), rest
        name = _tidy(_strip_placeholders(_strip_region(phrase.strip())))
        if len(name.split()) >= 2:
            out.append((start, end, name))
    return out


def _university_names(chunk: str, vocab) -> list[tuple[int, int, str]]:
    names = [(a, b, n) for a, b, n in vocab.find(chunk)]
    return names + [
        (a, b, vocab.lookup(n) or n)
        for a, b, n in keyword_names(chunk)
        if not any(a < y and x < b for x, y, _ in names)
    ]


def _universities(text: str, spans, flat: bool = False) -> list[tuple[int, str, int | None, int]]:
    """(position, name, stated level or None, year or 0) per university mention.

    A university line without a degree takes the degree (and years) of the line above
    when that line names a degree and no university ('Master of Arts : Education , 2015'
    / 'University of Michigan')."""
    vocab = load_vocabulary("universities")
    found = []
    above: tuple[list, list] = ([], [])  # the previous line's unused degrees and years
    for s, e in spans:
        chunk = text[s:e]
        if SCHOOL_LINE.search(chunk):
            above = ([], [])
            continue
        degrees = degree_mentions(chunk)
        if flat and not degrees and job_header(chunk):  # 'Research Assistant Duke University - …'
            above = ([], [])
            continue
        names = _university_names(chunk, vocab)
        years = [int(y) for y in re.findall(rf"\b{YEAR}\b", chunk)]
        if not names:
            above = (degrees, years)
            continue
        if not degrees and above[0]:
            degrees = [(-1, -1, above[0][-1][2])]  # before every name on this line
            years = years or above[1]
        above = ([], [])
        used = set()
        for a, b, name in sorted(names):
            before = [d for d in degrees if d[1] <= a and d not in used]
            after = [d for d in degrees if d[0] >= b and d not in used]
            pick = before[-1] if before else (after[0] if after else None)
            if pick:
                used.add(pick)
            found.append((s + a, name, pick[2] if pick else None, max(years, default=0)))
    return found


def _employers(
    text: str, spans, nlp, university_spans, flat: bool = False
) -> list[tuple[int, int, str, int]]:
    """(start, end, name, unit index) of every employer mention."""
    vocab = load_vocabulary("companies")
    headers = [job_header(text[s:e]) if flat else None for s, e in spans]
    # Employers listed in 'company - X' lines, or in a flat CV's job lines: trust those.
    layout = bool(COMPANY_LINE.search(text)) or any(headers)
    # An anonymised CV lost its employers' names: its placeholders are its only employers,
    # and any other name on its job lines is a title ('Executive Chef').
    anonymised = bool(ANONYMISED_EMPLOYER.search(text))
    ranged = [bool(RANGE.search(text[s:e])) and not _education(text[s:e]) for s, e in spans]
    out = []
    docs = nlp.pipe([text[s:e] for s, e in spans]) if nlp else [None] * len(spans)
    for i, ((s, e), doc) in enumerate(zip(spans, docs)):
        chunk = text[s:e]
        if SKILL_LINE.search(chunk):
            continue
        names = [(m.start(), m.end(), GENERIC_COMPANY) for m in ANONYMISED_EMPLOYER.finditer(chunk)]
        if anonymised:
            out += [(s + a, s + b, name, i) for a, b, name in names]
            continue
        company_line = COMPANY_LINE.match(chunk)
        if company_line:
            raw = company_line.group(1)
            name = vocab.lookup(_tidy(raw)) or _tidy(raw)
            names.append((company_line.start(1), company_line.end(1), name))
        if headers[i] and not degree_mentions(chunk):
            a, b, raw = headers[i]
            names.append((a, b, vocab.lookup(_tidy(raw)) or _tidy(raw)))
        if layout:
            out += [(s + a, s + b, name, i) for a, b, name in names]
            continue
        if _education(chunk):
            continue
        # A job's dates may sit on the line above or below its employer ('01/03/2016 –
        # 31/08/2021 Software Developer' / 'Siemens AG, Munich (Germany)').
        beside = (i > 0 and ranged[i - 1]) or (i + 1 < len(spans) and ranged[i + 1])
        employment = any(p.search(chunk) for p in (EMPLOYMENT, RANGE, SINCE, DURATION))
        if employment:  # 'Oracle' in a skills list is a database, not an employer
            names += [n for n in vocab.find(chunk) if not _overlaps(n, names)]
        stated = any(p.search(chunk) for p in STATED_TOTAL)
        if employment and not names and not stated:
            names += _unlisted_employers(chunk, doc)
        place_line = EMPLOYER_AND_PLACE.match(chunk) if beside and not ranged[i] else None
        if place_line and not names and _looks_like_employer(_tidy(place_line["name"]), True):
            names.append(
                (place_line.start("name"), place_line.end("name"), _tidy(place_line["name"]))
            )
        for a, b, name in names:
            if not any(x < s + b and s + a < y for x, y in university_spans):
                out.append((s + a, s + b, name, i))
    return out


def _education(chunk: str) -> bool:
    return bool(EDUCATION_LINE.search(chunk))


def _unlisted_employers(chunk: str, doc) -> list[tuple[int, int, str]]:
    """Employers outside the vocabulary: spaCy ORG entities, else (in a line with a date
    range) the one comma- or bar-separated piece that reads like a name."""
    found = []
    for ent in doc.ents if doc is not None else []:
        name = _tidy(ent.text)
        if ent.label_ == "ORG" and _looks_like_employer(name):
            found.append((ent.start_char, ent.end_char, name))
    if found or not RANGE.search(chunk):
        return found
    for piece in re.finditer(r"[^,|;()]+", chunk):
        name = _tidy(piece.group(0))
        if _looks_like_employer(name) and not RANGE.search(piece.group(0)):
            start = piece.start() + piece.group(0).find(name)
            return [(start, start + len(name), name)]
    return []


def _overlaps(span, others) -> bool:
    return any(a < span[1] and span[0] < b for a, b, *_ in others)


def _looks_like_employer(name: str, acronym_ok: bool = False) -> bool:
    words = [w for w in re.split(r"[\s,/-]+", name) if w]
    if not words or not name[:1].isupper() or KEYWORD.search(name) or degree_mentions(name):
        return False
    if _only_placeholders(name):
        return False
    bare_acronym = len(words) == 1 and name.isupper() and not acronym_ok
    if any(ch.isdigit() for ch in name) or len(words) > 5 or bare_acronym:
        return False  # an unlisted bare acronym is more often a skill ('NLP') than a firm
    return not all(w.lower() in TITLE_WORDS or w.lower() in ("and", "of", "&") for w in words)


def _ranges_lead(text, spans, employers) -> bool:
    """Whether this CV writes a job's dates before its employer ('01/2017 to Current' /
    'Senior Accountant' / 'Company Name － City'), judged by the first date range outside
    education lines: it comes before the first employer mention."""
    first_employer = min((unit for *_, unit in employers), default=None)
    for i, (s, e) in enumerate(spans):
        chunk = text[s:e]
        if RANGE.search(chunk) and not degree_mentions(chunk) and not KEYWORD.search(chunk):
            return first_employer is not None and i < first_employer
    return False


def _years_for(text, spans, employers, as_of) -> dict[int, int]:
    """Employer mention index -> years, by the pairing rule in the module docstring.

    An employer line without a time expression takes the nearest one on the lines after it
    (up to 3, not past another employer's line), or before it when the CV puts dates first.
    """
    years: dict[int, int] = {}
    by_unit: dict[int, list[int]] = {}
    for k, (_, _, _, unit) in enumerate(employers):
        by_unit.setdefault(unit, []).append(k)
    step = -1 if _ranges_lead(text, spans, employers) else 1
    for unit, members in by_unit.items():
        s, e = spans[unit]
        exprs = time_expressions(text, s, e, as_of)
        look = unit + step  # 'company - X' then 'description - … 2014 to 2019' lines
        while (
            not exprs and 0 <= look < len(spans) and look not in by_unit and abs(look - unit) <= 3
        ):
            exprs = time_expressions(text, *spans[look], as_of)
            look += step
        for a, b, n in exprs:
            after = re.match(r"\s*(?:at|with|in|for)\s+", text[b : b + 8])
            owner = next((k for k in members if after and employers[k][0] == b + after.end()), None)
            if owner is None:
                before = [k for k in members if employers[k][1] <= a]
                later = [k for k in members if employers[k][0] >= b]
                owner = before[-1] if before else (later[0] if later else None)
            if owner is not None and owner not in years:
                years[owner] = n
    return years


def stated_total(text: str, spans, employers) -> int | None:
    for s, e in spans:
        chunk = text[s:e]
        if SKILL_LINE.search(chunk):
            continue
        for pattern in STATED_TOTAL:
            m = pattern.search(chunk)
            if m:
                n = m["n"].lower()
                return number_of(n) if n in NUMBER_WORDS[1:] else round(float(n))
        m = WORKED_FOR.search(chunk)
        if m and not any(s <= a < e for a, *_ in employers):
            return int(m["n"])
    return None


def extract(text: str, nlp=None, as_of: int = 2026) -> Extracted:
    flat = is_flat(text)  # scraped without line breaks: its job lines are read as such
    text = reline(text) if flat else text
    spans = units(text)
    unis = _universities(text, spans, flat)
    if unis and all(year for *_, year in unis):
        unis.sort(key=lambda u: (u[3], u[2] if u[2] is not None else -1))
    else:
        unis.sort(key=lambda u: u[0])
    out = Extracted()
    for position, (_, name, level, _) in enumerate(unis):
        degree = LEVELS[level if level is not None else min(position, 2)]
        if (name, degree) not in out.universities:
            out.universities.append((name, degree))
    out.universities = out.universities[-3:]
    university_spans = [(p, p + len(n)) for p, n, *_ in unis]
    employers = _employers(text, spans, nlp, university_spans, flat)
    years = _years_for(text, spans, employers, as_of)
    seen = {}
    for k, (_, _, name, _) in enumerate(employers):
        key = normalise(name) if name != GENERIC_COMPANY else k  # each anonymised job counts
        if key not in seen:
            seen[key] = len(out.companies)
            out.companies.append((name, years.get(k, 0)))
        elif k in years and out.companies[seen[key]][1] == 0:
            out.companies[seen[key]] = (name, years[k])
    total = stated_total(text, spans, employers)
    out.total_years = total if total is not None else sum(y for _, y in out.companies)
    out.companies = out.companies[:3]
    out.words = len(text.split())
    return out
