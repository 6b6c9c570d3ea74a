"""The few word tables that more than one part of memory reads: one copy each."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple


def alternation(words: Iterable[str]) -> str:
    """'a|b|c' for a regex, longest first so a word is never cut short by its prefix ("mom" in "mommy")."""
    return "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))


# Words by which a speaker means themselves (the user in the user's turns, the speaker's name otherwise).
WE = frozenset({"we", "us", "our", "ours", "ourselves"})  # the plural of them ("our neighbour")
FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself"}) | WE
# What the user is called in stored names and asked about as: "you" is the assistant when the user speaks.
USER_KEYS = ("user", "me", "i", "myself")
# ("US" in capitals is the country: "What US state is Las Vegas in?" asks nothing of the user)
FIRST_PERSON_RE = re.compile(r"\b(?!(?-i:US)\b)(" + alternation(FIRST_PERSON | {"i'm", "i've", "i'd", "i'll"}) + r")\b",
                             re.I)
# Words by which a speaker means the one they talk to ("Congrats on your degree!" is about the listener).
SECOND_PERSON = frozenset({"you", "your", "yours", "yourself", "yourselves", "ya", "u", "ur"})
SECOND_PERSON_RE = re.compile(
    r"\b(" + alternation(SECOND_PERSON | {"you're", "you've", "you'd", "you'll", "y'all"}) + r")\b", re.I)
# The user's words for themselves, as the assistant says them back ("I'm from Dublin" -> "you're from Dublin"):
# every first-person word, and the contractions and forms of "be" that change with it.
SAID_TO_USER = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "we": "you",
                "us": "you", "our": "your", "ours": "yours", "ourselves": "yourselves", "i'm": "you're",
                "i am": "you are", "i was": "you were", "we were": "you were", "i've": "you've", "i'd": "you'd",
                "i'll": "you'll", "we're": "you're", "we've": "you've"}
POSSESSIVES = frozenset({"my", "our", "your", "his", "her", "their", "its"})
MY = POSSESSIVES & FIRST_PERSON  # "my sister", "our dog": the speaker's
# Words that point back to something said earlier in the conversation ("Where does she work?", "Who else lives
# there?", "What did you say?"): the third person, demonstratives, "else"/"other", and the one spoken to.
POINTING_BACK = frozenset({"he", "she", "it", "they", "him", "them", "hers", "theirs", "himself", "herself", "itself",
                           "themselves", "this", "that", "these", "those", "there", "then", "else", "other", "another",
                           *(POSSESSIVES - MY), *SECOND_PERSON})


class Role(NamedTuple):
    relation: str  # in memory.vocabulary; "my sister Anna" -> (Anna sister_of user), reports_to is the user's arc
    gender: str | None  # "f", "m", or None for a word that says neither


# Kinship and social role words, the one table: the rules read facts with it ("my sister Anna"), resolution
# finds who "my sister" is, recall reads "my sister" in a question, merging pairs "my sister" with a name.
ROLES: dict[str, Role] = {w: Role(rel, g) for w, rel, g in [
    ("sister", "sister_of", "f"), ("brother", "brother_of", "m"), ("sibling", "sibling_of", None),
    ("mother", "mother_of", "f"), ("mom", "mother_of", "f"), ("mum", "mother_of", "f"),
    ("mommy", "mother_of", "f"), ("mummy", "mother_of", "f"), ("mammy", "mother_of", "f"), ("mama", "mother_of", "f"),
    ("mam", "mother_of", "f"), ("stepmum", "mother_of", "f"), ("stepmom", "mother_of", "f"),
    ("stepmother", "mother_of", "f"), ("stepdad", "father_of", "m"), ("stepfather", "father_of", "m"),
    ("stepson", "son_of", "m"), ("stepdaughter", "daughter_of", "f"), ("stepbrother", "brother_of", "m"),
    ("stepsister", "sister_of", "f"),
    ("father", "father_of", "m"), ("dad", "father_of", "m"), ("daddy", "father_of", "m"),
    ("papa", "father_of", "m"), ("parent", "parent_of", None),
    ("daughter", "daughter_of", "f"), ("son", "son_of", "m"), ("child", "child_of", None), ("kid", "child_of", None),
    ("grandmother", "grandparent_of", "f"), ("grandma", "grandparent_of", "f"), ("granny", "grandparent_of", "f"),
    ("nan", "grandparent_of", "f"), ("nana", "grandparent_of", "f"), ("nanna", "grandparent_of", "f"),
    ("gran", "grandparent_of", "f"), ("grannie", "grandparent_of", "f"), ("gramps", "grandparent_of", "m"),
    ("grampa", "grandparent_of", "m"),
    ("grandfather", "grandparent_of", "m"), ("grandpa", "grandparent_of", "m"),
    ("granddad", "grandparent_of", "m"), ("grandad", "grandparent_of", "m"), ("grandparent", "grandparent_of", None),
    ("grandson", "grandchild_of", "m"), ("granddaughter", "grandchild_of", "f"),
    ("grandchild", "grandchild_of", None), ("grandkid", "grandchild_of", None),
    ("aunt", "aunt_of", "f"), ("auntie", "aunt_of", "f"), ("uncle", "uncle_of", "m"), ("cousin", "cousin_of", None),
    ("niece", "niece_of", "f"), ("nephew", "nephew_of", "m"),
    *((f"{w}-in-law", "in_law_of", g) for w, g in (
        ("brother", "m"), ("sister", "f"), ("mother", "f"), ("father", "m"), ("son", "m"), ("daughter", "f"))),
    ("wife", "spouse_of", "f"), ("husband", "spouse_of", "m"), ("hubby", "spouse_of", "m"),
    ("spouse", "spouse_of", None),
    ("partner", "partner_of", None), ("girlfriend", "partner_of", "f"), ("boyfriend", "partner_of", "m"),
    ("fiancee", "partner_of", "f"), ("fiancée", "partner_of", "f"), ("fiance", "partner_of", "m"),
    ("fiancé", "partner_of", "m"),
    ("friend", "friend_of", None), ("buddy", "friend_of", None), ("pal", "friend_of", None),
    ("mate", "friend_of", None),
    ("neighbour", "neighbour_of", None), ("neighbor", "neighbour_of", None),
    ("colleague", "colleague_of", None), ("coworker", "colleague_of", None), ("co-worker", "colleague_of", None),
    ("workmate", "colleague_of", None),
    ("housemate", "lives_with", None), ("flatmate", "lives_with", None), ("roommate", "lives_with", None),
    ("lodger", "lives_with", None),
    ("manager", "reports_to", None), ("boss", "reports_to", None), ("supervisor", "reports_to", None),
]}
ROLE_RELATIONS: dict[str, str] = {w: r.relation for w, r in ROLES.items()}  # "sister" -> "sister_of"
# The plain relation a gendered one is a kind of: "my kid" may be the son asked about, "my partner" the wife
ROLE_KIND_OF: dict[str, str] = {"son_of": "child_of", "daughter_of": "child_of", "mother_of": "parent_of",
                                "father_of": "parent_of", "brother_of": "sibling_of", "sister_of": "sibling_of",
                                "spouse_of": "partner_of"}


def same_role(one: str, other: str) -> bool:
    """Whether two role relations may name the same person ("son_of" and "child_of"; not "son_of", "daughter_of")."""
    return one == other or ROLE_KIND_OF.get(one) == other or ROLE_KIND_OF.get(other) == one


def _nouns_for(relation: str) -> tuple[str, ...]:
    """The role words for a relation, the plainest first: its own name ("sister"), else one of no gender."""
    words = [w for w, r in ROLES.items() if r.relation == relation]
    return tuple(sorted(words, key=lambda w: (w != relation.removesuffix("_of"), ROLES[w].gender is not None)))


# A relation by the words that name it ("neighbour_of" -> neighbour, neighbor): how it is said to the user
ROLE_NOUNS: dict[str, tuple[str, ...]] = {r: _nouns_for(r) for r in dict.fromkeys(ROLE_RELATIONS.values())}
# Roles said in two words ("my other half Jamie"), by the one-word role they mean
ROLE_PHRASES: dict[str, str] = {"other half": "partner", "better half": "partner", "significant other": "partner",
                                "work mate": "workmate", "work colleague": "colleague"}
# Before a role held for a while (a boss, a flatmate, a partner): one it no longer is ("my old boss", "my ex-wife");
# an old friend is still a friend, and kin are always kin.
FORMER_ROLE = frozenset({"old", "former", "ex", "previous"})
FOR_A_WHILE = frozenset({"reports_to", "colleague_of", "neighbour_of", "lives_with", "partner_of", "spouse_of"})
# Roles someone can hold beside another to the same person (a friend who is a flatmate, a neighbour who is a
# colleague); kin and partners are not one another.
HELD_BESIDE = frozenset({"friend_of", "lives_with", "neighbour_of", "colleague_of"})
ROLE_RELATION_NAMES = frozenset(ROLE_RELATIONS.values())  # the relations by which someone is someone to another
# Parents and grandparents are called by their role as by a name ("Dad's birthday is in March", "Mum rang"): said
# so, they are the speaker's.
KIN_TITLES = frozenset(w for w, r in ROLES.items() if r.relation in ("mother_of", "father_of", "grandparent_of"))
# Kin said as a title before a name ("Grandad Ted", "Auntie Mags", "Uncle Bob"): the role, and the name after it
TITLED_KIN = KIN_TITLES | frozenset(w for w, r in ROLES.items() if r.relation in ("aunt_of", "uncle_of"))
# Words for children said as such only with a count or an age word before them ("my two boys", "our little girl",
# "my eldest boy"): alone ("a night out with my girls") they are as often friends.
CHILD_WORDS: dict[str, str] = {"boy": "son", "girl": "daughter", "lad": "son", "lass": "daughter"}
# The place among the children, which alone says a child when a name follows ("our youngest, Isla", "my eldest Tom")
CHILD_RANKS = frozenset({"eldest", "oldest", "youngest", "middle"})
CHILD_AGES = CHILD_RANKS | {"little", "baby", "younger", "older", "twin"}
# An animal's young, said for the animal ("We've adopted a rescue kitten" answers "Do we have a cat?")
YOUNG_ANIMALS: dict[str, str] = {"kitten": "cat", "kitty": "cat", "puppy": "dog", "pup": "dog", "foal": "horse",
                                 "bunny": "rabbit", "lamb": "sheep", "calf": "cow", "chick": "chicken",
                                 "duckling": "duck"}
# The children of the house, said as a group ("the kids' hamster"): the household's
HOUSEHOLD_CHILDREN = frozenset({"kids", "children", "boys", "girls"})
# Words that say children in the plural even alone ("our twins, Ada and Max"); one ("my twin") is a sibling.
CHILD_PLURALS: dict[str, str] = {"twin": "child", "triplet": "child"}


class Aux(NamedTuple):
    past: bool = False  # asks about before: "where did you live" wants the old value, not today's
    bare: bool = True  # opens a question even without a "?"; not "may": "May is my birthday month"


# Question words, each once: a wh-word and what it asks for, and the auxiliaries a yes/no question opens with.
WH_WORDS: dict[str, str] = {"who": "person", "whom": "person", "whose": "person", "what": "thing",
                            "which": "thing", "where": "place", "when": "time", "why": "reason", "how": "way"}
AUXILIARIES: dict[str, Aux] = {
    **{w: Aux() for w in "is are am do does have has can could will would shall should".split()},
    **{w: Aux(past=True) for w in "was were did had".split()},
    **{w: Aux(bare=False) for w in "may might".split()},
}

# A question that tells news: what follows it is said as so ("Did I tell you Hugo got engaged?", "Did you hear
# that my sister moved to Leeds?"), unless it is a question itself ("Did you hear what happened?") or no clause.
NEWS_LEADS = ("did i tell you", "have i told you", "did i mention", "have i mentioned",
              "did you hear", "have you heard", "did you know")
_NEWS = re.compile(rf"^\W*(?:{alternation(NEWS_LEADS)})\s*,?\s+(?:that\s+)?(?P<told>\S+\s+\S.*)$", re.I | re.S)
_NOT_TOLD = frozenset({*WH_WORDS, "if", "whether", "about", "me", "anything", "something", "much", "yet", "already",
                       "so", "too", "again", "before", "earlier", "that", "this"})


def news_told(text: str) -> str:
    """What a question that tells news says as so ("Did I tell you Hugo got engaged?" -> "Hugo got engaged?"), or
    "" ("Did you hear about the fire?", "Did I tell you what happened?", "Did you know that?")."""
    m = _NEWS.match(text.strip())
    if m is None:
        return ""
    told = m.group("told")
    words = [w.lower().strip(",?!.") for w in told.split()]
    if words[0] in _NOT_TOLD:
        return ""
    # a clause, not a thing ("Did I mention my new job?"): a verb said the ways a tagger is not needed for
    verb = any(w in PAST_FORMS or w in _TOLD_VERBS or w.endswith(("ed", "ing", "'s", "'re", "'ll", "'ve"))
               for w in words[1:])
    return told if verb else ""


_TOLD_VERBS = frozenset({"is", "are", "was", "were", "has", "have", "had", "will", "won't", "can", "can't", "isn't",
                         "wasn't", "got", "gets", "lives", "works", "moves", "wants", "needs", "loves", "hates"})


# a word that says no, in any clause: "not", "never", "no longer", "isn't" (a time denied, an answer that denies)
DENYING = re.compile(r"\b(?:no|not|never|nor|neither|none|nothing)\b|n['’]t\b", re.I)

# where a sentence's clauses part: punctuation, a spaced dash, or a joining word ("…, and", "but", "so", "while")
CLAUSE_CUT = re.compile(r"[,;:—–.!?()]|\s-\s|\b(?:and|but|so|because|while|though|although)\b", re.I)

# the speaker mending what they just said ("Thursday the fifth — no, hang on, Friday the sixth", "half four, sorry,
# quarter past"): what follows is meant instead. REPAIR_WORDS, in a regex, is the mend after its dash or comma.
REPAIR_WORDS = (r"(?:(?:no|sorry|wait|hang on|hold on|actually|I mean|or rather|scratch that)\b[\s,—–-]*)+")
# what a mend may open with before the time it says instead ("no wait, it's the twenty-first", "sorry, make that
# Friday"), in a regex
REPAIR_LEAD = r"(?:(?:it|that)(?:['’]s|\s+is|\s+was|['’]ll\s+be|\s+will\s+be)|make\s+(?:it|that))\s+"
SELF_REPAIR = re.compile(rf"^\s*(?:[—–-]+|,|\.{{3}}|…)?\s*{REPAIR_WORDS}", re.I)

# Nouns too vague to be what a fact is about ("a lot", "the time", "that photo", "the experience").
VAGUE = frozenset({
    "thing", "things", "lot", "lots", "time", "times", "way", "ways", "day", "days", "bit", "kind", "sort", "one",
    "ones", "stuff", "something", "anything", "everything", "nothing", "someone", "anyone", "everyone", "people",
    "guy", "guys", "idea", "fun", "moment", "part", "chance", "place", "week", "weekend", "month", "year", "years",
    "night", "morning", "evening", "today", "tonight", "yesterday", "tomorrow", "reminder", "photo", "picture",
    "pic", "experience", "journey", "feeling", "thanks", "luck", "question", "ages", "while", "age", "bunch",
    "deal", "glad", "sure", "kinds", "sorts", "loads", "others", "folks",
})

# Past forms that do not end in "-ed", to tell a past sentence without a tagger ("We went kayaking on the
# weekend": the weekend before). Only forms that are not also the present ("read", "put", "cut", "quit").
PAST_FORMS = frozenset("""
went ran ate bought taught thought took made met saw began wrote left felt found gave kept lost won flew drove
spoke sang swam got came did had was were said told sold spent sent built brought caught held heard paid sat slept
stood woke wore threw drank rode fell became forgot broke chose grew knew led meant fought dug bit hid shook
tore swore strode struck stung swung clung flung sprang rang shrank sank spun froze arose slid fled sought dealt
knelt swept wept crept lent understood laid shone blew drew forgave spat stole died bled fed sped
""".split())

# Past participles that do not end in "-ed" ("Have I been to Japan?", "What has Maria taken up?"): what may follow
# an auxiliary "have". "got" is left out: "have I got a bike?" is possession.
PARTICIPLES = frozenset("""
been done gone seen taken given eaten written ridden driven known grown flown sung swum worn begun become come
run broken chosen forgotten fallen spoken woken drunk shaken hidden bitten thrown stolen read put cut quit had
made met found kept lost won sold spent sent built brought caught held heard paid taught thought told said left
felt led meant fought dug sat slept stood bought
""".split())

# Words that ask for more than a thing named ("What does Maria practise besides yoga?"): the thing named is not the
# topic that selects the answer
BESIDES = ("besides", "apart from", "aside from", "other than", "except", "as well as", "in addition to", "else",
           "beyond", "instead of", "rather than")

# The verbs of a moment something begins, ends or arrives: asked when of one ("When did my jury service start?"),
# the sentence that says it ("Starts Monday the ninth of November") over one that only names the thing ("called up
# for jury service this morning")
MOMENT_VERBS = frozenset("start starts started begin begins began finish finishes finished end ends ended open opens "
                         "opened arrive arrives arrived land lands landed due".split())
# An outcome and those that deny it: "Megan failed" answers "Did Megan pass?" no ("lose" said as "lost")
OPPOSITE_OUTCOMES: dict[str, tuple[str, ...]] = {
    "pass": ("fail", "failed", "flunk", "flunked"), "fail": ("pass", "passed"),
    "win": ("lose", "lost"), "lose": ("win", "won"),
}
# Words of distaste: said of a thing, they deny a taste for it ("Olives are just wrong", "coriander is vile")
DISTASTE = frozenset("""
hate hates hated loathe loathes loathed detest detests despise despises awful horrible disgusting gross vile
revolting nasty yuck yucky terrible wrong overrated worst dreadful rank gag gags retch heave
""".split())
# Words that ask about a taste ("Do I like olives?", "Is Mo a fan of opera?"; not "into": "Did I get into Oxford?")
TASTE_WORDS = ("like", "likes", "love", "loves", "enjoy", "enjoys", "fan", "fond", "keen")

# The diets that leave a food out: a food eaten again ends them ("I'm eating fish again" ends vegan and vegetarian,
# not pescatarian), and a diet taken up ends a taste for it ("I love steak", then "I've gone pescatarian").
# The food's word -> those diets.
_NO_MEAT = ("vegan", "vegetarian", "pescatarian", "pescetarian", "plant-based")
_NO_FISH = ("vegan", "vegetarian", "plant-based")
_NO_ANIMAL = ("vegan", "plant-based")
_NO_ALCOHOL = ("teetotal",)
# Conditions that leave a food out ("Can Sarah eat gluten?" of a coeliac friend): the condition -> the foods' words
CONDITION_EXCLUDES: dict[str, frozenset[str]] = {
    **dict.fromkeys(("coeliac disease", "celiac disease", "gluten intolerance", "wheat intolerance"), frozenset(
        "gluten bread wheat pasta beer barley rye cake cakes biscuits pizza toast sandwich sandwiches".split())),
    **dict.fromkeys(("lactose intolerance", "dairy intolerance"), frozenset(
        "lactose milk dairy cheese cream yoghurt yogurt butter".split())),
}
# Words that say a relation is held, for relations whose own name people do not use ("Is Amy pregnant?" of `Amy
# expecting baby`): the question's cue and the words that speak of the fact
SAID_OF_RELATION: dict[str, tuple[str, ...]] = {"expecting": ("pregnant", "pregnancy", "expecting", "due"),
                                                 "died_on": ("alive", "dead", "died", "die", "death", "deceased",
                                                             "passed away", "pass away")}
# Words that move the time of something to another ("moved the wedding to August", "pushed back until May",
# "postponed till Friday"): the pattern up to the preposition, the new time after it
TIME_MOVED = (r"\b(?:(?:moved|postponed|rescheduled|delayed|changed|shifted|bumped|switched)\b(?:\s+[\w'’]+){0,4}?"
              r"|(?:pushed|put|brought)\b(?:\s+[\w'’]+){0,3}?\s+(?:back|forward|off)"
              r"(?:\s+(?:a|an|a few|one|two|three|four|five|six|\d+)\s+(?:days?|weeks?|fortnights?|months?))?,?)"
              r"\s+(?:to|until|till)\b")
# A word asked that people tell in other words: searched with those too ("Is Mum still alive?" of "…since Mum died")
ASKED_AS_TOLD: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("alive", "living", "dead", "deceased"), ("died", "passed", "death", "funeral", "lost")),
    # a job lost is told as how ("Why did I lose my job?" of "Got made redundant on Friday"); a key of several words
    # is asked when all of them are (a job asked alone is not searched by its loss)
    **dict.fromkeys((f"{lose} job" for lose in ("lose", "lost", "losing")),
                    ("redundant", "redundancy", "fired", "sacked", "laid")),
    # weight is told in its units ("How much weight have I lost?" of "Down two stone since January")
    "weight": ("stone", "pounds", "lbs", "kilos", "kg"),
    # a break-up is told as what ended ("Why did Fionn and I break up?" of "So, the engagement's off")
    **dict.fromkeys(("break up", "broke up", "split up", "breakup", "split"),
                    ("split", "engagement", "off", "over", "ended", "finished", "dumped")),
    # a burial is told as the funeral ("When was Uncle Paddy buried?" of "The funeral's the day after tomorrow")
    **dict.fromkeys(("buried", "bury", "burial", "cremated", "cremation"), ("funeral", "buried", "burial",
                                                                           "cremated", "cremation", "crematorium")),
    "funeral": ("buried", "burial", "cremated", "cremation", "crematorium"),
    # a wedding anniversary is told by its name ("When's the anniversary party?" of "their ruby wedding do"), and a
    # party by a word of its own, or as a "do" (words of more than one are said only as a whole)
    "anniversary": ("ruby wedding", "silver wedding", "golden wedding", "diamond wedding", "pearl wedding",
                    "years married"),
    # a home is told as where one is home, or back ("Home! Back in Portobello since last night")
    **dict.fromkeys(("live", "lives"), ("home",)),
    "party": ("bash", "celebration", "knees-up", "shindig", "wedding do", "leaving do", "birthday do", "works do",
              "christmas do", "retirement do", "engagement do", "anniversary do"),
}


def told_as(question: str) -> list[str]:
    """The words people tell what a question asks in (``ASKED_AS_TOLD``): "funeral" for "buried". Those of more than
    one word ("wedding do") are left out: searched word by word, "wedding" alone would be taken for a party."""
    words = set(re.findall(r"[a-z]+", question.lower()))
    return [w for key, told in ASKED_AS_TOLD.items() if set(key.split()) <= words for w in told if " " not in w]
# What an allergy (its object as said) rules out: the foods of that kind ("allergic to shellfish": no prawns)
ALLERGEN_FOODS: dict[str, frozenset[str]] = {
    "shellfish": frozenset("prawns prawn shrimp shrimps crab crabs lobster lobsters mussels scallops oysters clams "
                           "langoustines crayfish seafood".split()),
    **dict.fromkeys(("nuts", "tree nuts"), frozenset(
        "nut almonds almond cashews cashew walnuts walnut hazelnuts hazelnut pistachios pecans nutella marzipan "
        "pesto praline".split())),
    **dict.fromkeys(("peanuts", "peanut"), frozenset("peanut peanuts satay".split())),
    **dict.fromkeys(("eggs", "egg"), frozenset("egg eggs omelette omelet mayonnaise mayo meringue quiche".split())),
    **dict.fromkeys(("dairy", "milk"), frozenset("milk dairy cheese cream yoghurt yogurt butter ice".split())),
    **dict.fromkeys(("fish",), frozenset("fish salmon tuna cod haddock mackerel sardines anchovies sushi".split())),
    **dict.fromkeys(("wheat", "gluten"), frozenset("wheat gluten bread pasta pizza cake biscuits toast".split())),
    **dict.fromkeys(("sesame",), frozenset("sesame tahini hummus houmous".split())),
    **dict.fromkeys(("caffeine",), frozenset("coffee coffees espresso latte lattes cappuccino americano cola "
                                             "tea teas".split())),
}
DIET_EXCLUDES: dict[str, tuple[str, ...]] = {
    **{w: _NO_MEAT for w in "meat chicken beef pork lamb bacon steak burgers burger sausages ham turkey".split()},
    **{w: _NO_FISH for w in "fish seafood salmon tuna prawns shrimp sushi".split()},
    **{w: _NO_ANIMAL for w in "dairy cheese eggs egg milk butter honey yoghurt yogurt".split()},
    **{w: _NO_ALCOHOL for w in ("wine wines beer beers lager ale cider gin vodka whisky whiskey rum tequila prosecco "
                                "champagne cocktail cocktails booze alcohol pint pints bourbon brandy stout").split()},
}


# A time of life that is over: a state said in the simple past within one held then, not now ("We had a tortoise
# when I was little", "Back in school I played the trumpet"). Word sequences, matched in the sentence's words.
PAST_PERIODS = tuple(p.split() for p in (
    "when i was", "when we were", "as a kid", "as a child", "as a teenager", "as a teen", "as a boy", "as a girl",
    "as kids", "as children", "as teenagers", "growing up", "back in school", "back in college",
    "back in uni", "back in university", "back in high school", "back in the day", "in my teens",
    "in my twenties", "in my youth", "in my childhood", "at primary school", "in primary school",
    "at secondary school", "in high school", "years ago", "back then", "before i moved", "before we moved"))
# ...unless it goes on ("I loved horses as a kid and I still do")
STILL_NOW = tuple(p.split() for p in ("still", "to this day", "ever since", "since then", "these days", "now"))


def said_in(words: Sequence[str], phrase: Sequence[str]) -> bool:
    """The word sequence ``phrase`` is said in ``words`` (both lower case)."""
    n = len(phrase)
    return any(list(words[i : i + n]) == list(phrase) for i in range(len(words) - n + 1))


def in_a_time_gone(words: Sequence[str]) -> bool:
    """The sentence's words (lower case) place what it says in a time of life that is over ("when I was at uni",
    "back in school") and say nothing of it going on ("…and I still do"): so then, not now."""
    return any(said_in(words, p) for p in PAST_PERIODS) and not any(said_in(words, p) for p in STILL_NOW)
