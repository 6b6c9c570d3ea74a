"""The streaming sentence splitter and markdown cleanup used before text-to-speech."""

from __future__ import annotations

import pytest

from audio.sentences import SentenceSplitter, clean_for_speech, find_sentence_end, split_sentences


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("Hello there. How are you?", ["Hello there.", "How are you?"]),
        ("Dr. Smith is in. Call him!", ["Dr. Smith is in.", "Call him!"]),
        ("It costs 3.5 dollars. Cheap.", ["It costs 3.5 dollars.", "Cheap."]),
        (
            "Mrs. Patel met Mr. Okafor at 9 a.m. on Monday.",
            ["Mrs. Patel met Mr. Okafor at 9 a.m. on Monday."],
        ),
        ("See e.g. the notes. Done.", ["See e.g. the notes.", "Done."]),
        ("J. R. R. Tolkien wrote it. Really?! Yes.", ["J. R. R. Tolkien wrote it.", "Really?!", "Yes."]),
        ('He said "stop." Then left.', ['He said "stop."', "Then left."]),
        ("Visit www.example.com today. Ok.", ["Visit www.example.com today.", "Ok."]),
        ("Wait... what? No.", ["Wait...", "what?", "No."]),
        ("Groceries:\n1. Milk\n2. Eggs", ["Groceries:", "1. Milk", "2. Eggs"]),
        ("approx. five people came.", ["approx. five people came."]),
        ("I went to St. Louis in Jan. It was cold.", ["I went to St. Louis in Jan. It was cold."]),
        ("No punctuation at the end", ["No punctuation at the end"]),
        ("   ", []),
    ],
)
def test_split_complete_text(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences


@pytest.mark.parametrize(
    "text",
    [
        "Hello there. How are you? Dr. Who lives at 221b. It costs 3.5 pounds! Fine.",
        "Anna moved to Berlin. Priya is still your manager.\nAnything else?",
    ],
)
@pytest.mark.parametrize("step", [1, 2, 7])
def test_streaming_deltas_give_same_sentences_as_whole_text(text: str, step: int) -> None:
    s = SentenceSplitter()
    out: list[str] = []
    for i in range(0, len(text), step):
        out += s.push(text[i : i + step])
    out += s.flush()
    assert out == split_sentences(text)


def test_sentence_is_emitted_as_soon_as_it_is_known_to_end() -> None:
    s = SentenceSplitter()
    assert s.push("Anna lives in Berlin") == []
    assert s.push(".") == []  # could still be "Berlin.de" or "3.5"
    assert s.push(" ") == []  # next word could be lowercase ("approx. five")
    assert s.push("S") == ["Anna lives in Berlin."]
    assert s.pending == "S"
    assert s.push("he moved! ") == ["She moved!"]  # ! and ? need no look-ahead
    assert s.flush() == []


def test_number_is_not_split_while_streaming() -> None:
    s = SentenceSplitter()
    assert s.push("It is 3.") == []
    assert s.push("5 degrees. ") == []
    assert s.push("Brr") == ["It is 3.5 degrees."]
    assert s.flush() == ["Brr"]


def test_flush_returns_trailing_text_and_resets() -> None:
    s = SentenceSplitter()
    s.push("Final words.")
    assert s.flush() == ["Final words."]
    assert s.flush() == []


def test_overlong_run_is_cut_at_a_comma() -> None:
    s = SentenceSplitter(max_chars=40)
    out = s.push("one two three four five six, seven eight nine ten eleven twelve thirteen")
    assert out == ["one two three four five six,", "seven eight nine ten eleven twelve"]
    assert s.flush() == ["thirteen"]


def test_find_sentence_end_final_flag() -> None:
    assert find_sentence_end("Hi. ") is None
    assert find_sentence_end("Hi. ", final=True) == 3


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("**Anna** lives in *Berlin*.", "Anna lives in Berlin."),
        ("## Summary\n- first item\n- second", "Summary\nfirst item\nsecond"),
        ("Run `make test` now.", "Run make test now."),
        ("See [the docs](https://x.org/a) or https://y.org/b.", "See the docs or a link"),
    ],
)
def test_clean_for_speech(raw: str, clean: str) -> None:
    assert clean_for_speech(raw) == clean
