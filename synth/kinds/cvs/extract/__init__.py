"""The private side of CVs: reading a corpus and extracting the attribute table that
`hrsynth fit` reads. Runs before fit, never during generation."""
