"""One table each for role words, question words and first-person words, and every reader reads it."""

from __future__ import annotations

import ast
import re
from datetime import timedelta
from pathlib import Path

import pytest

from assistant.answer import is_question
from memory.extraction.choose import cues_for
from memory.extraction.resolve import Resolver, role_relation
from memory.extraction.rules_lexicon import QUESTION_STARTS
from memory.graph import TemporalGraph
from memory.merging import PLACEHOLDER_ROLES, placeholder_role
from memory.model import USER_ID
from memory.recall.intent import analyse
from memory.recall.recall import Recaller
from memory.vocabulary import NARROWER, RELATIONS
from memory.words import AUXILIARIES, FIRST_PERSON, POSSESSIVES, ROLE_RELATIONS, ROLES, SAID_TO_USER, WH_WORDS
from tests.conftest import T0

ROOT = Path(__file__).resolve().parents[2]


def test_every_role_maps_to_a_relation_in_the_vocabulary() -> None:
    for word, role in ROLES.items():
        assert role.relation in RELATIONS, word
        assert role.gender in ("f", "m", None), word
    for rel, narrower in NARROWER.items():
        assert {rel, *narrower} <= RELATIONS.keys()


@pytest.mark.parametrize("word", sorted(ROLES))
def test_every_role_word_is_read_by_recall_resolution_and_the_fact_check(word: str) -> None:
    rel = ROLE_RELATIONS[word]
    assert analyse(f"Where does my {word} live?").roles[0] == rel
    assert analyse(f"Where do our {word}s live?").roles[0] == rel
    assert analyse(f"Who is Anna's {word}?").relations[0] == rel
    assert role_relation(f"my {word}") == rel
    assert word in (cues_for(rel) or ())
    if rel in PLACEHOLDER_ROLES.values():
        assert placeholder_role(f"my {word}") == rel


@pytest.mark.parametrize(("question", "roles"), [
    ("Where do my kids live?", ("child_of", "daughter_of", "son_of")),  # a word without gender: both
    ("Who are my parents?", ("parent_of", "mother_of", "father_of")),
    ("Who is my mum?", ("mother_of",)),
    ("Where does my older sister live?", ("sister_of",)),
    ("Is my childhood home still there?", ()),  # a role word must stand alone
])
def test_role_phrases_in_questions(question: str, roles: tuple[str, ...]) -> None:
    assert analyse(question).roles == roles


def test_a_role_is_followed_toward_the_user_only(graph: TemporalGraph) -> None:
    graph.assert_fact("Tom", "son_of", USER_ID, now=T0)
    graph.assert_fact("Mia", "daughter_of", USER_ID, now=T0)
    graph.assert_fact("Anna", "mother_of", USER_ID, now=T0)
    graph.assert_fact(USER_ID, "parent_of", "Zed", now=T0)  # the user is Zed's parent: not "my parent"
    graph.assert_fact("Sue", "friend_of", USER_ID, now=T0)
    graph.assert_fact(USER_ID, "friend_of", "Ben", now=T0)  # symmetric: read both ways
    recall = Recaller(graph, limit=8)
    names = {e.id: e.name for e in graph.entities()}

    def seeds(q: str) -> set[str]:
        return {names[s] for s in recall.recall(q, now=T0 + timedelta(days=1)).seeds}

    assert seeds("Where do my kids live?") == {"Tom", "Mia"}
    assert seeds("Who are my parents?") == {"Anna"}
    assert seeds("Where do my friends live?") == {"Sue", "Ben"}
    assert Resolver(graph).resolve("my mum", at=T0) == "Anna"
    assert Resolver(graph).resolve("my kid", at=T0) == "my kid"  # two children: which one is not known


@pytest.mark.parametrize("word", sorted(WH_WORDS))
def test_every_wh_word_opens_a_question(word: str) -> None:
    assert is_question(f"{word} is that")
    assert word in QUESTION_STARTS


@pytest.mark.parametrize("word", sorted(AUXILIARIES))
def test_every_auxiliary_opens_a_question(word: str) -> None:
    assert is_question(f"{word.capitalize()} she there?")
    assert is_question(f"{word.capitalize()} she there") is AUXILIARIES[word].bare
    assert word in QUESTION_STARTS


@pytest.mark.parametrize(("text", "question"), [
    ("May is my birthday month", False),  # "may" opens statements too: a question only with "?"
    ("Shall we go", True),
    ("Remind me about Anna", True),
    ("My sister lives in Porto", False),
])
def test_questions_without_a_question_mark(text: str, question: bool) -> None:
    assert is_question(text) is question


@pytest.mark.parametrize(("text", "told"), [
    ("Did you hear Marta got promoted?", "Marta got promoted?"),
    ("Have you heard that the Hendersons are selling up?", "the Hendersons are selling up?"),
    ("did I mention we adopted a greyhound", "we adopted a greyhound"),
    ("Did you hear about the storm?", ""),  # a thing, not a clause
    ("Did I tell you what Marta said?", ""),  # itself a question
    ("Did you know that?", ""),
    ("Did I mention my promotion?", ""),  # no verb: asked whether it was said
    ("Do you know if Marta got promoted?", ""),  # not a lead that tells
])
def test_a_question_that_tells_news(text: str, told: str) -> None:
    from memory.episodes import only_asks
    from memory.words import news_told

    assert news_told(text) == told
    assert is_question(text) is not bool(told)  # told, it gets a reply and is learned at once
    assert only_asks(text + ("" if text.endswith("?") else "?")) is not bool(told)


@pytest.mark.parametrize("wh", sorted(WH_WORDS))
def test_a_past_question_asks_about_before_unless_it_asks_when_or_why(wh: str) -> None:
    for aux in (w for w, a in AUXILIARIES.items() if a.past):
        assert analyse(f"{wh} {aux} Anna live").history is (WH_WORDS[wh] not in ("time", "reason")), aux
    assert not analyse(f"{wh} does Anna live").history


def test_every_first_person_word_is_said_back_to_the_user() -> None:
    assert set(SAID_TO_USER) >= FIRST_PERSON and all(v.startswith("you") for v in SAID_TO_USER.values())


# -- no second copy -------------------------------------------------------------------------------------------
TABLES = {"role words": set(ROLES), "wh-words": set(WH_WORDS), "first-person words": set(FIRST_PERSON),
          "possessives": set(POSSESSIVES)}


def _copies(tree: ast.AST) -> list[tuple[int, str]]:
    """Literals that list four or more words of one table (a set, list, tuple or dict), or a string that runs
    five of them in a row ("who|what|where|when|why")."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Set | ast.List | ast.Tuple | ast.Dict):
            items = node.keys if isinstance(node, ast.Dict) else node.elts
            words = {i.value.lower() for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}
            found += [(node.lineno, name) for name, table in TABLES.items() if len(words & table) >= 4]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            tokens = re.findall(r"[\w'-]+", node.value.lower())
            for name, table in TABLES.items():
                run = longest = 0
                for t in tokens:
                    run = run + 1 if t in table else 0
                    longest = max(longest, run)
                if longest >= 5:
                    found.append((node.lineno, name))
    return found


def test_the_copy_finder_finds_copies() -> None:
    assert _copies(ast.parse('X = {"sister": 1, "brother": 2, "mum": 3, "dad": 4}')) == [(1, "role words")]
    assert _copies(ast.parse('R = r"^(who|what|where|which|how)\\s+did"')) == [(1, "wh-words")]
    assert _copies(ast.parse('S = {"my", "our", "their", "his"}')) == [(1, "possessives")]


def test_no_second_copy_of_a_word_table() -> None:
    words = ROOT / "memory" / "words.py"
    copies = [f"{p.relative_to(ROOT)}:{line}: {name}" for d in ("memory", "assistant")
              for p in sorted((ROOT / d).rglob("*.py")) if p != words
              for line, name in _copies(ast.parse(p.read_text(encoding="utf-8")))]
    assert copies == [], "read these from memory/words.py instead"


def test_us_in_capitals_is_the_country_not_the_speakers() -> None:
    """"What US state is Las Vegas in?" was read as asked of the user (everyday87: refused, "nothing I remember
    says"); "us" said in lower case is still them."""
    from memory.words import FIRST_PERSON_RE

    assert FIRST_PERSON_RE.search("What US state is Las Vegas in?") is None
    assert FIRST_PERSON_RE.search("Is it far from us?") and FIRST_PERSON_RE.search("Where are we going?")
