"""Live progress of a generation run, for a person at a terminal and for a log.

Two sources feed it: the actors' running tally (documents generated and tokens written,
reported after every engine call, so it moves within a batch) and the shards as they are
written. On a terminal it redraws one bar (documents done/total, tokens/s, ETA) and
prints each written shard above it; otherwise (a log file, `ray job logs`) it prints one
plain line per written shard and, between shards, a line at least every `every_s`
seconds, so a run whose shards take minutes still shows that it is alive.

The ETA is the documents left at the pace so far; before the first batch has finished
there is no pace yet, and the line says so instead of guessing.
"""

import sys
import threading
import time


def eta_text(done: int, total: int, elapsed: float) -> str:
    """hh:mm:ss left at the pace so far, or 'after the first batch' with no pace yet."""
    if done <= 0:
        return "after the first batch"
    left = max(total - done, 0) * elapsed / done
    return time.strftime("%H:%M:%S", time.gmtime(left))


def shard_line(shard: int, done: int, total: int, tokens: int, elapsed: float) -> str:
    """The line for a written shard: documents in written shards, tokens/s, time left."""
    elapsed = max(elapsed, 1e-9)
    return (
        f"shard {shard:05d} written: {done}/{total} documents ({done / total:.0%}), "
        f"{tokens / elapsed:.0f} tokens/s, {elapsed:.0f} s elapsed, "
        f"ETA {eta_text(done, total, elapsed)}"
    )


def tally_line(done: int, total: int, tokens: int, elapsed: float) -> str:
    """The line between shards: documents generated so far (some not yet in a shard)."""
    elapsed = max(elapsed, 1e-9)
    done = min(done, total)  # a retried batch is counted again by the actors' tally
    return (
        f"progress: {done}/{total} documents generated ({done / total:.0%}), "
        f"{tokens / elapsed:.0f} tokens/s, {elapsed:.0f} s elapsed, "
        f"ETA {eta_text(done, total, elapsed)}"
    )


def bar_text(done: int, total: int, tokens: int, elapsed: float, width: int = 30) -> str:
    elapsed = max(elapsed, 1e-9)
    done = min(done, total)
    filled = round(width * done / total)
    return (
        f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} documents  "
        f"{tokens / elapsed:.0f} tokens/s  ETA {eta_text(done, total, elapsed)}"
    )


class Progress:
    """What the driver shows while the actors work; `tally` and `shard_written` may be
    called from different threads."""

    def __init__(self, total: int, every_s: float = 30.0, stream=None, clock=time.monotonic):
        self.total, self.every_s, self.clock = total, every_s, clock
        self.stream = stream or sys.stdout
        self.on_terminal = self.stream.isatty()
        self.started = self.last_line = clock()
        self.generated = self.tokens = self.written = self.written_tokens = 0
        self.lock = threading.Lock()

    @property
    def poll_s(self) -> float:
        """How often the tally is worth reading: a bar moves every second."""
        return 1.0 if self.on_terminal else min(self.every_s, 5.0)

    def tally(self, generated: int, tokens: int) -> None:
        with self.lock:
            self.generated, self.tokens = generated, max(tokens, self.written_tokens)
            elapsed = self.clock() - self.started
            if self.on_terminal:
                self._draw_bar(elapsed)
            elif self.clock() - self.last_line >= self.every_s:
                self._print(tally_line(self.generated, self.total, self.tokens, elapsed))

    def shard_written(self, shard: int, rows: int, tokens: int) -> None:
        with self.lock:
            self.written += rows
            self.written_tokens += tokens
            self.tokens = max(self.tokens, self.written_tokens)
            self.generated = max(self.generated, self.written)
            elapsed = self.clock() - self.started
            line = shard_line(shard, self.written, self.total, self.written_tokens, elapsed)
            if self.on_terminal:
                self.stream.write("\r\033[K")
            self._print(line)
            if self.on_terminal:
                self._draw_bar(elapsed)

    def close(self) -> None:
        if self.on_terminal:
            self.stream.write("\n")
            self.stream.flush()

    def _print(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()
        self.last_line = self.clock()

    def _draw_bar(self, elapsed: float) -> None:
        text = bar_text(self.generated, self.total, self.tokens, elapsed)
        self.stream.write("\r\033[K" + text)
        self.stream.flush()
