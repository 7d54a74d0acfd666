"""De-identification of real HR documents: find personal data, then tag it, replace it with
consistent surrogates, or have a language model rewrite the document.

- `types`: the personal-data types (synth/data/deid/types.yaml) and what each detector's
  labels mean in them.
- `spans`: a detected span, overlap resolution, spans from BIO word tags.
- `detectors`: Presidio's analyzer (with recognizers for HR text), the BIO NER model that
  `hrsynth evaluate` trains on synthetic tickets.
- `surrogates`: consistent, type- and locale-preserving fakes for one document.
- `methods`: tag and surrogate; a document in, the shareable text and its key out.
- `privacy`: the resume de-identification study's privacy score (docs/references.md).
- `gold`: the personal-data spans a synthetic ticket carries by construction.

This package reads no Ray; jobs/deidentify.py runs it over a corpus on an actor pool.
"""
