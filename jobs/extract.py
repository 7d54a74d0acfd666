"""Extract CV attributes from a private CV corpus into the table `hrsynth fit` reads.

    python -m jobs.extract --corpus cvs.csv --output out/cv_table.csv [--min-count 5]
    hrsynth extract --corpus cvs.jsonl --output out/cv_table.csv

The corpus (CSV or JSONL, a text and a role per CV) and the table are private: run this
where the corpus lives. Prints only aggregate counts, never a name or a row.
"""

import datetime as dt
import sys
from pathlib import Path

from jobs.entry import main_for
from synth.config.options import options_from
from synth.config.private_options import ExtractOptions

OPTIONS = ExtractOptions


def run(options) -> dict:
    args = options_from(ExtractOptions, options)
    from jobs.progress import Progress
    from synth.io.storage import write_bytes
    from synth.kinds.cvs.extract.attributes import extract
    from synth.kinds.cvs.extract.corpus import read_corpus
    from synth.kinds.cvs.extract.table import build_table, to_row
    from synth.nlp import load_nlp

    cvs = read_corpus(args.corpus, dedupe=not args.keep_duplicates)
    nlp = load_nlp()
    print(f"{len(cvs)} CVs to read (a line at least every 30 s)", flush=True)
    progress = Progress(
        max(len(cvs), 1), every_s=30, unit="CVs read"
    )  # counts only: never a CV's text
    rows = []
    for cv in cvs:
        rows.append(to_row(cv.role, extract(cv.text, nlp, args.as_of or dt.date.today().year)))
        progress.tally(len(rows), 0)
    progress.close()
    table, stats = build_table(rows, args.min_count)
    out = Path(args.output)
    write_bytes(out, table.to_csv(index=False).encode("utf-8"))
    print(
        f"{stats['cvs']} CVs -> {out}: {stats['with_university']} with a university, "
        f"{stats['with_company']} with an employer; {stats['rare_universities']} university "
        f"and {stats['rare_companies']} employer names seen < {args.min_count} times "
        "generalised"
    )
    return stats


def main(argv=None) -> int:
    return main_for(sys.modules[__name__], "extract", argv)


if __name__ == "__main__":
    sys.exit(main())
