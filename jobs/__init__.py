"""Job entry points: `python -m jobs.fit|generate|demo`, and the `hrsynth` CLI."""
