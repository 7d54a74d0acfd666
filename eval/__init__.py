"""Evaluation (issue 4): not implemented yet."""
