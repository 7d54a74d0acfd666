"""What the scripted test engines share: the engine seam's name and chat opening
(synth.generation.engine.Engine), with role tags that stay readable in prompts."""

from synth.generation.engine import EngineBase


class ScriptedChat(EngineBase):
    model_ref = "scripted"

    def chat_prompt(self, messages):
        return "".join(f"<{m['role']}>{m['content']}" for m in messages) + "<assistant>"
