"""Typed, validated configuration for every job: one dataclass per job, defaults in one
place, the same checks for YAML and CLI values."""
