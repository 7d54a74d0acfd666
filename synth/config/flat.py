"""The first release's flat record: its keys, in its order, and where each lives now.

The first release read one flat mapping of settings. Every output still records its
config flat (`_run.json`, the manifest's `config`), and the fingerprint that decides
whether a rerun may resume a folder hashes that record: these tables keep it the same,
so outputs begun before sections existed resume, and old flat files are still read.
"""

# The first release's flat keys, in its order (the order of the record), and where each
# lives now. `pii_audit` was the whole audit block.
FLAT_KEYS = {
    "num_docs": ("run", "num_docs"),
    "seed": ("run", "seed"),
    "labels": ("run", "labels"),
    "countries": ("run", "countries"),
    "taxonomy_dir": ("run", "taxonomy_dir"),
    "dp_model": ("run", "dp_model"),
    "reference_date": ("run", "reference_date"),
    "model": ("generator", "model"),
    "backend": ("generator", "backend"),
    "device": ("generator", "device"),
    "dtype": ("generator", "dtype"),
    "prompt_style": ("generator", "prompt_style"),
    "generation": ("generator", "generation"),
    "batch_size": ("scale", "batch_size"),
    "gpu_batch_size": ("scale", "gpu_batch_size"),
    "shard_size": ("run", "shard_size"),
    "num_actors": ("scale", "num_actors"),
    "threads_per_actor": ("scale", "threads_per_actor"),
    "min_actors": ("scale", "min_actors"),
    "actor_memory_gb": ("scale", "actor_memory_gb"),
    "max_error_share": ("scale", "max_error_share"),
    "doc_type": ("run", "doc_type"),
    "cv_roles": ("cvs", "roles"),
    "cv_attributes": ("cvs", "attributes"),
    "templates": ("tickets", "templates"),
    "value_forms": ("tickets", "value_forms"),
    "traits": ("tickets", "traits"),
    "engine": ("generator", "engine"),
    "pii_audit": ("audit", None),
    "writing_profile": ("tickets", "writing_profile"),
    "label_mix": ("tickets", "label_mix"),
}


# The sections the first release's keys cover; any other section (an installed kind's)
# is recorded as `section.name` after them.
LEGACY_SECTIONS = {section for section, _ in FLAT_KEYS.values()}


def nested_key(flat: str) -> str:
    """'cv_roles' -> 'cvs.roles': how a flat key is spelled in a nested file."""
    section, name = FLAT_KEYS[flat]
    return section if name is None else f"{section}.{name}"


# Settings added after outputs existed, left out of the fingerprint at their default
# so that an output begun before them still resumes.
ADDED_LATER = {
    "backend": "auto",
    "cv_roles": "dp_model",
    "cv_attributes": "dp_model",
    "templates": "classic",
    "value_forms": "canonical",
    "traits": {},
    "pii_audit": {},
    "writing_profile": None,
    "label_mix": "profile",
}
