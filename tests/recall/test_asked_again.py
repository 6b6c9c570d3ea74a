"""Asked what holds now, an answer drawn from words later words overtake is asked again on the later words alone
(``Pipeline._overtaken``): the second answer is said when it stands on them; with the model down, or a second
answer the later words do not bear out, the first answer stands and the turn goes on."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.episode_sample import told

OLD = datetime(2026, 5, 20, 19, tzinfo=UTC)
LATER = datetime(2026, 6, 3, 19, tzinfo=UTC)
ASKED = datetime(2026, 6, 10, 9, tzinfo=UTC)
SAID = [(OLD, "Board game night at Kofi's, Catan, obviously. It's my favourite game."),
        (LATER, "Honestly, I've gone right off Catan. Wingspan's my game now, Kofi says.")]
Q = "What's my favourite board game?"


class Model:
    """Answers "Catan." from all the words; asked again, says ``again`` (None: the model is down)."""

    def __init__(self, again: str | None) -> None:
        self.again, self.asked_again = again, 0

    def stream(self, messages: Any, **kw: Any) -> Iterator[str]:
        yield "Catan."

    def complete(self, messages: Any, **kw: Any) -> str:
        if "Wingspan" in messages[-1]["content"] and "Board game night" not in messages[-1]["content"]:
            self.asked_again += 1
            if self.again is None:
                raise ConnectionError("model server gone")
            return self.again
        return '{"answers": "yes"}'


@pytest.mark.parametrize(("again", "said"), [("Wingspan.", "Wingspan."),  # stands on the later words
                                             (None, "Catan."),  # the model is down: the first answer stands
                                             ("Ticket to Ride.", "Catan.")])  # not borne out by the later words
def test_an_answer_overtaken_is_asked_again_on_the_later_words(tmp_path: Path, again: str | None,
                                                               said: str) -> None:
    model = Model(again)
    with told(tmp_path, SAID, model) as pipeline:
        ans = pipeline.answer(Q, now=ASKED)
    assert model.asked_again == 1
    assert ans.text == said
