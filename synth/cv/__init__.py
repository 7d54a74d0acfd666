"""CVs, the second document kind: corpus reading, attribute extraction, vocabularies."""
