"""What `hrsynth cv-experiment` reads, resolved and checked before any work starts.

A new user's corpus brings its own labels. The role list is public: `--roles FILE` (role
→ optional job title) or the schema's role values. From it the experiment writes its own
schema (the given one with that role list) and, when titles are given, a taxonomy folder
with their roles.yaml and a generation config pointing at it, so fit, generate and the
masked rows all read the same roles and titles. Corpus labels are matched to the list
ignoring case; a label outside it stops the run here, before extraction, or with
`--on-out-of-domain clip` leaves its CVs out (counted).
"""

import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

from synth import ConfigError
from synth.config.generate import file_settings, load_config, nested
from synth.io.files import read_yaml
from synth.io.storage import write_text
from synth.kinds.cvs.extract.corpus import CV, read_corpus
from synth.kinds.cvs.roles import read_role_entries, read_roles, role_matcher

# The checkout: default paths (configs/…) are found from anywhere, not only from here.
PROJECT_ROOT = Path(__file__).resolve().parents[1]

ROWS = ("real", "synthetic", "combined", "masked-real", "masked-synthetic", "random")


@dataclass(frozen=True)
class Inputs:
    schema: Path  # the schema fit reads (the experiment's own when --roles is given)
    config: Path  # the generation config generate reads
    taxonomy_dir: str | None  # where generation's titles come from (None: embedded)
    roles: tuple[str, ...]


def existing_file(path: str, flag: str) -> Path:
    """`path` as given (relative to the working directory), else inside the checkout."""
    given = Path(path)
    if given.is_file():
        return given
    if not given.is_absolute() and (PROJECT_ROOT / given).is_file():
        return PROJECT_ROOT / given
    raise ConfigError(
        f"{flag} {path}: file not found (looked in {Path.cwd()} and {PROJECT_ROOT}); check the path"
    )


def parse_rows(text: str) -> set[str]:
    wanted = {r.strip() for r in text.split(",") if r.strip()}
    if wanted == {"all"}:
        return set(ROWS)
    unknown = sorted(wanted - set(ROWS))
    if unknown or not wanted:
        raise ConfigError(
            f"--rows: unknown {unknown or text!r}; use 'all' or some of {', '.join(ROWS)}"
        )
    return wanted


def prepare(args, out: Path) -> Inputs:
    """Resolve and check every input file, write the experiment's own schema/config."""
    existing_file(args.corpus, "--corpus")
    schema_path = existing_file(args.schema, "--schema")
    config_path = existing_file(args.config, "--config")
    schema_doc = read_yaml(schema_path, "--schema")
    role_spec = (
        (schema_doc or {}).get("attributes", {}).get("role")
        if isinstance(schema_doc, dict)
        else None
    )
    if not isinstance(role_spec, dict):
        raise ConfigError(f"--schema {schema_path}: no 'role' attribute; a CV schema declares one")
    load_config(str(config_path))  # every setting checked now, not after extraction
    config_doc = file_settings(str(config_path))
    if config_doc.get("doc_type") != "cv":
        raise ConfigError(f"--config {config_path}: doc_type is not cv; use configs/cvs.yaml")
    if args.roles is None:
        roles = [str(r) for r in role_spec.get("values") or []]
        return Inputs(schema_path, config_path, config_doc.get("taxonomy_dir"), tuple(roles))
    listed = read_roles(existing_file(args.roles, "--roles"))
    schema_doc["attributes"]["role"] = {"type": "categorical", "values": list(listed)}
    own_schema = out / "cv_schema.yaml"
    write_text(str(own_schema), yaml.safe_dump(schema_doc, sort_keys=False, allow_unicode=True))
    taxonomy = out / "taxonomy"
    taxonomy.mkdir(exist_ok=True)
    given = config_doc.get("taxonomy_dir")
    if given and Path(given, "sections.yaml").is_file():
        shutil.copyfile(Path(given, "sections.yaml"), taxonomy / "sections.yaml")
    entries = {r: _entry_yaml(e) for r, e in read_role_entries(args.roles).items()}
    write_text(
        str(taxonomy / "roles.yaml"),
        "# Job titles (and skills, duties) from --roles; a role without a title is written as\n"
        "# default_title(label).\n"
        + yaml.safe_dump(
            {r: e for r, e in entries.items() if e}, sort_keys=False, allow_unicode=True
        ),
    )
    own_config = out / "cvs.yaml"
    write_text(
        str(own_config),
        yaml.safe_dump(
            nested({**config_doc, "taxonomy_dir": str(taxonomy.resolve())}),
            sort_keys=False,
            allow_unicode=True,
        ),
    )
    return Inputs(own_schema, own_config, str(taxonomy.resolve()), tuple(listed))


def _entry_yaml(entry):
    """A role's roles.yaml value: its title alone, or {title, skills, duties}."""
    lists = {k: list(getattr(entry, k)) for k in ("skills", "duties") if getattr(entry, k)}
    return {"title": entry.title, **lists} if lists else entry.title


def corpus_with_roles(args, roles: tuple[str, ...]) -> tuple[list[CV], int]:
    """The corpus with each label spelled as in the role list, and how many CVs were left
    out for a label outside it (only with --on-out-of-domain clip)."""
    matcher = role_matcher(roles)
    cvs = read_corpus(existing_file(args.corpus, "--corpus"))
    unknown = Counter(cv.role for cv in cvs if str(cv.role).casefold() not in matcher)
    where = f"--roles {args.roles}" if args.roles else f"the role values of --schema {args.schema}"
    if unknown and args.on_out_of_domain != "clip":
        names = ", ".join(f"{r!r} ({n})" for r, n in unknown.most_common(8))
        raise ConfigError(
            f"--corpus {args.corpus}: {sum(unknown.values())} CV(s) are labelled with roles "
            f"outside {where} (matched ignoring case): {names}"
            + (" …" if len(unknown) > 8 else "")
            + "; add them there, or pass --on-out-of-domain clip to leave those CVs out"
        )
    kept = [
        CV(cv.text, matcher[str(cv.role).casefold()])
        for cv in cvs
        if str(cv.role).casefold() in matcher
    ]
    if unknown:
        print(f"{sum(unknown.values())} CV(s) left out: their role is outside {where}")
    return kept, sum(unknown.values())


def out_of_range_counts(table: Path, schema: Path) -> dict[str, int]:
    """Per numeric attribute, values of the extracted table outside its bins (the ones
    fit clips by the schema's public rule or --on-out-of-domain clip)."""
    import pandas as pd

    attributes = read_yaml(schema, "--schema")["attributes"]
    frame = pd.read_csv(table)
    counts = {}
    for name, spec in attributes.items():
        if isinstance(spec, dict) and spec.get("type") == "numeric" and name in frame:
            x = pd.to_numeric(frame[spec.get("column", name)], errors="coerce")
            counts[name] = int(((x < spec["bins"][0]) | (x >= spec["bins"][-1])).sum())
    return {k: v for k, v in counts.items() if v}
