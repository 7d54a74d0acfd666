"""What a backend returns is checked where it enters (issue 65): a plugin returning one
continuation fewer than asked hung `generate` in a busy loop; a wrong shape or type is
now one line naming the backend, in the rollout and in `hrsynth serve`."""

import re
import threading

import pytest

from synth import ConfigError
from synth.generation.engine import checked_continuations
from synth.generation.params import params_from
from synth.generation.render import render
from tests.synth.generation.test_rollout import docs


class Answers:
    """A backend plugin whose continue_prompts answers with `shape(prompts)`."""

    model_ref = "broken"

    def __init__(self, shape):
        self.shape = shape

    def continue_prompts(self, prompts, params, seed):
        return self.shape(prompts)


def fewer(prompts):
    return [" It is."] * (len(prompts) - 1), [3] * len(prompts), [9] * len(prompts)


BROKEN = {
    "one continuation fewer": (fewer, r"returned 2 texts for 3 prompts"),
    "ints for texts": (lambda p: ([1] * len(p), [3] * len(p), [9] * len(p)), r"not a string"),
    "a bare list": (lambda p: [" It is."] * len(p), r"returned str for its texts, not a list"),
    "a float count": (lambda p: ([" It is."] * len(p), [3.5] * len(p), [9] * len(p)), r"whole"),
    "a negative count": (lambda p: ([" It is."] * len(p), [3] * len(p), [-1] * len(p)), r"whole"),
}


@pytest.mark.parametrize("fault", sorted(BROKEN))
def test_a_wrong_answer_is_one_line_naming_the_backend_not_a_hang(fault):
    shape, message = BROKEN[fault]
    errors = []

    def run():
        try:
            render(docs(3), Answers(shape), params_from(), "plain", 0)
        except ConfigError as e:
            errors.append(str(e))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(30)  # the rollout waited forever for the missing slot
    assert not worker.is_alive(), "the rollout hangs on a wrong answer"
    assert len(errors) == 1 and "\n" not in errors[0]
    assert "backend tests.synth.generation.test_backend_answers.Answers" in errors[0]
    assert re.search(message, errors[0]) and "docs/extending.md" in errors[0]


def test_a_right_answer_passes_as_lists():
    texts, generated, read = checked_continuations(
        Answers(None), ["a", "b"], ((" x", " y"), [1, 2], [3, 4])
    )
    assert (texts, generated, read) == ([" x", " y"], [1, 2], [3, 4])
