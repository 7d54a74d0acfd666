"""A shard's task may run longer than Ray Data's 30-minute no-progress watchdog: the jobs
turn it off (a CV run on two cores was stopped by it, its first shard lost)."""

import ray

from jobs.on_ray.session import data_context


def test_the_no_progress_watchdog_is_off_and_bars_as_asked():
    context = ray.data.DataContext.get_current()
    saved = (context.execution_no_progress_timeout_s, context.enable_progress_bars)
    try:
        data_context(progress_bars=False)
        assert context.execution_no_progress_timeout_s == -1
        assert context.enable_progress_bars is False
    finally:
        context.execution_no_progress_timeout_s, context.enable_progress_bars = saved
