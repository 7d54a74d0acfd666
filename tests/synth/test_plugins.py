"""Installed registrations join hrsynth's own, and may not replace one."""

import pytest

from synth import ConfigError, plugins


def test_installed_names_join_and_may_not_take_a_builtin(monkeypatch):
    monkeypatch.setattr(plugins, "installed", lambda group: {"echo": "echo_backend"})
    assert plugins.registry("backends", {"hf": "x"}) == {"hf": "x", "echo": "echo_backend"}
    with pytest.raises(ConfigError, match=r"registers backends \['echo'\], which hrsynth has"):
        plugins.registry("backends", {"echo": "synth.generation.hf_engine"})
