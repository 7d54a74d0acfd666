"""Evaluation: test sets, metrics, the task-specific pieces, report, history, privacy.

No Ray here; `jobs/evaluate.py` and `jobs/on_ray/training.py` put these on Ray Data and Ray Train.
"""
