"""A name given anew: asked what something is called, the newer name is said, not the first one the words found."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.episode_sample import told


class Model:
    """Answers with the first name the prompt's words say, as the small model did ("Wet Blanket was getting too
    many laughs… She's Second Wind now" was answered "Wet Blanket")."""

    def __init__(self, answer: str) -> None:
        self.answer = answer

    def stream(self, messages, **kw):  # type: ignore[no-untyped-def]
        yield self.answer


JAN, MAR, APR = (datetime(2026, m, 10, 19, tzinfo=UTC) for m in (1, 3, 4))


@pytest.mark.parametrize(("said", "question", "first", "meant"), [
    # the renaming shares no word with the question, only the old name (everyday83's quartet)
    ([(JAN, "I've joined a ukulele group at the library and we call ourselves the Plinky Few."),
      (MAR, "We went for a curry after practice, Dev ordered the hottest thing on the menu."),
      (APR, "We've had a rethink about the name, the Plinky Few sounded daft on the posters, so we're Four Strings "
            "Attached now.")],
     "What's my music group called?", "The Plinky Few.", "Four Strings Attached."),
    # a word of the question's in the renaming
    ([(JAN, "My sister's opened a café on the quay, she's calling it Brew Haha."),
      (APR, "My sister had to change the café's name, a chain in Bristol had it, so it's Quay Grounds now.")],
     "What's my sister's café called?", "Brew Haha.", "Quay Grounds."),
])
def test_a_name_given_anew_in_newer_words_is_said(tmp_path: Path, said: list[tuple[datetime, str]], question: str,
                                                   first: str, meant: str) -> None:
    with told(tmp_path, said, Model(first)) as p:
        ans = p.answer(question, now=datetime(2026, 5, 1, 9, tzinfo=UTC))
        assert ans.text == meant


def test_a_renaming_of_something_else_leaves_the_name(tmp_path: Path) -> None:
    said = [(JAN, "I've joined a ukulele group at the library and we call ourselves the Plinky Few."),
            (APR, "My cousin's renamed his barber shop after the Plinky Few gig, it's Short Back and Sides now.")]
    with told(tmp_path, said, Model("The Plinky Few.")) as p:
        # the renaming names the group, but what it renames is the barber shop: "barber" and "shop" are no words of
        # the question, and the old name it gives is no name the answer said
        ans = p.answer("What's my ukulele group called?", now=datetime(2026, 5, 1, 9, tzinfo=UTC))
        assert ans.text != "Short Back and Sides."
