"""Word lists for the rule extractor: pets, cars, instruments, sports, foods, jobs."""

from __future__ import annotations

from memory.words import AUXILIARIES, WH_WORDS


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# The kind a breed or pet word is of ("a retired greyhound" is a dog asked of; a hamster is not)
KIND_OF_PET: dict[str, str] = {
    **dict.fromkeys(_words(
        "puppy pup doggo husky greyhound beagle labrador poodle terrier spaniel collie retriever dachshund pug corgi "
        "bulldog chihuahua schnauzer whippet lurcher labradoodle cockapoo boxer rottweiler dalmatian doberman alsatian "
        "akita samoyed vizsla weimaraner sheepdog mastiff bichon westie staffie staffy cavapoo cavachon sprocker "
        "goldendoodle"), "dog"),
    **dict.fromkeys(_words("kitten kitty tabby siamese ragdoll moggy"), "cat"),
    "bunny": "rabbit", "budgerigar": "budgie", "pony": "horse", "goldfish": "fish"}
# Animals that take a pet ("A fox got John on Tuesday night", "the sparrowhawk had one of the budgies")
PREDATORS = frozenset(_words("fox foxes badger badgers hawk hawks sparrowhawk buzzard kite peregrine stoat weasel mink "
                             "polecat owl eagle heron pike"))
PETS = frozenset(
    _words(
        "dog cat rabbit hamster parrot budgie guinea pig tortoise turtle horse fish snake lizard ferret gecko "
        "chinchilla rat canary cockatiel hedgehog cockatoo axolotl iguana tarantula goat alpaca llama donkey gerbil"
    )
    + tuple(KIND_OF_PET)  # breeds and pet words said in place of the animal ("Luna, my husky")
)
# Before a pet: one that is gone ("my old dog", "my late cat")
PAST_PET = frozenset(_words("old late former first childhood previous"))
# What someone passes that is worth remembering ("I passed my driving test", "she passed her exams")
PASSED = frozenset(_words("test exam exams audition assessment course degree interview mot"))

CAR_BRANDS = frozenset(
    _words(
        "toyota volvo skoda škoda fiat ford bmw audi volkswagen vw honda tesla renault peugeot kia "
        "hyundai mazda nissan subaru mercedes opel citroen citroën dacia seat mini jeep chevrolet chevy "
        "lexus porsche jaguar suzuki mitsubishi polestar saab alfa lancia cupra chrysler dodge cadillac "
        "buick rivian byd vauxhall land lada smart infiniti acura genesis mg"
    )
)
# Makes that are also everyday words: a make only when said first ("a Smart", not "a really smart phone")
_BRAND_WORDS = frozenset(_words("land smart mini seat genesis"))
# Car models said without their make ("I drive an old Fiesta"); not those that are other things too (Golf, Polo)
CAR_MODELS = frozenset(
    _words(
        "fiesta focus corsa astra clio megane yaris corolla civic micra juke qashqai prius octavia fabia passat "
        "tiguan picanto sportage kuga puma captur panda punto camry rav4 impreza outback insignia mondeo "
        "zafira touran berlingo kangoo transit sandero duster ioniq niro"
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
        "taekwondo reading writing singing fishing camping travelling traveling skating snowboarding walking "
        "birdwatching kayaking canoeing volunteering gaming shopping hunting golfing skateboarding spin zumba "
        "aerobics crossfit"
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
# Posts said with a word of kin, after the word that makes them a post ("I'm a ward sister now"): the two words
KIN_POSTS = frozenset({"ward sister", "theatre sister", "nursing sister", "night sister", "lay brother"})
OCCUPATIONS = frozenset(
    _words(
        "nurse doctor teacher engineer electrician plumber pharmacist dentist lawyer accountant architect "
        "chef cook baker firefighter paramedic police officer developer programmer designer journalist "
        "writer librarian mechanic carpenter farmer pilot scientist researcher professor lecturer student "
        "surgeon vet veterinarian therapist psychologist consultant manager cashier waiter waitress "
        "barista translator photographer musician artist actor actress midwife receptionist secretary "
        "analyst economist banker salesman saleswoman driver technician tutor physiotherapist optician "
        "nanny cleaner butcher painter gardener electrical software data civil mechanical editor intern trainee "
        "apprentice planner surveyor administrator assistant solicitor barrister paralegal clerk carer counsellor "
        "counselor optometrist radiographer sonographer hygienist dietitian dietician nutritionist physician gp "
        "anaesthetist anesthetist psychiatrist podiatrist chiropractor osteopath porter postman postwoman courier "
        "builder bricklayer joiner roofer plasterer decorator welder machinist labourer landscaper florist "
        "hairdresser barber beautician stylist tailor jeweller jeweler chemist biologist physicist mathematician "
        "statistician actuary auditor bookkeeper broker copywriter reporter presenter producer animator illustrator "
        "curator archivist zookeeper ranger soldier detective sergeant constable steward stewardess attendant "
        "dispatcher tester coder bartender barman barmaid housekeeper childminder caretaker janitor lifeguard "
        "instructor trainer fisherman miner entrepreneur freelancer contractor councillor pastor priest vicar rabbi "
        "imam physio postie"
    )
)
# What a home is called ("a flat in Leith", "a little cottage in Devon"), and words that say its kind
DWELLINGS = frozenset(_words(
    "flat house home apartment place cottage bungalow terrace room semi studio maisonette houseboat bedsit rental"))
# Words that say a home bought is not lived in ("a holiday cottage", "a flat to let", "as an investment")
NOT_LIVED_IN = frozenset(_words("holiday second weekend rental investment let rent tenant tenants airbnb"))
# Words that make a home got a stay ("we got a cottage in Padstow for the week")
STAYED = frozenset(_words("week weeks night nights fortnight days stay staying break trip"))
DWELLING_KINDS = frozenset(_words("terraced detached semi-detached converted rented shared furnished council"))
# Who does a pastime, by its doer ("I'm a keen birdwatcher", "Tom's a golfer"): the pastime it names. A doer that is
# also a job ("gardener", "baker") is a pastime only with a word of one before it (`PASTIME_KEEN`).
HOBBYISTS: dict[str, str] = {
    "birdwatcher": "birdwatching", "birder": "birding", "cyclist": "cycling", "runner": "running",
    "smoker": "smoking", "vaper": "vaping",
    "jogger": "jogging", "swimmer": "swimming", "climber": "climbing", "boulderer": "bouldering",
    "golfer": "golf", "gardener": "gardening", "reader": "reading", "baker": "baking", "cook": "cooking",
    "knitter": "knitting", "hiker": "hiking", "walker": "walking", "rambler": "rambling",
    "photographer": "photography", "painter": "painting", "surfer": "surfing", "skier": "skiing",
    "snowboarder": "snowboarding", "sailor": "sailing", "angler": "fishing", "fisherman": "fishing",
    "dancer": "dancing", "singer": "singing", "gamer": "gaming", "camper": "camping", "kayaker": "kayaking",
    "rower": "rowing", "skater": "skating", "skateboarder": "skateboarding", "quilter": "quilting",
    "triathlete": "triathlon", "crocheter": "crochet", "potter": "pottery", "woodworker": "woodworking",
    "stargazer": "stargazing", "bookworm": "reading",
}
# The things a habit is of ("three months without a cigarette", "smoke-free"): the habit, a doing
HABIT_NOUNS: dict[str, str] = {"cigarette": "smoking", "cig": "smoking", "cigar": "smoking", "ciggie": "smoking",
                               "fag": "smoking", "smoke": "smoking", "vape": "vaping"}
PASTIME_KEEN = frozenset(_words(
    "keen avid passionate enthusiastic big huge massive serious amateur mad obsessive regular casual hobby weekend "
    "lifelong competitive occasional social fair-weather"))
# Posts one is made or appointed to, beside the occupations ("They made me head of science", "appointed lead")
RANKS = frozenset(_words("head director lead partner chair chairman chairwoman captain supervisor coordinator deputy "
                         "officer president principal headteacher headmaster headmistress leader"))
# Places of work named by what they are ("the bank", "the city council"): an employer even without a name
WORKPLACES = frozenset(
    _words(
        "bank hospital council school college university firm company shop store bakery cafe café restaurant "
        "pub bar hotel library museum factory warehouse office agency charity clinic surgery pharmacy "
        "supermarket garage airport airline station police army navy ministry department practice studio "
        "startup start-up lab laboratory newspaper nursery kindergarten academy institute gym salon farm brewery "
        "hospice prison court embassy cinema theatre centre center depot plant mill dealership workshop branch "
        "shipyard service trust"
    )
)
# Words for a workplace that say nothing of it alone: one only after a job and "at" ("a chef at an Italian place in
# Soho", "a barman at a little joint by the station"), never someone's ("at my place" is a home)
PLAIN_WORKPLACES = frozenset(_words("place joint outfit"))
# Parts of an employer one works in or moves between ("moved from sales into marketing at Unilever", "transferred to
# the Leeds office at KPMG")
DEPARTMENTS = frozenset(_words(
    "sales marketing finance accounts accounting hr payroll it legal operations engineering design support admin "
    "administration research development procurement purchasing logistics compliance audit tax recruitment "
    "communications comms pr product data analytics security facilities estates team department office branch "
    "site ward unit division desk"))
# Where in a workplace one starts ("started on the line at the Jaguar plant", "starting on the tills at Tesco")
WORK_POSTS = DEPARTMENTS | frozenset(_words("line tills till checkouts floor counter nights wards production"))
GROUP_WORDS = frozenset(
    _words("club team choir band society association league orchestra union group committee")
)
# What one joins as a member besides groups: "joined a gym", "joined a nearby church"
JOINED = GROUP_WORDS | frozenset(_words("gym church mosque synagogue temple congregation network guild"))
# Places of work one also joins as a member, a pupil or a visitor ("joined the library", "joined a nursery"): joined,
# they are no employer
JOINED_NOT_WORK = frozenset(_words(
    "library museum cinema theatre centre center service nursery kindergarten academy school college university "
    "studio trust"))
# Things one goes to or takes part in: "went to a fair", "took part in a charity walk"
EVENT_NOUNS = frozenset(_words(
    "fair convention conference festival concert gig wedding funeral meeting mtg party workshop show exhibition "
    "exhibit meetup rally parade fundraiser event match game race marathon ceremony seminar talk lecture reunion "
    "retreat protest vigil auction premiere recital tournament competition comp"))
# A class named by what it teaches ("a weekend yoga class", "guitar lessons")
CLASS_NOUNS = frozenset(_words("class classes course courses lesson lessons workshop"))
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
        "sort of basically honestly officially definitely right even so alone together currently happily "
        "super very pretty quite seriously kinda lowkey"
    )
)
# Said first to comment on the sentence, never a name ("Sadly Biscuit didn't make it": the tagger's "Sadly Biscuit")
COMMENT_ADVERBS = frozenset(
    _words(
        "sadly luckily unfortunately fortunately hopefully apparently obviously thankfully tragically annoyingly "
        "weirdly oddly amazingly surprisingly unbelievably clearly frankly literally funnily naturally"
    )
)
# After "my favourite": what makes the subject a taste of the speaker's ("… is my favourite thing to do"), not a
# person or a particular ("Anna is my favourite cousin")
FAVOURITE_OF = frozenset(_words(
    "thing things hobby hobbies pastime pastimes activity activities sport sports way "
    # kinds of thing liked ("Radiohead are my favourite band", "Adele is my favourite singer"); not "my favourite
    # cousin", nor "my favourite place in town" (a particular)
    "band bands group singer singers artist artists song songs album albums film films movie movies book books "
    "author authors writer writers show shows series programme programmes team teams dish dishes drink drinks food "
    "foods meal meals snack snacks colour color game games podcast podcasts city cities actor actors actress "
    "player players comedian comedians"))
# Of those, the kinds that are people: a name of a person is one liked ("Adele is my favourite singer")
FAVOURITE_PEOPLE = frozenset(_words(
    "singer singers artist artists author authors writer writers actor actors actress player players comedian "
    "comedians"))
# Races one runs or completes ("my first half marathon")
RACES = frozenset(_words("marathon marathons race races 5k 10k triathlon ultramarathon ultra parkrun relay"))
# Before an occupation: what they were and are no longer ("a retired teacher", "a former nurse", "an ex-pilot")
FORMER = frozenset({"retired", "former", "ex", "ex-", "erstwhile", "onetime"})
IRREALIS = frozenset(
    _words(
        "if would 'd might may could should will 'll wo want wants wanted wanting wanna hope hoped hoping plan plans "
        "planning thinking considering wish maybe perhaps going gonna supposed whether tomorrow someday"
    )
)
# What a diet goes without, said "<word>-free" ("gone gluten-free", "I'm dairy free now"): `avoids <word>`, beside
# any diet held (a vegan can be gluten-free too)
FREE_OF = frozenset(_words("gluten dairy wheat lactose sugar alcohol meat nut egg caffeine"))
# What a trip is called ("a family road trip", "our holiday in Crete")
TRIP_WORDS = frozenset(_words("trip holiday holidays vacation cruise getaway honeymoon"))
# What calls a plan off ("We've cancelled Portugal", "had to scrap the trip to Rome")
CALLED_OFF = frozenset(_words("cancel scrap axe"))
# Before "to be" a post, work towards it: not held yet ("training to be a teacher", "studying to be a vet")
TOWARDS = frozenset(_words("train retrain study aim aspire strive qualify learn work"))
# Said just before a verb, what nearly happened did not ("We nearly bought a house in Bath")
NOT_QUITE = frozenset(_words("nearly almost"))
# Before a span of days, how often rather than how long: "most days on my bike" is a habit, not a trip
HOW_OFTEN = frozenset(_words("most some many all other alternate these those every"))
# Words that make a verb a habit ("I knit a lot", "we camp most summers"): a verb whose past is its own form ("knit",
# "cut") is read as present with them, whatever the tagger guessed
HABIT_SAID = frozenset(_words("every most lot often usually always regularly daily weekly nightly loads"))
# Of those, the words of an intention: no fact yet, but a plan where a pattern says one ("I'm going to Rome")
INTENT = frozenset(_words("will 'll plan plans planning going gonna tomorrow"))
# Words that put a trip ahead without a verb of going ("can't wait for our trip", "looking forward to the holiday")
AHEAD = INTENT | frozenset(_words("wait forward booked upcoming"))
# What people keep that is a fact about them ("my neighbour keeps bees", "we keep hens"): animals kept, and
# pets (PETS); not "keep an eye on", "keep track", "keep in touch".
KEPT = frozenset(
    _words(
        "bee bees hive hives chicken chickens hen hens duck ducks goose geese goat goats pigeon pigeons sheep "
        "pig pigs alpaca alpacas llama llamas quail cow cows pony ponies horse horses allotment allotments"
    )
)
# Diets said as what someone is or went ("I've gone vegan", "she's pescatarian").
DIETS = frozenset(_words("vegan vegetarian veggie pescatarian pescetarian keto carnivore plant-based teetotal"))
# The same diets said another way ("the veggie thing", "gave up on veganism"): word -> the diet stored
DIET_NAMES: dict[str, str] = {**{d: d for d in DIETS}, "veggie": "vegetarian", "veganism": "vegan",
                              "vegetarianism": "vegetarian", "pescetarianism": "pescetarian",
                              "pescatarianism": "pescatarian"}
# Verbs of an attempt: what follows "trying to" is not (yet) so ("Trying to go vegetarian for January")
TRY = frozenset(_words("try tries trying tried attempt attempts attempting attempted"))
# Long-term health conditions, said as a noun ("I've got asthma") or by their adjective ("I'm diabetic"): the
# adjective -> the condition's name
CONDITION_ADJECTIVES: dict[str, str] = {
    "diabetic": "diabetes", "asthmatic": "asthma", "epileptic": "epilepsy", "coeliac": "coeliac disease",
    "celiac": "celiac disease", "anaemic": "anaemia", "anemic": "anemia", "autistic": "autism",
    "dyslexic": "dyslexia", "dyspraxic": "dyspraxia", "arthritic": "arthritis"}
CONDITIONS = frozenset(_words(
    "asthma diabetes epilepsy arthritis migraines eczema psoriasis adhd autism dyslexia dyspraxia ibs tinnitus "
    "sciatica gout dementia parkinson's alzheimer's lupus fibromyalgia endometriosis pcos anaemia anemia"))
# An injury: what is done to a part of the body ("I hurt my shoulder", "John sprained his ankle"), stored as the
# event `injured <part>`. Not "broke my heart", "hurt my feelings": those parts are not in the table.
INJURIES = frozenset(_words("hurt injure break sprain twist pull tear fracture dislocate strain bruise damage"))
BODY_PARTS = frozenset(_words(
    "ankle ankles knee knees back shoulder shoulders wrist wrists arm arms leg legs foot feet hip hips neck elbow "
    "elbows hand hands finger fingers thumb toe toes hamstring hamstrings calf groin rib ribs collarbone nose jaw "
    "tooth teeth achilles acl ligament ligaments spine pelvis shin shins"))
# Verbs whose past is their plain form: the tagger reads "I hurt my back" as the present; an event told is past
SAME_IN_THE_PAST = frozenset(_words("hurt cut put hit split burst quit let set shut bet cast"))
# Done now for something later: a time said with these is the later thing's ("signed up for a race in October")
FOR_LATER = frozenset({"signed_up_for"})  # not "enrolled in a course in January": that is often when
# What is done to a home or a job one no longer has ("I sold my house in Leeds", "I miss my job at the bakery")
# Verbs of a trade, done for an employer ("Dad drives buses for Arriva", "she writes for the Guardian"); each
# one's doer is in OCCUPATIONS (agent_noun). Not "paint": a hobby first ("painting landscapes for years"); not
# "teach": its own row reads the employer ("teaches yoga for Nuffield Health")
TRADE_VERBS = frozenset(_words("drive nurse clean cook write design code build report edit photograph "
                               "illustrate tutor instruct translate"))
# verbs of giving up that give up a doing only ("packed in teaching", "stopped smoking"; not "stopped the car")
SET_ASIDE = frozenset(_words("pack jack chuck stop kick quit bin ditch"))
LEFT_BEHIND = frozenset(_words("sell leave quit miss vacate lose"))
# What is done to a new home one has got ("We completed on the new place in York", "got the keys to the new house")
HOME_GOT = frozenset(_words("complete buy get move settle rent"))
# Words before an animal that make it a thing, not a pet ("that stuffed animal dog you gave me", "a toy cat")
NOT_ALIVE = frozenset(_words("stuffed toy cuddly soft plush plastic wooden china ceramic porcelain inflatable robot "
                             "robotic cardboard knitted crocheted"))
# What one is said to be expecting when it is a baby ("expecting our second", "expecting twins", "a little girl")
BABY_WORDS = frozenset(_words("baby babies twins triplets second third fourth first child boy girl another little one "
                              "bump sibling"))
# Relations of an event entered now whose time said ahead is the event's ("Signed up for the London marathon next
# April"): kept as a plan for then, not dropped as a fact not yet true
ENTERED_FOR = frozenset({"signed_up_for"})
# A job left without naming the employer ("I quit my job", "she left the army", "quit the ambulance service"):
# the work said before ends, whatever it was. The words that name a job, or a body one serves in as a career.
JOB_HELD = frozenset(_words("job position post role career army navy police force service marines company firm"))
# Tried and so being done: "I'm trying to learn Portuguese" is learning it ("trying to go vegan" is not vegan)
TRIED_IS_DONE = frozenset(_words("learn study improve practise practice"))
# Where people study: a place of study named by one of these ("Leeds uni", "Exeter University", "the sixth form")
STUDY_PLACES = frozenset(_words("uni university college school academy polytechnic conservatoire conservatory form "
                                "primary high grammar infants juniors"))  # ("Oakridge Primary", "Hillside High")
# Doing a course or degree: the verbs that say it is being done now ("doing an MA", "starting a PhD")
STUDYING = frozenset(_words("do start begin study take pursue"))
# Words before "team" that name no team ("we're on the same team", "the winning team")
NOT_A_TEAM = frozenset(_words("same other winning losing right wrong whole entire home away opposing rival"))
# Verbs that mean little without what follows: a gerund of one alone is no taste ("I love going")
LIGHT_VERBS = frozenset(_words("go do get make take try check have be put keep see give come start"))
# Words that open a clause which cannot stand alone ("When I was at uni", "Since we moved")
SUBORDINATORS = frozenset(_words("when while whilst as since because once until till before after although though if "
                                 "whenever unless"))
# Prepositions that say where or when an activity happens, not what it is ("hiking in the Alps" is hiking)
GERUND_SETTINGS = frozenset(_words("in at on during than like because so if"))
# Verbs whose plan says too little to keep ("I'm going to check it out", "I'll let you know", "gonna try harder"), or
# that another reader owns (a trip, a taste, a job)
PLAN_SKIP = frozenset(_words(
    "be have do get make go come take try check keep see give put let tell say talk ask think know find figure look "
    "wait need want hope love like enjoy miss stay sleep rest relax chill hang catch send show call text update help "
    "work visit fly travel head drive move live focus continue share post remember forget use spend"))
# What a baby is called when it is born ("had a baby girl", "had twins"), with the gender the word says
NEWBORNS: dict[str, str | None] = {"baby": None, "newborn": None, "twins": None, "triplets": None, "boy": "m",
                                   "girl": "f", "son": "m", "daughter": "f"}
# Irregular past tenses that open a sentence with its "I" left out ("Got back from Peru", "Took up archery");
# spaCy's small model tags a capitalised one as a name or a present verb, so the word itself is read
PAST_OPENERS: dict[str, str] = dict(w.split(":", 1) for w in _words(  # the past form, and its verb
    "got:get went:go came:come flew:fly drove:drive had:have spent:spend took:take made:make met:meet saw:see "
    "found:find left:leave ran:run bought:buy tore:tear broke:break sprained:sprain pulled:pull twisted:twist "
    "hurt:hurt"))
SUBJECT_PRONOUNS = frozenset(_words("i we she he they it you"))
# A sentence with a "?" that opens with one of these asks something (contracted forms as a transcript writes them).
QUESTION_STARTS = frozenset({*WH_WORDS, *AUXILIARIES, "what's", "whats", "who's", "where's", "how's"})
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
    # a make said first or before its model, after words that describe it ("a second-hand Honda Jazz")
    if first in CAR_BRANDS or head in VEHICLES or head in CAR_MODELS or (
            len(low) > 2 and low[-2] in CAR_BRANDS and low[-2] not in _BRAND_WORDS):
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


# A line of work said by its trade, and who works in it: teaching -> teacher, nursing -> nurse, accountancy ->
# accountant, law -> lawyer, journalism -> journalist, carpentry -> carpenter
_TRADE_ENDINGS = (("ing", "er"), ("ing", "e"), ("ing", ""), ("ancy", "ant"), ("ency", "ent"), ("ism", "ist"),
                  ("ry", "er"), ("ry", ""), ("y", "ist"), ("y", "er"), ("", "yer"), ("", "er"))


def agent_noun(verb: str) -> str | None:
    """Who does the work a verb names, when that is a job ("drive" -> driver, "edit" -> editor, "nurse")."""
    low = verb.lower()
    stem = low[:-1] if low.endswith("e") else low
    return next((w for w in (low + "er", low + "r", low, stem + "or", low + "or") if w in OCCUPATIONS), None)


def trade_worker(word: str) -> str | None:
    """Who works in a trade said by its name ("packed in teaching" -> teacher), or None when it names none."""
    low = word.lower()
    for ending, worker in _TRADE_ENDINGS:
        if low.endswith(ending) and len(low) - len(ending) >= 3:
            candidate = low[: len(low) - len(ending)] + worker
            if candidate in OCCUPATIONS and candidate != low:
                return candidate
    return None
