"""Job entry points, each `python -m jobs.NAME` and a subcommand of the `hrsynth` CLI
(cli.py): fit, extract, profile, evolve, generate, evaluate, refresh, push, serve,
deidentify, detector, cv-experiment and demo; entry.py turns a ConfigError into one line
and exit status 2, progress.py draws the bar, eval_tasks.py holds evaluate's tasks,
on_ray/ the Ray actors and trainers."""
