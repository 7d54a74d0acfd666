"""CVs: sections, role titles, public vocabularies and planning."""
