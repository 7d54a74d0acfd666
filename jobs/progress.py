"""Live progress of a generation run, for a person at a terminal and for a log.

Two sources feed it: the actors' running tally (tokens written, reported after every
engine call, and each document as its last slot is written, so both move within a
batch) and the shards as they are written. On a terminal it redraws one bar (documents
done/total, tokens/s, ETA) and prints each written shard above it; otherwise (a log
file, `ray job logs`) it prints one plain line per written shard and, between shards, a
line at least every `every_s` seconds, so a run whose shards take minutes still shows
that it is alive.

The ETA is the documents left at the pace measured when the last document finished,
counted down since: the documents of a batch finish close together near its end (its
slots are written round by round), and the pace measured now would climb between those
bursts before it drops. Before the first document has finished there is no document
pace yet: given the tokens the run's plan is expected to write (`planned_tokens`), the
ETA is the tokens left at the tokens/s so far, marked "from tokens" (a batch of long CVs
takes minutes to finish its first document); without them the line says it waits for
the first document.
"""

import sys
import threading
import time


def seconds_left(done: int, total: int, done_at: float, now: float) -> float | None:
    """Seconds left at the pace of `done` documents in `done_at` seconds, counted down
    since then; None before any document is done."""
    if done <= 0:
        return None
    return max(max(total - done, 0) * done_at / done - (now - done_at), 0.0)


def tokens_left_s(tokens: int, planned: int | None, elapsed: float) -> float | None:
    """Seconds left for the planned tokens at the tokens/s so far; None without either,
    and None once the run has written more than planned (retries and long slots: 8 long
    CVs planned about 9,700 tokens and wrote 11,561), where no estimate is honest."""
    if not planned or tokens <= 0 or elapsed <= 0 or tokens >= planned:
        return None
    return (planned - tokens) * elapsed / tokens


def eta_text(left_s: float | None, from_tokens: bool = False) -> str:
    if left_s is None:
        return "past the planned tokens" if from_tokens else "after the first document"
    if from_tokens:
        return eta_text(left_s) + " (from tokens)"
    hours, rest = divmod(int(left_s), 3600)
    return f"{hours:02d}:{rest // 60:02d}:{rest % 60:02d}"  # 25 h is 25:00:00, not 01:00:00


def _rate(tokens: int, elapsed: float) -> str:
    """'130 tokens/s, ' for a job that counts tokens (generation), '' for one that does not."""
    return f"{tokens / elapsed:.0f} tokens/s, " if tokens else ""


def shard_line(
    shard: int, done: int, total: int, tokens: int, elapsed: float, left_s: float | None
) -> str:
    """The line for a written shard: documents in written shards, tokens/s (all the
    pool has written, in shards or not), time left."""
    elapsed = max(elapsed, 1e-9)
    return (
        f"shard {shard:05d} written: {done}/{total} documents ({done / total:.0%}), "
        f"{_rate(tokens, elapsed)}{elapsed:.0f} s elapsed, ETA {eta_text(left_s)}"
    )


def tally_line(
    done: int,
    total: int,
    tokens: int,
    elapsed: float,
    left_s: float | None,
    from_tokens: bool = False,
    unit: str = "documents generated",
) -> str:
    """The line between shards: documents generated so far (some not yet in a shard) and
    the tokens written."""
    elapsed = max(elapsed, 1e-9)
    written = f"{tokens} tokens, " if tokens else ""
    return (
        f"progress: {done}/{total} {unit} ({done / total:.0%}), {written}"
        f"{_rate(tokens, elapsed)}{elapsed:.0f} s elapsed, ETA {eta_text(left_s, from_tokens)}"
    )


def bar_text(
    done: int,
    total: int,
    tokens: int,
    elapsed: float,
    left_s: float | None,
    width: int = 30,
    from_tokens: bool = False,
) -> str:
    elapsed = max(elapsed, 1e-9)
    filled = round(width * done / total)
    return (
        f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} documents  "
        f"{tokens / elapsed:.0f} tokens/s  ETA {eta_text(left_s, from_tokens)}"
    )


class Progress:
    """What the driver shows while the actors work; `tally` and `shard_written` may be
    called from different threads."""

    def __init__(
        self,
        total: int,
        every_s: float = 30.0,
        stream=None,
        clock=time.monotonic,
        planned_tokens: int | None = None,
        unit: str = "documents generated",
    ):
        self.total, self.every_s, self.clock = total, every_s, clock
        self.planned_tokens, self.unit = planned_tokens, unit
        self.stream = stream or sys.stdout
        self.on_terminal = self.stream.isatty()
        self.started = self.last_line = clock()
        self.generated = self.tokens = self.written = self.written_tokens = 0
        self.generated_at = 0.0  # seconds into the run when `generated` last grew
        self.lock = threading.Lock()

    @property
    def poll_s(self) -> float:
        """How often the tally is worth reading: a bar moves every second."""
        return 1.0 if self.on_terminal else min(self.every_s, 5.0)

    def tally(self, generated: int, tokens: int) -> None:
        with self.lock:
            elapsed = self.clock() - self.started
            self._generated(generated, elapsed)
            self.tokens = max(tokens, self.written_tokens)
            if self.on_terminal:
                self._draw_bar(elapsed)
            elif self.clock() - self.last_line >= self.every_s:
                left, by_tokens = self._eta(elapsed)
                self._print(
                    tally_line(
                        self.generated, self.total, self.tokens, elapsed, left, by_tokens, self.unit
                    )
                )

    def shard_written(self, shard: int, rows: int, tokens: int) -> None:
        with self.lock:
            elapsed = self.clock() - self.started
            self.written += rows
            self.written_tokens += tokens
            self.tokens = max(self.tokens, self.written_tokens)
            self._generated(self.written, elapsed)
            line = shard_line(
                shard,
                self.written,
                self.total,
                self.tokens,
                elapsed,
                self._left_s(elapsed),
            )
            if self.on_terminal:
                self.stream.write("\r\033[K")
            self._print(line)
            if self.on_terminal:
                self._draw_bar(elapsed)

    def close(self) -> None:
        if self.on_terminal:
            self.stream.write("\n")
            self.stream.flush()

    def _generated(self, generated: int, elapsed: float) -> None:
        # A batch retried after its actor died is counted again by the actors' tally.
        generated = min(generated, self.total)
        if generated > self.generated:
            self.generated, self.generated_at = generated, elapsed

    def _left_s(self, elapsed: float) -> float | None:
        return seconds_left(self.generated, self.total, self.generated_at, elapsed)

    def _eta(self, elapsed: float) -> tuple[float | None, bool]:
        """(seconds left, whether from tokens): from documents once one is done."""
        if self.generated == 0:
            left = tokens_left_s(self.tokens, self.planned_tokens, elapsed)
            past_plan = bool(self.planned_tokens) and self.tokens >= self.planned_tokens
            if left is not None or past_plan:
                return left, True
        return self._left_s(elapsed), False

    def _print(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()
        self.last_line = self.clock()

    def _draw_bar(self, elapsed: float) -> None:
        left, by_tokens = self._eta(elapsed)
        text = bar_text(
            self.generated, self.total, self.tokens, elapsed, left, from_tokens=by_tokens
        )
        self.stream.write("\r\033[K" + text)
        self.stream.flush()
