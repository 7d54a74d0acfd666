"""A job as a list of steps, each an extension point like the others (datatrove's
`PipelineStep` is the model).

A step takes a batch of documents and returns one. It declares what it needs (`NEEDS`,
columns a step before it gives, or the input's) and what it gives (`GIVES`), and counts
what it did (`Batch.count`); the counts reach the run's manifest. `deidentify` is read →
display order → analyze → anonymize → explain → write (synth.deid.pipeline,
synth.deid.writing); `--explain` is a step that is there or not. `generate` is plan →
render → audit → write (synth.shard_writer), the audit reading the text with the
analyze step. One Ray actor runs either list over a block of shards
(jobs/on_ray/steps_actor.py). A user's step is a class
an installed package registers under `hrsynth.steps` (docs/extending.md): `AFTER` names
the step it follows, and `--step NAME` puts it there, its `--step-option`s given to its
constructor. It may add columns, change texts or leave documents out (`Batch.keep`);
whatever it leaves out is counted, never lost in silence.
"""

from collections import Counter
from dataclasses import dataclass, field

from synth import ConfigError


@dataclass
class Batch:
    """Documents on their way through the steps: columns of one value per document, the
    counts of what the steps did (`step: what` -> how many), and what they learned of
    each shard (`shards`: number -> what its footer says: a plan's counts, an audit's)."""

    columns: dict[str, list]
    counts: Counter = field(default_factory=Counter)
    shards: dict = field(default_factory=dict)

    @classmethod
    def of_table(cls, table) -> "Batch":
        """A batch of an Arrow table's columns (a block a job's read made)."""
        return cls({name: table.column(name).to_pylist() for name in table.column_names})

    def __len__(self) -> int:
        return len(next(iter(self.columns.values()), []))

    def __getitem__(self, name: str) -> list:
        return self.columns[name]

    def __setitem__(self, name: str, values: list) -> None:
        values = list(values)
        if self.columns and len(values) != len(self):
            raise ValueError(f"column {name!r}: {len(values)} values for {len(self)} documents")
        self.columns[name] = values

    def keep(self, wanted: list[bool], step: str, why: str = "documents left out") -> "Batch":
        """The documents `wanted` marks, in order; the others counted under `step`."""
        wanted = list(wanted)
        left = len(wanted) - sum(map(bool, wanted))
        if left:
            self.count(step, why, left)
        kept = {name: [v for v, w in zip(vs, wanted) if w] for name, vs in self.columns.items()}
        return Batch(kept, self.counts, self.shards)

    def count(self, step: str, what: str, n: int = 1) -> None:
        self.counts[f"{step}: {what}"] += n

    def about(self, shard: int, **found) -> None:
        """Add `found` to what the batch knows of `shard` (its footer)."""
        self.shards[shard] = {**self.shards.get(shard, {}), **found}

    def one(self, index: int) -> "Batch":
        """The document at `index` alone, with counts of its own."""
        return Batch({name: [values[index]] for name, values in self.columns.items()})


class Step:
    """One stage of a job: `run(batch)` returns the batch the next step reads."""

    NAME = ""
    NEEDS: tuple[str, ...] = ()
    GIVES: tuple[str, ...] = ()
    AFTER: str | None = None  # a user's step: the name of the step it follows

    def run(self, batch: Batch) -> Batch:
        raise NotImplementedError


def run_steps(steps: list, batch: Batch) -> Batch:
    """`batch` through each step in turn."""
    for step in steps:
        batch = step.run(batch)
    return batch


def step_name(step) -> str:
    return getattr(step, "NAME", "") or type(step).__name__


def placed(steps: list, added: list, job: str, first: str = "read") -> list:
    """`steps` with each of `added` after the step its AFTER names (`first`: the job's
    read, done before `steps`), each after those placed before it at the same place."""
    out = list(steps)
    for step in added:
        names = [first] + [step_name(s) for s in out]
        after = getattr(step, "AFTER", None)
        if after not in names:
            raise ConfigError(
                f"--step {step_name(step)}: AFTER is {after!r}, not a step of {job}; it "
                f"takes one of {', '.join(names)}"
            )
        at = names.index(after)
        while at < len(out) and any(out[at] is a for a in added):
            at += 1
        out.insert(at, step)
    return out


def check_order(steps: list, given: tuple[str, ...], job: str) -> None:
    """Each step's NEEDS given by the input (`given`) or a step before it: a step placed
    too early is one line before any work, not a KeyError inside an actor."""
    have = set(given)
    for step in steps:
        missing = [name for name in getattr(step, "NEEDS", ()) if name not in have]
        if missing:
            raise ConfigError(
                f"step {step_name(step)!r} of {job} needs {', '.join(missing)}, which no "
                f"step before it gives (it has {', '.join(sorted(have))}); set its AFTER "
                "to a later step"
            )
        have |= set(getattr(step, "GIVES", ()))


# --- a user's steps: installed packages' `hrsynth.steps` entry points ----------------


def installed_step(name: str) -> type:
    """The class an installed package registers as step `name`, checked to have `run`
    and `AFTER`, seen through the plugin seam (its errors are one line naming it)."""
    from synth import plugins

    if name not in plugins.installed("steps"):
        known = ", ".join(plugins.installed("steps")) or "none is installed"
        raise ConfigError(
            f"--step {name!r}: no installed package registers it ({known}); a step is a "
            'class under [project.entry-points."hrsynth.steps"] (docs/extending.md)'
        )
    found = plugins.load("steps", name, plugins.installed("steps")[name], ("run", "AFTER"))
    return plugins.guard(found, "steps", name)


def user_steps(names: list[str] | None, options: str | None) -> list:
    """Each named step made with `--step-option KEY=VALUE,…` (strings) as its keyword
    arguments; a step that refuses them says so in one line."""
    from synth.typed import key_values

    given = key_values(options, "--step-option", "min_words=5")
    return [installed_step(name)(**given) for name in names or []]


def help_names() -> list[str]:
    """Every --step name for --help, a broken installed one marked (never fails)."""
    from synth import plugins

    return plugins.help_names("steps", {}, installed_step)
