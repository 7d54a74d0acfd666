"""Flat CVs: text scraped from a job board and stored as one block, without line breaks.

The attribute rules (attributes.py) pair names with dates and degrees inside a line or
a sentence. A flat CV runs its sections, jobs and degrees on in one line ("... portal
Education Bachelor of Science in Computer Science University of Memphis - Memphis, TN
2010 to 2012 Skills ..."), so a degree would be paired with a university three entries
away. Three readings make such a CV line-shaped again:
- `reline` cuts a run-on line where a line would have ended: before an inline section
  heading (headings.txt), before a bullet, and after a date range that more words
  follow (in this layout an entry ends with its dates).
- `job_header` reads this layout's job line, "<title> <employer> - <city>, <state>
  <dates>": the employer is the capitalised words after the title's last head word
  (title_heads.txt) and before the place.
- `strip_field_words` drops a degree's field from the front of a university's name
  ("Computer Science University of Memphis").
"""

import re

from synth.kinds.cvs.extract.dates import RANGE
from synth.kinds.cvs.vocabulary import word_list

# A line this long is a run-on block: CVs with line breaks rarely have one (our
# hand-written sets: a few summary sentences), flat CVs are one or a few of them.
RUN_ON_WORDS = 20
TITLE_HEADS = word_list("title_heads.txt")
FIELD_LEAD = word_list("field_words.txt") | {"of", "in"}  # 'of Business Administration'
HEADING = re.compile(
    r"(?<=\S)[ \t]+(?=(?:"
    + "|".join(re.escape(h) for h in sorted(word_list("headings.txt"), key=len, reverse=True))
    + r")(?!\w))"
)
BULLET = re.compile(r"(?<=\S)[ \t]+[*?➢◦·►✓][ \t]+")
PLACE_DASH = re.compile(r"[ \t][-–—][ \t]")
NAME_LINKS = frozenset({"of", "and", "&", "the", "de", "at"})
MAX_EMPLOYER_WORDS = 6


def is_flat(text: str) -> bool:
    """A CV with a run-on line that holds a date range: jobs run on in it."""
    return any(
        len(line.split()) >= RUN_ON_WORDS and RANGE.search(line) for line in text.split("\n")
    )


def reline(text: str) -> str:
    """The text with a line break wherever a run-on line would have had one."""
    return "\n".join(
        _cut(line) if len(line.split()) >= RUN_ON_WORDS else line for line in text.split("\n")
    )


def _cut(line: str) -> str:
    line = BULLET.sub("\n", HEADING.sub("\n", line))
    pieces, last = [], 0
    for m in RANGE.finditer(line):
        after = re.match(r"[ \t]+(?=[A-Z])", line[m.end() :])
        if after:
            pieces.append(line[last : m.end()] + "\n")
            last = m.end() + after.end()
    return "".join(pieces) + line[last:]


def job_header(chunk: str) -> tuple[int, int, str] | None:
    """(start, end, employer) when the chunk is a job line '<title> <employer> [- <place>]
    <dates>'; None for any other chunk (an education line has no title head word)."""
    dates = RANGE.search(chunk)
    if not dates:
        return None
    before = chunk[: dates.start()].rstrip()
    dashes = list(PLACE_DASH.finditer(before))
    if dashes and len(before[dashes[-1].end() :].split()) <= 5:
        before = before[: dashes[-1].start()]
    employer = []
    for word in reversed(list(re.finditer(r"\S+", before))):
        token = word.group(0)
        if token.strip(",.():").lower() in TITLE_HEADS:
            break
        if not (token[:1].isupper() or token in NAME_LINKS) or len(employer) >= MAX_EMPLOYER_WORDS:
            return None
        employer.insert(0, word)
    else:
        return None  # no title before the name: not a job line
    if not employer or employer[0].group(0) in NAME_LINKS:
        return None
    start, end = employer[0].start(), employer[-1].end()
    return start, end, chunk[start:end].strip(" ,")


def strip_field_words(phrase: str) -> str:
    """'Computer Science Georgia ' -> 'Georgia '; 'Electrical Engineering ' -> ''. Only
    words followed by a space go: the text after the phrase is the name's keyword."""
    while (word := re.match(r"(\S+)[ \t]+", phrase)) and word.group(1).lower() in FIELD_LEAD:
        phrase = phrase[word.end() :]
    return phrase
