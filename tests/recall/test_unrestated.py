"""Answers start with what was asked (pure): the question said back first is cut, on a stream too."""

from __future__ import annotations

import pytest

from assistant.answer import first_sentence_unrestated, unrestated

CASES = [
    ("Which instruments does Tariq play?", "Tariq plays the oboe and the bass guitar.",
     "The oboe and the bass guitar."),
    ("What breed is Ines's dog?", "Ines's dog is a whippet.", "A whippet."),
    ("What film did Olu watch last Friday?", 'The film Olu watched last Friday was "Arrival".', '"Arrival".'),
    ("Has Keiko ever been to Norway?", "Yes, Keiko has been to Norway.", "Yes."),
    ("Did Bram finish the marathon?", "No, Bram did not finish the marathon. He hurt his knee.",
     "No. He hurt his knee."),
    # left whole: nothing said back, a yes/no that adds something, a reason or a manner, a single word
    ("Where does Olu work?", "At a bakery in Leeds.", "At a bakery in Leeds."),
    ("Did Bram enjoy Lisbon?", "Yes, especially the tiles and the custard tarts.",
     "Yes, especially the tiles and the custard tarts."),
    ("Has Keiko been to Norway?", "Yes, Keiko has been to Norway twice.", "Yes, Keiko has been to Norway twice."),
    ("Why did Keiko move?", "Keiko moved because her company relocated.", "Keiko moved because her company relocated."),
    ("How did Tariq get there?", "Tariq got there by night train.", "Tariq got there by night train."),
    ("Who is Ines?", "Ines.", "Ines."),
]


@pytest.mark.parametrize(("question", "answer", "expected"), CASES, ids=[c[0] for c in CASES])
def test_the_question_said_back_is_cut(question: str, answer: str, expected: str) -> None:
    assert unrestated(answer, question) == expected


@pytest.mark.parametrize("size", [1, 3, 7, 200])
def test_the_stream_gives_the_same_answer_in_any_pieces(size: int) -> None:
    question = "What does Ines grow on her balcony?"
    answer = "Ines grows tomatoes and basil on her balcony. She started last spring."
    pieces = [answer[i:i + size] for i in range(0, len(answer), size)]
    out = "".join(first_sentence_unrestated(iter(pieces), question))
    assert out == "Tomatoes and basil on her balcony. She started last spring."


def test_the_stream_passes_on_pieces_after_the_first_sentence_as_they_come() -> None:
    seen: list[str] = []

    def model() -> object:
        for p in ["Ines grows tomatoes.", " She", " waters", " them daily."]:
            seen.append(p)
            yield p

    out = first_sentence_unrestated(model(), "What does Ines grow?")  # type: ignore[arg-type]
    assert next(out) == "Tomatoes. She" and seen == ["Ines grows tomatoes.", " She"]
    assert next(out) == " waters" and len(seen) == 3  # not held back until the end
