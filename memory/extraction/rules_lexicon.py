"""Word lists for the rule extractor: kin and social roles, pets, cars, instruments, sports, foods, jobs."""

from __future__ import annotations


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# role word -> (relation, gender). "my sister Anna" -> (Anna sister_of user); reports_to is the user's arc.
ROLES: dict[str, tuple[str, str | None]] = {
    "sister": ("sister_of", "f"),
    "brother": ("brother_of", "m"),
    "sibling": ("sibling_of", None),
    "mother": ("mother_of", "f"),
    "mom": ("mother_of", "f"),
    "mum": ("mother_of", "f"),
    "mommy": ("mother_of", "f"),
    "mummy": ("mother_of", "f"),
    "father": ("father_of", "m"),
    "dad": ("father_of", "m"),
    "daddy": ("father_of", "m"),
    "papa": ("father_of", "m"),
    "parent": ("parent_of", None),
    "daughter": ("daughter_of", "f"),
    "son": ("son_of", "m"),
    "child": ("child_of", None),
    "kid": ("child_of", None),
    "grandmother": ("grandparent_of", "f"),
    "grandma": ("grandparent_of", "f"),
    "granny": ("grandparent_of", "f"),
    "nan": ("grandparent_of", "f"),
    "nana": ("grandparent_of", "f"),
    "grandfather": ("grandparent_of", "m"),
    "grandpa": ("grandparent_of", "m"),
    "granddad": ("grandparent_of", "m"),
    "grandparent": ("grandparent_of", None),
    "grandson": ("grandchild_of", "m"),
    "granddaughter": ("grandchild_of", "f"),
    "grandchild": ("grandchild_of", None),
    "aunt": ("aunt_of", "f"),
    "auntie": ("aunt_of", "f"),
    "uncle": ("uncle_of", "m"),
    "cousin": ("cousin_of", None),
    "niece": ("niece_of", "f"),
    "nephew": ("nephew_of", "m"),
    "wife": ("spouse_of", "f"),
    "husband": ("spouse_of", "m"),
    "spouse": ("spouse_of", None),
    "partner": ("partner_of", None),
    "girlfriend": ("partner_of", "f"),
    "boyfriend": ("partner_of", "m"),
    "fiancee": ("partner_of", "f"),
    "fiancé": ("partner_of", "m"),
    "fiancée": ("partner_of", "f"),
    "fiance": ("partner_of", "m"),
    "friend": ("friend_of", None),
    "buddy": ("friend_of", None),
    "pal": ("friend_of", None),
    "neighbour": ("neighbour_of", None),
    "neighbor": ("neighbour_of", None),
    "colleague": ("colleague_of", None),
    "coworker": ("colleague_of", None),
    "co-worker": ("colleague_of", None),
    "workmate": ("colleague_of", None),
    "manager": ("reports_to", None),
    "boss": ("reports_to", None),
    "supervisor": ("reports_to", None),
}

PETS = frozenset(
    _words(
        "dog cat kitten puppy pup rabbit bunny hamster parrot budgie guinea tortoise turtle horse pony "
        "goldfish fish snake lizard ferret gecko chinchilla rat canary cockatiel hedgehog"
    )
)
CAR_BRANDS = frozenset(
    _words(
        "toyota volvo skoda škoda fiat ford bmw audi volkswagen vw honda tesla renault peugeot kia "
        "hyundai mazda nissan subaru mercedes opel citroen citroën dacia seat mini jeep chevrolet chevy "
        "lexus porsche jaguar suzuki mitsubishi polestar saab alfa lancia cupra chrysler dodge cadillac "
        "buick rivian byd vauxhall land lada smart infiniti acura genesis mg"
    )
)
VEHICLES = frozenset(
    _words("car van truck motorbike motorcycle scooter suv hatchback pickup camper campervan moped")
)
INSTRUMENTS = frozenset(
    _words(
        "piano guitar violin cello viola bass drums drum trumpet trombone saxophone sax flute clarinet "
        "oboe bassoon harp ukulele banjo mandolin accordion harmonica keyboard keyboards organ tuba "
        "synthesizer recorder"
    )
)
SPORTS = frozenset(
    _words(
        "football soccer tennis badminton basketball volleyball golf rugby cricket hockey baseball squash "
        "handball padel pickleball netball darts snooker pool bowling table ping"
    )
)
GAMES = frozenset(_words("chess poker bridge go scrabble sudoku backgammon checkers"))
ACTIVITIES = frozenset(
    _words(
        "yoga pilates judo karate boxing climbing bouldering running jogging swimming cycling hiking "
        "knitting pottery painting drawing photography gardening baking cooking dancing meditation "
        "surfing skiing sailing rowing fencing crochet sewing woodworking archery tai chi kickboxing "
        "taekwondo"
    )
)
LANGUAGES = frozenset(
    _words(
        "english spanish french german italian portuguese dutch polish russian ukrainian chinese mandarin "
        "cantonese japanese korean arabic hindi turkish greek swedish norwegian danish finnish czech "
        "hebrew latin welsh irish"
    )
)
FOODS = frozenset(
    _words(
        "coffee tea wine beer cheese chocolate sushi pizza pasta olives olive pickles curry ramen bread "
        "meat fish chicken beef pork vegetables fruit mango mangoes apples bananas strawberries nuts "
        "peanuts shellfish mushrooms garlic onions eggs milk juice lassi cake cookies ice cream oysters "
        "seafood tofu rice noodles salad soup spinach broccoli kale avocado tomatoes chili chilli food "
        "cuisine dumplings tacos burgers whisky whiskey gin rum vodka cider kombucha smoothies lemonade "
        "cola soda latte espresso decaf"
    )
)
OCCUPATIONS = frozenset(
    _words(
        "nurse doctor teacher engineer electrician plumber pharmacist dentist lawyer accountant architect "
        "chef cook baker firefighter paramedic police officer developer programmer designer journalist "
        "writer librarian mechanic carpenter farmer pilot scientist researcher professor lecturer student "
        "surgeon vet veterinarian therapist psychologist consultant manager cashier waiter waitress "
        "barista translator photographer musician artist actor actress midwife receptionist secretary "
        "analyst economist banker salesman saleswoman driver technician tutor physiotherapist optician "
        "nanny cleaner butcher painter gardener electrical software data civil mechanical editor"
    )
)
GROUP_WORDS = frozenset(
    _words("club team choir band society association league orchestra union group committee")
)
# Words that end a noun phrase because they start a time phrase or are sentence adverbs.
NP_STOP = frozenset(
    _words(
        "last this next every each yesterday today tonight tomorrow lately recently anymore now there "
        "here again too either completely instead these those already still ever since twice once online"
    )
)
# Adverbs and particles skipped between the words of a pattern.
SOFT = frozenset(
    _words(
        "just really finally recently also still actually already now then truly totally absolutely kind "
        "sort of basically honestly officially definitely right even so"
    )
)
IRREALIS = frozenset(
    _words(
        "if would 'd might may could should will 'll wo want wants wanted hope hoping plan plans planning "
        "thinking considering wish maybe perhaps going gonna supposed whether tomorrow someday"
    )
)
SUBJECT_PRONOUNS = frozenset(_words("i we she he they it you"))
POSSESSIVES = frozenset(_words("my our his her their its your"))
QUESTION_STARTS = frozenset(
    _words(
        "what what's whats who who's where where's when why how how's which whose can could would will "
        "shall should do does did is are am was were have has may might"
    )
)
REQUEST_VERBS = frozenset(
    _words(
        "tell set remind play turn switch recommend suggest give show find call text send open start stop "
        "read spell translate add put make check look search help let book order cancel define explain "
        "pause resume skip repeat"
    )
)


def category(words: str) -> str | None:
    """Rough kind of a noun phrase: car, instrument, sport, game, activity, language, food, pet, group."""
    low = words.lower().replace("the ", "").split()
    if not low:
        return None
    head, first = low[-1], low[0]
    if first in CAR_BRANDS or head in VEHICLES:
        return "car"
    if head in INSTRUMENTS:
        return "instrument"
    if head in SPORTS or first in SPORTS:
        return "sport"
    if head in GAMES:
        return "game"
    if head in PETS:
        return "pet"
    if head in LANGUAGES and len(low) == 1:
        return "language"
    if head in FOODS or first in FOODS:
        return "food"
    if head in ACTIVITIES or head.endswith("ing"):
        return "activity"
    if head in GROUP_WORDS:
        return "group"
    return None
