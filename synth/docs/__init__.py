"""Document kinds: each kind's planning (what to write) lives in a folder of its own;
KINDS maps a config's doc_type to it."""
