"""Answers start with what was asked (pure): the question said back first is cut, on a stream too."""

from __future__ import annotations

import pytest

from assistant.answer import first_sentence_unrestated, says_nothing_new, to_you, unrestated

CASES = [
    ("Which instruments does Tariq play?", "Tariq plays the oboe and the bass guitar.",
     "The oboe and the bass guitar."),
    ("What breed is Ines's dog?", "Ines's dog is a whippet.", "A whippet."),
    ("What film did Olu watch last Friday?", 'The film Olu watched last Friday was "Arrival".', '"Arrival".'),
    ("Has Keiko ever been to Norway?", "Yes, Keiko has been to Norway.", "Yes."),
    ("Did Bram finish the marathon?", "No, Bram did not finish the marathon. He hurt his knee.",
     "No. He hurt his knee."),
    # the question said back at the end; a count is no manner ("how many")
    ("When did Ines open her bakery?", "On 3 May 2023 Ines opened her bakery.", "On 3 May 2023."),
    ("Where did Olu fly to in June?", "Lisbon in June.", "Lisbon."),
    # the prompt's note of a date in the words said back is said back too
    ("What is Bram's goal this year?", "Bram's goal this year (2026) is to run a marathon.", "Run a marathon."),
    # the phrase said back starts at its preposition: none is left hanging
    ("What did Bram do in the war?", "Bram served in the navy during the war.", "Bram served in the navy."),
    ("How many times has Bram run a marathon?", "Bram has run a marathon three times.", "Three times."),
    # "May" with its day or year is the answer's month, though "may" is a glue word
    ("When is Olu's wedding?", "Olu's wedding is on May 29, 2026.", "May 29, 2026."),
    ("When does Ines start?", "Ines starts in May 2027.", "May 2027."),
    ("What course did Ines sign up for in May 2023?", "The course Ines signed up for in May 2023 was a pottery course.",
     "A pottery course."),  # the month the question says is said back
    # the past of a verb ending in "e" is the question's verb said back
    ("What did Olu use to fix the bike?", "Olu used a spare chain link.", "A spare chain link."),
    # the date said back at the end leaves no comma before it
    ("Where did Olu travel to in July 2022?", "Olu traveled to Tarn, a small town in France, in July 2022.",
     "Tarn, a small town in France."),
    # left whole: nothing said back, an ending that starts with a noun and may be the answer's own ("a red
    # sports car"), a yes/no that adds something, a reason or a manner, a single word
    ("Where does Olu work?", "At a bakery in Leeds.", "At a bakery in Leeds."),
    ("Did Bram enjoy Lisbon?", "Yes, especially the tiles and the custard tarts.",
     "Yes, especially the tiles and the custard tarts."),
    ("Has Keiko been to Norway?", "Yes, Keiko has been to Norway twice.", "Yes, Keiko has been to Norway twice."),
    # a reason or a manner: what follows the question said back ("because…", "by…")
    ("Why did Keiko move?", "Keiko moved because her company relocated.", "Because her company relocated."),
    ("How did Tariq get there?", "Tariq got there by night train.", "By night train."),
    ("How did Ines feel after the race?", "Ines felt exhausted but proud after the race.", "Exhausted but proud."),
    ("How does Ines feel about Olu's new job?", "Ines admires Olu's new job.", "Ines admires Olu's new job."),
    ("Who is Ines?", "Ines.", "Ines."),
    ("What kind of sports car does Olu drive?", "A red sports car.", "A red sports car."),
    ("Which events did Olu go to for his bakery?", "Farmers' market events for his bakery.",
     "Farmers' market events."),  # the kind asked for ends the answer; what follows is said back
    ("Which activity has Olu done apart from yoga at the studio?", "Weight training apart from yoga at the studio.",
     "Weight training."),
    ("Who gave Ines money when she was young?", "Her aunt gave Ines money when she was young.", "Her aunt."),
    ("What test has Olu taken many times?", "The driving test many times.", "The driving test."),
    ("What test has Olu taken over and over?", "The driving test taken over and over.", "The driving test."),
    ("Which exam has Olu sat multiple times?", "The bar exam multiple times.", "The bar exam multiple times."),
    ("Where did Olu fly to in June?", "In June.", "In June."),
    # a choice offered: the one chosen is the answer, not the question said back
    ("Does Ines have a cat or a dog?", "Yes, Ines has a dog.", "Yes, Ines has a dog."),
    ("Did Bram fly or take the train?", "Bram took the train.", "Bram took the train."),
    ("Is Keiko's flat in the old town or by the harbour?", "Keiko's flat is by the harbour.", "The harbour."),
    # a phrase of the question said back after a preposition; a clause after the answer that says the question
    # again; the day the words were said, when the question is not about time
    ("What has Olu's choir got better at during rehearsals?", "Harmonies and breathing during rehearsals.",
     "Harmonies and breathing."),
    ("What does Bram keep that reminds him of his grandad?",
     "An old pocket watch, which reminds him of his late grandad.", "An old pocket watch."),
    ("What did Ines buy?", "A second-hand cello, which she adores.", "A second-hand cello, which she adores."),
    ("What poster did Ines give her brother Olu?", "A vintage Tour de France poster on 3 May 2023.",
     "A vintage Tour de France poster."),
    ("When did Ines give Olu the poster?", "On 3 May 2023.", "On 3 May 2023."),
    # the day it happened said first, not asked when: what follows is cut as ever
    ("What did Olu bake for the neighbours?", "On 4 June 2023 Olu baked some scones for the neighbours.",
     "Scones."),
    ("What did Olu bake?", "On 4 June 2023 he tried scones.", "On 4 June 2023 he tried scones."),
    ("When did Olu bake scones?", "On 4 June 2023 Olu baked scones.", "On 4 June 2023."),
    ("What present did Ines give Olu?", "Ines gave Olu a present on 3 May 2023.",
     "Ines gave Olu a present on 3 May 2023."),  # without its date, nothing of its own is left
    # a name asked about is only itself: a word that stems like it is the answer's own
    ("What series is Tim excited about?", 'Tim is excited about "The Wheel of Time".', '"The Wheel of Time".'),
    ("Which band is Hope into?", "Hope is into Beach House.", "Beach House."),
    ("Which board game does Jan like best?", "The Game of Hope.", "The Game of Hope."),
    ("What song did Ros sing at the wedding?", "A Rose for Emily at the wedding.", "A Rose for Emily."),
    # a word of the question capitalised in a title or a name is the answer's own; the first word is capitalised
    # as any first word is; a name is not split
    ("Which cities does Olu mention visiting to Ines?", "Olu mentions visiting Leeds and Kansas City to Ines.",
     "Leeds and Kansas City."),
    ("What films have both Olu and Ines seen?", 'Both Olu and Ines have seen "Arrival".', '"Arrival".'),
    ("Which shop would Olu visit in Salt Lake city?", "Olu would visit a shop in Salt Lake City.",
     "Salt Lake City."),
    ("What was Inés's reaction?", "Inés said it was a dream come true.", "A dream come true."),
    ("What was Olus's reaction?", "Olu said it was a dream come true.", "A dream come true."),  # mistyped
    # a denial keeps what it denies: "You don't." answers no "What…?"
    ("What instruments do I play?", "You don't play any instruments.", "You don't play any instruments."),
    ("Which languages does Olu speak?", "Olu does not speak any languages.", "Olu does not speak any languages."),
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
    assert out == "Tomatoes and basil. She started last spring."


@pytest.mark.parametrize(("answer", "expected"), [
    ('A: "The Night Circus". She loved it.', '"The Night Circus". She loved it.'),  # the examples' label
    ("Answer: tomatoes.", "Tomatoes."),
    ('A "Night Circus" copy.', 'A "Night Circus" copy.'),  # an article, no label
    # where the answer comes from, said first, is no part of it
    ("Based on the information provided, she finished The Night Circus.", "The Night Circus."),
    ("According to the conversations, Ines finished Dune.", "Dune."),
    ("From what was said, it was Dune.", "It was Dune."),
    ("From the library, she borrowed Dune.", "From the library, she borrowed Dune."),  # a place it came from stays
])
def test_the_answer_label_of_the_examples_is_not_said(answer: str, expected: str) -> None:
    pieces = [answer[i:i + 4] for i in range(0, len(answer), 4)]
    assert "".join(first_sentence_unrestated(iter(pieces), "Which book did Ines finish last week?")) == expected


def test_the_stream_passes_on_pieces_after_the_first_sentence_as_they_come() -> None:
    seen: list[str] = []

    def model() -> object:
        for p in ["Ines grows tomatoes.", " She", " waters", " them daily."]:
            seen.append(p)
            yield p

    out = first_sentence_unrestated(model(), "What does Ines grow?")  # type: ignore[arg-type]
    assert next(out) == "Tomatoes. She" and seen == ["Ines grows tomatoes.", " She"]
    assert next(out) == " waters" and len(seen) == 3  # not held back until the end


NO_ANSWERS = [
    ("What is the mural in Ines's bakery a reminder for her to be?",
     "The mural in Ines's bakery is a reminder for her to be."),
    ("Which shop in Leeds would Olu enjoy visiting?", "Olu would enjoy visiting a shop in Leeds."),
    # not asked when: the day it was said is nothing of its own
    ("What recipe did Olu offer to share with Ines?", "Olu shared a recipe with Ines on 14 August 2022."),
    # all the question's words, two of them, behind a contraction that is no word of its own
    ("What are we baking for the fete?", "We're baking for the fete."),
    ("What car does Bram drive?", "Bram drives a car."),
    ("Who does Bram live with?", "Bram lives with them."),  # the question's "with" said back
    # a name asked is none of the question's words
    ("What is my sister's puppy called?", '"Puppy".'),
    ("What's the name of Bram's boat?", "Boat."),
    # the past of a verb ending in "e" is the question's verb; the day it happened is no how
    ("How did Keiko's hamster die?", "Keiko's hamster died on 3 March 2026."),
    ("How did Olu injure his knee?", "Olu injured his knee in May 2025."),
    # no choice offered: a word of the question is no pick
    ("Which part of Leeds are we moving to?", "Leeds."),
    ("What kind of dog did Bram get?", "A dog."),
]
ANSWERS = [
    ("Does Bram prefer cats or dogs?", "Dogs."),  # a pick among the question's words
    ("Has Keiko been to Norway?", "No."),
    ("What is the mural in Ines's bakery a reminder for her to be?", "To be patient."),
    ("How many times did Olu visit Leeds?", "Olu visited Leeds 3 times."),  # a number is something said
    ("What does Ines grow?", "I don't know."),  # nothing of the question: an abstention, not a restatement
    ("When did Olu share the recipe with Ines?", "Olu shared the recipe with Ines on 14 August 2022."),
    ("Which recipe did Olu share with Ines?", "Olu shared a vegan recipe with Ines in May 2022."),
    ("Which does Bram drink, green tea or black tea?", "Black tea."),  # all it says is the question's, a pick
    # asked yes or no, the question said back says yes (or, with its "not", no)
    ("Is Keiko a chemistry teacher?", "Keiko is a chemistry teacher."),
    ("Does Olu still live in Leeds?", "Olu does not live in Leeds."),
    # with whom, said by a pronoun, is what was asked for
    ("Where does my mum live?", "Your mum lives with you."),
    ("What is my sister's puppy called?", "Biscuit."),
    ("Is my puppy called Biscuit?", "Yes."),
    ("How did Keiko's hamster die?", "Keiko's hamster died of old age."),
]


@pytest.mark.parametrize(("question", "answer"), NO_ANSWERS)
def test_the_question_said_back_with_nothing_of_its_own_is_no_answer(question: str, answer: str) -> None:
    assert says_nothing_new(answer, question)


@pytest.mark.parametrize(("question", "answer"), ANSWERS)
def test_an_answer_that_says_something_is_one(question: str, answer: str) -> None:
    assert not says_nothing_new(answer, question)


def test_the_stream_says_something_else_when_the_first_sentence_is_turned_down_and_reads_no_further() -> None:
    seen: list[str] = []

    def model() -> object:
        for p in ["Olu would enjoy visiting a shop in Leeds.", " It", " sells", " hats."]:
            seen.append(p)
            yield p

    question = "Which shop in Leeds would Olu enjoy visiting?"
    out = list(first_sentence_unrestated(model(), question,  # type: ignore[arg-type]
                                         instead=lambda s: "I don't know." if says_nothing_new(s, question) else None))
    assert out == ["I don't know."] and seen == ["Olu would enjoy visiting a shop in Leeds.", " It"]


@pytest.mark.parametrize(("answer", "question", "spoken"), [
    ("I'm from Dublin originally.", "Where am I from originally?", "You're from Dublin originally."),
    ("I’ve got two cats, and my neighbour feeds them.", "What pets do I have?",
     "You've got two cats, and your neighbour feeds them."),
    ("I am allergic to penicillin.", "What am I allergic to?", "You are allergic to penicillin."),
    ("My sister Anna.", "Who lives in Porto?", "My sister Anna."),  # not a question about the user
    ('Maria said "I will".', "What did Maria tell me?", 'Maria said "I will".'),  # a quote stays as said
    ("Dublin.", "Where am I from?", "Dublin."),
    # the model names the user as the facts do ("User likes…"): said to them
    ("The user played the cello.", "What instrument did I play?", "You played the cello."),
    ("The user's sister is Anna.", "Who is my sister?", "Your sister is Anna."),
    ("User is from Dublin.", "Where am I from?", "You are from Dublin."),
    # its verb said to them ("You plays guitar" was said aloud)
    ("User plays guitar.", "What instrument do I play?", "You play guitar."),
    ("The user always watches films on Sundays.", "What do I do on Sundays?", "You always watch films on Sundays."),
    ("User studies Spanish.", "What language do I study?", "You study Spanish."),
    # and its "n't" ("You doesn't like…" had been said: the shared long sample at 0ca9ae7)
    ("The user doesn't eat meat.", "Do I eat meat?", "You don't eat meat."),
    ("The user isn't allergic to anything.", "Am I allergic to nuts?", "You aren't allergic to anything."),
    ("User always walks Bruno.", "Who walks my dog?", "You always walk Bruno."),
    ("The user played the cello.", "What did Anna play?", "The user played the cello."),  # not about the user
    # inside the answer too
    ("Because the user received an Octopus bill for October.", "Why did my bill go up?",
     "Because you received an Octopus bill for October."),
    ("Yes, because the user is allergic to it.", "Do I avoid nuts?", "Yes, because you are allergic to it."),
    ("Since the user likes cats.", "Why do I go to the shelter?", "Since you like cats."),
    # the rest of the sentence said to them too: a verb with its subject left out, the model's singular "their"
    ("The user used to play the trumpet but hasn't touched it in years.", "What instrument did I play?",
     "You used to play the trumpet but haven't touched it in years."),
    ("The user started using a CPAP machine for their sleep apnoea.", "Why do I use a CPAP machine?",
     "You started using a CPAP machine for your sleep apnoea."),
    ("The user visited their parents at their house.", "Where did I go?",  # someone else's "their" may be meant
     "You visited their parents at their house."),
    ("The user likes Tom, and Tom has a cat.", "Who do I like?", "You like Tom, and Tom has a cat."),
    # the user's words said back without their "I"
    ("Broke my wrist skiing, I'm in plaster till May.", "What did I break?",
     "You broke your wrist skiing, you're in plaster till May."),
    ("Sprained my ankle.", "What happened to my ankle?", "You sprained your ankle."),
    ("Froze my fingers off at the match.", "What happened to my hands?", "You froze your fingers off at the match."),
    ("Loved it.", "Did I like the film?", "Loved it."),  # nothing of theirs to turn
    ("Speed dating with my mates.", "What did I do on Friday?", "Speed dating with my mates."),  # no verb opens it
    # what the assistant cannot tell is said in its own first person
    ("I don't know where you went.", "Where did I go?", "I don't know where you went."),
    ("I’m not sure.", "What is my dog called?", "I’m not sure."),
    ("I can't say from what you told me.", "What did I eat?", "I can't say from what you told me."),
])
def test_an_answer_about_the_user_is_said_to_them(answer: str, question: str, spoken: str) -> None:
    assert to_you(answer, question) == spoken


@pytest.mark.parametrize(("question", "answer", "spoken"), [
    # a contraction of glue words is glue: the answer is not cut down to it
    ("Where is Olu going in June?", "He's going to Porto with his brother.", "Porto with his brother."),
    ("What has Keiko taken up?", "She's taken up bouldering.", "Bouldering."),
    ("What are we singing at the fete?", "We're singing carols at the fete.", "Carols."),
    # the user as the facts name them is the question's "I" said back
    ("What instrument did I learn?", "The user learned the oboe.", "The oboe."),
])
def test_a_contracted_glue_word_is_said_back_with_the_question(question: str, answer: str, spoken: str) -> None:
    assert unrestated(answer, question) == spoken


def test_the_streamed_first_sentence_is_said_to_the_user() -> None:
    pieces = iter(["My mum's ", "house in Cork. It", " was lovely."])
    assert ("".join(first_sentence_unrestated(pieces, "Where did I spend Christmas?"))
            == "Your mum's house in Cork. It was lovely.")


@pytest.mark.parametrize(("question", "answer"), [
    ("", ""), ("?", "."), ("S's S's?", "S's."), ("What did Tim's' do?", "'s"), ("WHAT IS TIM DOING?", "TIME."),
    ("What did Ines buy?", "On 3 May 2023."), ("What did Ines buy?", " on 3 May 2023"),
    ("\x00 MATCH (n) DETACH DELETE n", "MATCH (n) DETACH DELETE n " * 200),
])
def test_odd_text_through_the_name_keys_and_the_date_said_back(question: str, answer: str) -> None:
    """Blank, cut-off or hostile text through this stop's name keys and the date said back: no error; an answer
    with no word of the question is never the question said back."""
    assert isinstance(unrestated(answer, question), str)
    said = says_nothing_new(answer, question)
    assert isinstance(said, bool)
    if not ({w.lower().strip(".?") for w in answer.split()} & {w.lower().strip(".?") for w in question.split()}):
        assert not said
