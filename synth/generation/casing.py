"""Writing habits applied to the finished text: all in lower case, no full stop at the
end of the message. A writing profile asks for them (synth/style/apply.py); spans keep
their words, and an offset after a removed character moves back by one."""


def lower_case(text: str) -> str:
    """The text in lower case, character by character where lowering keeps the length
    (the Turkish dotted İ would grow): every span's offsets stay valid."""
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def bare_end(text: str, entities: list[dict], closing: str) -> tuple[str, list[dict]]:
    """The message's last '.', '!' or '?' (before the sign-off `closing`) removed, unless
    a span ends on it; spans after it move back by one."""
    message_end = len(text) - len(closing) if closing and text.endswith(closing) else len(text)
    end = len(text[:message_end].rstrip())
    if end == 0 or text[end - 1] not in ".!?" or any(e["end"] == end for e in entities):
        return text, entities
    cut = end - 1
    moved = [
        {**e, "start": e["start"] - (e["start"] > cut), "end": e["end"] - (e["end"] > cut)}
        for e in entities
    ]
    return text[:cut] + text[end:], moved
