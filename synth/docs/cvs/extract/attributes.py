"""Attributes of one CV: universities with degrees, employers with years, total years.

Rules (README, "CV extraction"), in the order they run:
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
  The paper dropped every number ≥ 10 to avoid ages; context does that job here, so
  12 years of experience is kept.
- Total years: a stated total ('8 years of experience', 'total experience of 8
  years', 'worked in sales for 10 years' with no employer in the sentence), else the
  sum over employers.
"""

import math
import re
from dataclasses import dataclass, field

from synth.docs.cvs.vocabulary import CV_DATA, load_vocabulary, normalise

LEVELS = ("Bachelor's", "Master's", "PhD")
MONTHS = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
YEAR = r"(?:19|20)\d{2}"
OPEN_END = r"present|till date|till now|current|now|date|today"
RANGE = re.compile(
    rf"(?:\d{{1,2}}(?:st|nd|rd|th)?[\s-]*)?(?:(?P<m1>{MONTHS})[\s,-]*)?(?P<y1>{YEAR})"
    rf"\s*(?:-|–|—|to|till|until)\s*(?:\d{{1,2}}(?:st|nd|rd|th)?\s+)?(?:(?P<m2>{MONTHS})"
    rf"[\s,-]*)?(?P<y2>{YEAR}|{OPEN_END})",
    re.IGNORECASE,
)
SINCE = re.compile(rf"\bsince\s+(?:{MONTHS}\s+)?(?P<y1>{YEAR})", re.IGNORECASE)
DURATION = re.compile(
    r"(?<![\w.])(?P<n>\d{1,2}(?:\.\d)?)\s*\+?\s*(?P<unit>years?|yrs?|months?)"
    r"(?!\s+old)\b",
    re.IGNORECASE,
)
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
STATED_TOTAL = [
    re.compile(
        r"(?P<n>\d{1,2}(?:\.\d)?)\s*\+?\s*(?:years?|yrs?)(?:'s)?\s+(?:of\s+)?(?:total\s+"
        r"|overall\s+|work\s+|professional\s+|industry\s+|relevant\s+)?(?:experience|"
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
    r"Vidyapeeth|Academy|Universit[aéà]t?|Politecnico)\b",
    re.IGNORECASE,
)
NAME_WORD = r"(?:[A-Z][\w'’.&-]*|&|of|and|for|the|de|di|at)"
ABBREVIATIONS = ("Dr", "Mr", "Mrs", "Ms", "Jr", "Sr", "St", "Pvt", "Ltd", "Co", "No", "Inc")
LEGAL_SUFFIX = re.compile(
    r"[\s,.]*\b(?:pvt\.?|private|ltd\.?|limited|inc\.?|llp|corp\.?)"
    r"(?:[\s.]+(?:ltd\.?|limited))?\.?\s*$",
    re.IGNORECASE,
)


def _words_file(name: str) -> frozenset[str]:
    lines = (CV_DATA / name).read_text(encoding="utf-8").splitlines()
    return frozenset(s.strip() for s in lines if s.strip() and not s.startswith("#"))


REGIONS = _words_file("regions.txt")
TITLE_WORDS = _words_file("title_words.txt")


@dataclass
class Extracted:
    universities: list[tuple[str, str]] = field(default_factory=list)  # (name, degree)
    companies: list[tuple[str, int]] = field(default_factory=list)  # (name, years)
    total_years: int = 0


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


def _month(name: str | None) -> int | None:
    if not name:
        return None
    return [
        "jan",
        "feb",
        "mar",
        "apr",
        "may",
        "jun",
        "jul",
        "aug",
        "sep",
        "oct",
        "nov",
        "dec",
    ].index(name[:3].lower()) + 1


def time_expressions(text: str, s: int, e: int, as_of: int) -> list[tuple[int, int, int]]:
    """(start, end, years) of each range, 'since' or duration in text[s:e]."""
    chunk, found = text[s:e], []
    if SKILL_LINE.search(chunk):
        return []
    for m in RANGE.finditer(chunk):
        y1 = int(m["y1"])
        y2 = int(m["y2"]) if m["y2"].isdigit() else as_of
        m1, m2 = _month(m["m1"]), _month(m["m2"])
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
    name = LEGAL_SUFFIX.sub("", name.strip(" ,.-:|()")).strip(" ,.-")
    return name.title() if name.isupper() and len(name) > 4 else name


def keyword_names(chunk: str) -> list[tuple[int, int, str]]:
    """Capitalised phrases around a university keyword, region prefix dropped."""
    out = []
    for k in KEYWORD.finditer(chunk):
        left = re.search(rf"(?:{NAME_WORD}[ \t]+){{0,5}}$", chunk[: k.start()])
        right = re.match(
            rf"(?:[ \t]+(?:of|for|and|&|de|di|at)(?:[ \t]+{NAME_WORD}){{1,4}})?", chunk[k.end() :]
        )
        start = k.start() - len(left.group(0)) if left else k.start()
        end = k.end() + (len(right.group(0)) if right else 0)
        phrase = chunk[start:end]
        lead = re.match(r"(?:(?:of|and|for|the|at|de|di|&)\s+)+", phrase)
        if lead:
            start, phrase = start + lead.end(), phrase[lead.end() :]
        for level_start, level_end, _ in degree_mentions(phrase):  # 'MBA from X College'
            start, phrase = start + level_end, phrase[level_end:]
        name = _tidy(_strip_region(phrase.strip()))
        if len(name.split()) >= 2:
            out.append((start, end, name))
    return out


def _universities(text: str, spans) -> list[tuple[int, str, int | None, int]]:
    """(position, name, stated level or None, year or 0) per university mention."""
    vocab = load_vocabulary("universities")
    found = []
    for s, e in spans:
        chunk = text[s:e]
        if SCHOOL_LINE.search(chunk):
            continue
        names = [(a, b, n) for a, b, n in vocab.find(chunk)]
        names += [
            (a, b, vocab.lookup(n) or n)
            for a, b, n in keyword_names(chunk)
            if not any(a < y and x < b for x, y, _ in names)
        ]
        if not names:
            continue
        degrees = degree_mentions(chunk)
        years = [int(y) for y in re.findall(rf"\b{YEAR}\b", chunk)]
        used = set()
        for a, b, name in sorted(names):
            before = [d for d in degrees if d[1] <= a and d not in used]
            after = [d for d in degrees if d[0] >= b and d not in used]
            pick = before[-1] if before else (after[0] if after else None)
            if pick:
                used.add(pick)
            found.append((s + a, name, pick[2] if pick else None, max(years, default=0)))
    return found


def _employers(text: str, spans, nlp, university_spans) -> list[tuple[int, int, str, int]]:
    """(start, end, name, unit index) of every employer mention."""
    vocab = load_vocabulary("companies")
    layout = bool(COMPANY_LINE.search(text))
    out = []
    docs = nlp.pipe([text[s:e] for s, e in spans]) if nlp else [None] * len(spans)
    for i, ((s, e), doc) in enumerate(zip(spans, docs)):
        chunk = text[s:e]
        if SKILL_LINE.search(chunk):
            continue
        names = []
        company_line = COMPANY_LINE.match(chunk)
        if company_line:
            raw = company_line.group(1)
            name = vocab.lookup(_tidy(raw)) or _tidy(raw)
            names.append((company_line.start(1), company_line.end(1), name))
        if layout:  # employers are listed in 'company - X' lines: trust those alone
            out += [(s + a, s + b, name, i) for a, b, name in names]
            continue
        employment = any(p.search(chunk) for p in (EMPLOYMENT, RANGE, SINCE, DURATION))
        if employment:  # 'Oracle' in a skills list is a database, not an employer
            names += [n for n in vocab.find(chunk) if not _overlaps(n, names)]
        stated = any(p.search(chunk) for p in STATED_TOTAL)
        if employment and not names and not stated:
            names += _unlisted_employers(chunk, doc)
        for a, b, name in names:
            if not any(x < s + b and s + a < y for x, y in university_spans):
                out.append((s + a, s + b, name, i))
    return out


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


def _looks_like_employer(name: str) -> bool:
    words = [w for w in re.split(r"[\s,/-]+", name) if w]
    if not words or not name[:1].isupper() or KEYWORD.search(name) or degree_mentions(name):
        return False
    if any(ch.isdigit() for ch in name) or len(words) > 5 or (len(words) == 1 and name.isupper()):
        return False  # an unlisted bare acronym is more often a skill ('NLP') than a firm
    return not all(w.lower() in TITLE_WORDS or w.lower() in ("and", "of", "&") for w in words)


def _years_for(text, spans, employers, as_of) -> dict[int, int]:
    """Employer mention index -> years, by the pairing rule in the module docstring."""
    years: dict[int, int] = {}
    by_unit: dict[int, list[int]] = {}
    for k, (_, _, _, unit) in enumerate(employers):
        by_unit.setdefault(unit, []).append(k)
    for unit, members in by_unit.items():
        s, e = spans[unit]
        exprs = time_expressions(text, s, e, as_of)
        look = unit + 1  # 'company - X' then 'description - … 2014 to 2019' lines
        while not exprs and look < len(spans) and look not in by_unit and look <= unit + 3:
            exprs = time_expressions(text, *spans[look], as_of)
            look += 1
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
                return round(float(m["n"]))
        m = WORKED_FOR.search(chunk)
        if m and not any(s <= a < e for a, *_ in employers):
            return int(m["n"])
    return None


def extract(text: str, nlp=None, as_of: int = 2026) -> Extracted:
    spans = units(text)
    unis = _universities(text, spans)
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
    employers = _employers(text, spans, nlp, university_spans)
    years = _years_for(text, spans, employers, as_of)
    seen = {}
    for k, (_, _, name, _) in enumerate(employers):
        key = normalise(name)
        if key not in seen:
            seen[key] = len(out.companies)
            out.companies.append((name, years.get(k, 0)))
        elif k in years and out.companies[seen[key]][1] == 0:
            out.companies[seen[key]] = (name, years[k])
    total = stated_total(text, spans, employers)
    out.total_years = total if total is not None else sum(y for _, y in out.companies)
    out.companies = out.companies[:3]
    return out
