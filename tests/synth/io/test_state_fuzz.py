"""Every JSON state file a job reads between runs (the output lock, the run record, the
privacy account, the detector registry's pointer and cards, writing profiles), whatever
it holds: the job goes on, or stops in one line naming the file; never a trace."""

import json
import os
import socket
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synth import ConfigError
from synth.io.lock import LOCK, output_lock
from synth.io.shards import RUN_FILE, open_output
from tests.kept import beside

FUZZ = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
text = st.text(max_size=10)
json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
    max_leaves=8,
)


def near(keys: dict) -> st.SearchStrategy:
    """Objects shaped like the real file, any field of any type: what a hand edit, an
    older release or another tool leaves."""
    return st.fixed_dictionaries({}, optional={k: v | json_value for k, v in keys.items()})


def content(keys: dict) -> st.SearchStrategy:
    """Bytes of the file: JSON near the real shape, any JSON, or any bytes."""
    as_json = (near(keys) | json_value).map(lambda v: json.dumps(v).encode())
    return as_json | st.binary(max_size=40)


def one_line(error: ConfigError, name: str) -> None:
    assert "\n" not in str(error) and name in str(error), str(error)


LOCK_KEYS = {
    "host": st.just(socket.gethostname()) | text,
    "pid": st.integers(),
    "job": text,
    "since": st.floats() | st.integers(),
}


@FUZZ
@given(data=content(LOCK_KEYS))
def test_any_lock_file_is_taken_over_or_refused_in_one_line(tmp_path, data):
    lock = beside(tmp_path, LOCK, made=True)
    lock.write_bytes(data)
    os.utime(lock, (time.time() - 60, time.time() - 60))  # not one being written now
    try:
        with output_lock(str(tmp_path), "generate"):
            assert json.loads(lock.read_text())["pid"] == os.getpid()
    except ConfigError as e:
        one_line(e, LOCK)
        assert lock.read_bytes() == data  # another's lock is never removed


@pytest.mark.parametrize(
    "holder",
    [
        [1, 2],
        {"host": "h", "pid": "abc", "job": "generate", "since": 1.0},
        {"host": "node-7", "pid": 1, "job": "generate", "since": "yesterday"},
    ],
)
def test_a_lock_of_the_wrong_shape_is_one_line(tmp_path, holder):
    beside(tmp_path, LOCK, made=True).write_text(json.dumps(holder))
    refused = pytest.raises(
        ConfigError, match=r"_lock.json is not the lock a job writes.*delete it"
    )
    with refused, output_lock(str(tmp_path), "generate"):
        pass


def test_a_lock_that_is_a_folder_is_one_line(tmp_path):
    beside(tmp_path, LOCK, made=True).mkdir()
    refused = pytest.raises(ConfigError, match=r"_lock.json is a folder")
    with refused, output_lock(str(tmp_path), "generate"):
        pass
    assert beside(tmp_path, LOCK).is_dir()


RUN_KEYS = {
    "fingerprint": text,
    "run_id": text,
    "config": st.dictionaries(text, json_value, max_size=2),
    "resumed": st.integers(),
}


@FUZZ
@given(data=content(RUN_KEYS))
def test_any_run_record_beside_a_shard_resumes_or_is_one_line(tmp_path, data):
    beside(tmp_path, RUN_FILE, made=True).write_bytes(data)
    (tmp_path / "data").mkdir(exist_ok=True)
    (tmp_path / "data" / "part-00000.parquet").write_bytes(b"x")  # a run that wrote a shard
    try:
        open_output(str(tmp_path), {"seed": 0}, "f" * 64)
    except ConfigError as e:
        # damaged (named), or whole but of another config (its settings named)
        one_line(e, RUN_FILE if "different config" not in str(e) else "use a new --output")


ACCOUNT_KEYS = {
    "spent": st.floats() | st.integers(),
    "entries": st.lists(st.fixed_dictionaries({"epsilon": st.floats() | json_value}), max_size=3),
    "total_budget": st.floats() | st.none(),
}


@FUZZ
@given(data=content(ACCOUNT_KEYS))
def test_any_privacy_account_is_charged_or_refused_in_one_line(tmp_path, data):
    from synth.dp.account import ACCOUNT, charge

    (tmp_path / ACCOUNT).write_bytes(data)
    try:
        account = charge(str(tmp_path), "v1", 1.0, "private.csv", None)
    except ConfigError as e:
        one_line(e, ACCOUNT)
        assert (tmp_path / ACCOUNT).read_bytes() == data  # the record of ε is never lost
    else:
        assert account["spent"] >= 1.0


def test_an_account_whose_spent_is_not_a_number_is_one_line(tmp_path):
    from synth.dp.account import ACCOUNT, read_account

    (tmp_path / ACCOUNT).write_text(json.dumps({"spent": "abc", "entries": []}))
    with pytest.raises(ConfigError, match=r"privacy_account.json is damaged \(spent must be"):
        read_account(str(tmp_path))


@FUZZ
@given(pointer=content({"version": text, "path": text}), card=content({"version": text}))
def test_any_detector_registry_is_used_or_refused_in_one_line(tmp_path, pointer, card):
    from synth.deid import registry

    (tmp_path / "default.json").write_bytes(pointer)
    (tmp_path / "model").mkdir(exist_ok=True)
    (tmp_path / "model" / registry.CARD_FILE).write_bytes(card)
    old = os.environ.get("HRSYNTH_DETECTORS")
    os.environ["HRSYNTH_DETECTORS"] = str(tmp_path)
    try:
        registry.default_detector()
    except ConfigError as e:
        assert "\n" not in str(e)
    finally:  # the session's own registry back (tests/conftest.py sets one)
        if old is None:
            os.environ.pop("HRSYNTH_DETECTORS")
        else:
            os.environ["HRSYNTH_DETECTORS"] = old
    try:
        registry.read_card(tmp_path / "model")
    except ConfigError as e:
        one_line(e, registry.CARD_FILE)


from synth.kinds.tickets.writing_profile import settings as settings_of
from tests.synth.kinds.tickets.test_writing_profile import HEALTH, RAISE, TRAITS


def real_profile() -> dict:
    from tests.synth.kinds.tickets.test_writing_profile import profile

    return profile()


@FUZZ
@given(
    edit=st.sampled_from(
        ["epsilon", "tickets", "private", "ledger", "histograms", "evolution", "greeting", "length"]
    ),
    value=json_value,
)
def test_any_edit_of_a_profile_is_used_or_refused_in_one_line(tmp_path, edit, value):
    from synth.kinds.tickets.writing_profile import load_profile

    doc = real_profile()
    if edit in ("greeting", "length"):
        doc["histograms"][edit] = value
    else:
        doc[edit] = value
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(doc))
    try:
        checked = load_profile(str(path), f"--profile {path}")
    except ConfigError as e:
        one_line(e, "profile.json")
    else:  # accepted: then generate can use it
        settings_of(checked, TRAITS, [HEALTH, RAISE])


@FUZZ
@given(data=st.binary(max_size=60))
def test_any_bytes_as_a_profile_are_one_line(tmp_path, data):
    from synth.kinds.tickets.writing_profile import load_profile

    path = tmp_path / "profile.json"
    path.write_bytes(data)
    with pytest.raises(ConfigError) as error:
        load_profile(str(path), f"--profile {path}")
    one_line(error.value, "profile.json")


def test_a_lock_naming_no_job_is_taken_over_once_its_holder_is_gone(tmp_path):
    """An empty job name once read as 'released meanwhile': the job retried forever."""
    gone = {"host": socket.gethostname(), "pid": 2**22 + 12345, "job": "", "since": 1.0}
    beside(tmp_path, LOCK, made=True).write_text(json.dumps(gone))
    with output_lock(str(tmp_path), "generate"):
        assert json.loads(beside(tmp_path, LOCK).read_text())["pid"] == os.getpid()


def test_a_lock_that_links_to_nothing_is_one_line(tmp_path):
    beside(tmp_path, LOCK, made=True).symlink_to(tmp_path / "gone")
    refused = pytest.raises(ConfigError, match=r"_lock.json is a link to nothing")
    with refused, output_lock(str(tmp_path), "generate"):
        pass
