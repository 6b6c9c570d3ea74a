"""The predicate lexicon: word patterns ("move|relocate to O") and a matcher over Tok sequences (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import takewhile

from memory.extraction.rules_lexicon import (
    BODY_PARTS,
    CALLED_OFF,
    CONDITION_ADJECTIVES,
    CONDITIONS,
    DIETS,
    DWELLING_KINDS,
    DWELLINGS,
    FREE_OF,
    INJURIES,
    PETS,
    PREDATORS,
    SOFT,
    TRADE_VERBS,
    TRIP_WORDS,
    WORK_POSTS,
)
from memory.extraction.rules_tokens import Tok
from memory.words import POSSESSIVES


@dataclass(frozen=True)
class Pattern:
    """A trigger pattern. rel: a relation name, or '@handler' when the relation depends on the object.

    Elements: 'a|b' (lemma or word), '[a|b]' optional, '~' filler (det/adj/adv/num), '*' up to three
    non-verb words, 'O'/'O2' object slots, 'D' the rest of the clause (a date).
    neg: 'skip' (negated -> nothing; with 'anymore' -> end), 'flip' (likes -> dislikes), 'ignore', 'require'.
    state: a state verb (simple past without 'used to' is an event, skipped).
    """

    spec: str
    rel: str
    op: str = "assert"
    state: bool = False
    neg: str = "skip"
    proper: bool = False  # objects must be names
    plan: bool = False  # words of intention ("going", "will") make it a plan, not a wish (the handler decides)
    event: bool = False  # said in the past only ("I ran a marathon"; not "I run marathons", "I'll attend")
    named: bool = False  # the object must begin with a name, or the row does not match and later ones are tried
    present: bool = False  # the trigger must be a present-tense verb, or the row does not match (later ones tried)
    common: bool = False  # the object must not open on a name, or the row does not match (later ones tried)


def _p(spec: str, rel: str, op: str = "assert", **kw: object) -> Pattern:
    return Pattern(spec, rel, op, **kw)  # type: ignore[arg-type]


_LIKE = "love|like|adore|enjoy|prefer|fancy|dig"
_DWELLING = "|".join(sorted(DWELLINGS))
_TRADE = "|".join(sorted(TRADE_VERBS))
_DIET = "|".join(sorted(d for d in DIETS if "-" not in d))  # a hyphenated word is three tokens
_POSSESSIVE = "|".join(sorted(POSSESSIVES))
_DWELLING_KIND = "|".join(sorted(DWELLING_KINDS))
_PET = "|".join(sorted(PETS))
_PREDATOR = "|".join(sorted(PREDATORS))
_WORK_POST = "|".join(sorted(WORK_POSTS))
_TRIP = "|".join(sorted(TRIP_WORDS))
_CALLED_OFF = "|".join(sorted(CALLED_OFF))
_FREE_OF = "|".join(sorted(FREE_OF))
PATTERNS: list[Pattern] = [
    # corrections of kinship / names
    _p("name be|'s O", "@name_is"),
    _p("be call|name O", "@called"),
    _p("be my|our O", "@is_my_role"),
    # a trip made, said by what kind it was ("just got back from a family road trip", "we went on a ski holiday")
    _p(f"get|come back|home from * {_TRIP}", "@trip_event", event=True),
    _p(f"go on * {_TRIP}", "@trip_event", event=True),
    # residence, origins
    # the town said after the kind of home ("I live in a flat in Leith", "we rent a two-bed terrace in Salford")
    _p(f"live|reside [out|over|up|down|back] in ~ {_DWELLING} in O", "lives_in", state=True, proper=True),
    _p(f"live|reside [out|over|up|down|back] in ~ {_DWELLING_KIND} {_DWELLING} in O", "lives_in", state=True,
       proper=True),
    # "I live out in Gdansk", "Mum lives on her own in Carlisle"
    _p(f"live|reside [out|over|up|down|back|alone] [on] [{_POSSESSIVE}] [own] in O", "@live_in", state=True,
       proper=True),
    # alone, with no one ("Mum lives on her own", "Mum's on her own now")
    _p("live|living alone|solo", "@alone", state=True),
    _p(f"live|living on {_POSSESSIVE} own", "@alone", state=True),
    _p(f"be on {_POSSESSIVE} own now", "@alone"),
    # a home said as being away somewhere a while ("Callum has been out in Calgary for six years")
    _p("be out|over|away in O", "@out_in", state=True),
    # a trip is not a home: "just got back from Peru", "ten days in Vietnam", "a weekend in Paris"
    _p("back|home from O", "visited", proper=True),
    # an island takes "on": "ten days on Skye"
    # …made or ahead ("can't wait for our trip to Japan in May")
    _p("days|week|weeks|weekend|fortnight|holiday|holidays|vacation|trip|honeymoon|getaway in|to|on O", "@trip_noun",
       proper=True, plan=True, neg="ignore"),
    # a trip made ("we flew to Lisbon", "I've been to Japan") or planned ("I'm flying to Lisbon in June", "going to
    # a workshop in Santa Fe"): a named place, or the town after what is gone to
    _p("go|going back to eat|eating O", "@diet_back"),  # "I've gone back to eating meat": no trip
    _p("fly|travel|head|drive|go|going|been|sail|cycle [off|away|over|back|out|down|up] to O", "@trip", plan=True),
    _p("be off to O", "@trip", plan=True),  # "we're off to Crete on the 12th": on the way, or soon
    # a shared home: the town, and who it is shared with ("I rent a room in Bristol with Priya")
    _p(f"share|rent ~ {_DWELLING} in O with O2", "@share_home", state=True),
    _p(f"share|rent ~ {_DWELLING} with O2", "@share_home", state=True),
    # with whom, and where when said after them ("I live with my girlfriend in Oslo")
    _p("live|living [at] [home] with me|us", "@live_with", state=True),  # "Mum lives with us now", "…at home with us"
    _p("live|living with O", "@live_with", state=True, proper=True),
    _p("move [back] in with O", "@move_in"),
    _p("move out of O", "@move_out"),
    # someone who moved out no longer lives with the speaker ("Rory's moved out to live with his girlfriend")
    _p("move out", "@moved_out"),
    _p("fly|leave the nest", "@moved_out"),  # "Dylan's flown the nest"
    _p("move|relocate|emigrate|go [back|over|away] from O to O2", "@move_from", proper=True),
    _p("leave O for O2", "@move_from", proper=True),  # "we're leaving Brisbane for Toowoomba" (not for a week away)
    # a move to an employer, said with the post ("I've moved over to Arup as a transport planner"): a job, not a home
    _p("move|transfer|switch [back|over|across|away] to O as O2", "@move_as", proper=True),
    # moved within an employer, from one part of it to another ("I've moved from sales into marketing at Unilever",
    # "transferred to the Leeds office at KPMG"): the employer
    _p("move|transfer|switch [back|over|across] * into|to O at O2", "@moved_within", common=True),
    _p("move|relocate|emigrate [back|over|away|out|up|down] to O", "lives_in", proper=True),
    _p("move|relocate|transfer|post me|us to O", "@moved_me", proper=True),  # "The company relocated me to Aberdeen"
    _p("move [back] house|home to O", "lives_in", proper=True),  # "we moved house to Didsbury", "moved back home to…"
    _p("settle [down] in O", "lives_in", proper=True),
    # a move said by the home moved into ("we just moved into a flat in Glasgow")
    _p(f"move|moving into ~ [care|nursing|retirement|council|studio|student|family] {_DWELLING} in O", "lives_in",
       proper=True),
    # someone moved by the speaker ("We've had to move Nana into a care home in Prestatyn"): their home
    # ("flat" may be tagged an adjective; "a care home near us in Lincoln")
    _p(f"move|moving O into|to ~ {_DWELLING} [near] [us|me|them|her|him] in O2", "@moved_someone"),
    _p(f"move|moving O into|to ~ care|nursing|retirement|council {_DWELLING} [near] [us|me|them|her|him] in O2",
       "@moved_someone"),
    # moved near the speaker, the town unsaid ("We've moved Nan into a care home near us", "Dad's moved to a flat
    # near me"): the home before is no longer theirs
    _p(f"move|moving O into|to ~ [care|nursing|retirement|council] {_DWELLING} near us|me", "@moved_near"),
    _p(f"move|moving into|to ~ [care|nursing|retirement|council] {_DWELLING} near us|me", "@moved_near"),
    _p("be ~ based in O", "lives_in", state=True, proper=True),
    _p("call O home", "@call_home", state=True),  # "I've called Berlin home for six years"
    _p("home be O", "@home_is", state=True),  # "Home is a flat above a bakery in Stockport", "my home's Leeds"
    # the speaker's home by its noun ("my flat in Leith", "our place in Lyon")
    _p("flat|house|home|apartment|place|cottage in O", "@home_noun", state=True, proper=True),
    _p("born in|at O", "born_in", proper=True),
    # where someone is from ("I'm originally from Cork", "my mum comes from Jamaica"): a town or country only; not
    # a coming back ("I'm back from Lisbon" is a trip)
    _p("be|come|hail [originally|actually|really|both|all|also] from O", "@from", state=True, proper=True),
    # a home bought in a town ("We've sold up and bought a semi in Wokingham"): where they live, unless it is said
    # to be a second one or to let
    _p(f"buy|purchase ~ {_DWELLING} [,] in O", "@bought_home", event=True, proper=True),  # "our first house, in Kent"
    _p(f"buy|purchase ~ {_DWELLING_KIND} {_DWELLING} in O", "@bought_home", event=True, proper=True),
    # a purchase said by its legal steps ("We've exchanged on a flat in Croydon", "completed on a semi in Hove")
    _p(f"exchange|complete on ~ {_DWELLING} [,] in O", "@bought_home", event=True, proper=True),
    _p(f"exchange|complete on ~ {_DWELLING_KIND} {_DWELLING} in O", "@bought_home", event=True, proper=True),
    # a home of their own got ("Me and Isla have got our own place in Dundee"): theirs alone, and where
    _p(f"get|buy|find|rent ~ own {_DWELLING}", "@own_home", event=True),
    # a home got or found ("I've got a flat in Lisbon now"): a room or a place may be a hotel's or a university's
    _p("get|find ~ flat|house|apartment|cottage|bungalow|maisonette|terrace|semi|bedsit in O", "@bought_home",
       event=True, proper=True),
    _p("rent|renting in O", "lives_in", state=True, proper=True),  # "we're renting in Clifton at the moment"
    _p(f"rent|renting ~ {_DWELLING} in O", "lives_in", state=True, proper=True),
    _p(f"rent|renting ~ bed|bedroom|bedroomed|{_DWELLING_KIND} {_DWELLING} in O", "lives_in", state=True, proper=True),
    _p("born on D", "@born_on"),
    _p("birthday be|fall|'s [on] D", "@birthday"),
    _p("grow up in|near O", "grew_up_in", proper=True),
    _p("raised in O", "grew_up_in", proper=True),
    # work
    _p("work|working [nights|days|lates|earlies|weekends|shifts] as O", "@works_as", state=True),
    _p("promote to O", "@works_as"),
    _p("qualify|qualified as O", "@works_as"),  # "I've just qualified as a driving instructor" (a post only)
    _p("retrain|requalify|retrained|requalified as O", "@works_as"),  # "retrained as a plumber" (a post only)
    # taken on by an employer ("I've just been taken on as a sous chef at The Fig Tree", "got hired as a driver")
    _p("be|get take|hire|employ|recruit [on] as O", "@works_as"),
    _p("be|get take on at|by O", "works_at", proper=True),
    _p("get|start|land|find|take|accept ~ job|position|role|post as O", "@works_as"),  # "got a new job as a paramedic"
    # retired: the work said now ("I'm retired now", "Dad retired last year"); "retired from X" ends that job (the
    # handler reads the workplace after "from")
    _p("be|get [now|fully|semi|happily|recently|officially|finally|just] retired", "@retired", state=True),
    _p("retire", "@retired", plan=True),  # "I'll retire from the council next year": working there till then
    # a job lost, said in the passive ("got made redundant", "was laid off"): the work said before ends
    _p("be|get make redundant", "@job_left"),
    _p("be|get make O", "@works_as"),  # "I've been made practice manager", "she got made a partner" (a post only)
    _p("be|get lay off", "@job_left"),
    _p("be|get let go", "@job_left"),
    _p("be|get fire|sack", "@job_left"),
    # the thing first, then what it does to the speaker ("Mushrooms make me gag"), before what makes them something
    _p("make|makes me gag|retch|heave|queasy|nauseous|shudder", "@turns_stomach", state=True),
    # the speaker's job taken by the employer ("Halfords made me redundant in May", "they laid me off"): it ends
    _p("make me redundant", "@let_me_go"),
    _p("lay me off", "@let_me_go"),
    _p("make|appoint|name me O", "@made_me"),  # "They made me head of science": the speaker's new post
    _p("leave|quit|lose ~ job|position|post|role at|with|in O", "works_at", "end", proper=True),
    _p("stop|quit work|working at|for|with O", "works_at", "end", proper=True),
    _p("hand|give|put in ~ notice|resignation at|to|with O", "works_at", "end", proper=True),
    # notice handed in with no employer named ("Handed my notice in today"): the job said before ends; not a home's
    # ("gave notice on the flat")
    _p("hand|give|put in ~ notice|resignation", "@notice"),
    _p("hand|give|put ~ notice|resignation in at|to|with O", "works_at", "end", proper=True),  # "… in at Boots"
    _p("hand|give|put ~ notice|resignation in", "@notice"),
    _p("resign from O", "works_at", "end", proper=True),
    # a contract of work signed with an employer by name (not a phone's: "a two-year contract with Vodafone")
    _p("sign ~ permanent|employment|job|work|teaching|nursing|staff contract with|at O", "works_at", proper=True),
    _p("fire|lay [off] from|by O", "works_at", "end", proper=True),
    _p(
        "get|start|land|find|begin|take|accept|have ~ job|position|role|post|gig|internship at|with|for|in O",
        "works_at",
        proper=True,
    ),
    _p("first day|shift|week ~ [work|working|job] at|for|with|in O", "works_at", proper=True),
    _p("start|begin work|working at|for|with O", "works_at", proper=True),
    _p("start|begin at O as", "works_at", proper=True),  # "I started at the council as an analyst"
    _p("start|begin at O * as", "works_at", proper=True),  # "… at Screwfix on Monday as an operations lead"
    _p("start|begin [work|working] as O", "@works_as"),  # "I start as a trainee electrician on Monday"
    # the first of a post ("First week done as a trainee paramedic", "my first shift as a carer"): a post only
    _p("first day|week|shift|month|fortnight [done|over|back|in] as O", "@works_as"),
    # the last of a job ("last shift at the depot today", "my last day at Halfords")
    _p("last day|shift|week at O", "works_at", "end", proper=True),
    _p("finished [up|work|working] at O", "works_at", "end", proper=True),  # "Finished at Lloyds on Friday" (said done)
    # the speaker's last day of work said with its day ("my last shift's on the 30th", "My last day was Friday"): the
    # job ends (when the day is ahead, from now: it is given up)
    _p("last day|shift|week be|'s D", "@last_day", plan=True),
    # a workplace run by the speaker ("I manage the Red Lion pub")
    _p("manage|managing O", "@manage", state=True, proper=True),
    _p("employ|hire|recruit by|at O", "works_at", proper=True),
    _p("work|working [nights|days|lates|earlies|weekends|shifts] at|for|with O", "works_at", state=True, proper=True),
    _p("work|working in * at|for O", "works_at", state=True, proper=True),  # "I work in marketing at Unilever"
    _p(f"{_TRADE} * for O", "@trade_for", state=True, named=True),  # "Dad drives buses for Arriva"
    # work done for a firm by name ("I'm doing deliveries for Amazon now", "she does admin for Network Rail")
    _p("do|doing deliveries|shifts|admin|work|cleaning|driving|nights|security|bookkeeping|IT|HR for O", "@trade_for",
       state=True, named=True),
    # the speaker's work named by a noun ("my boss at the bakery", "my shift at the hospital", "my new job at Acme")
    _p("job|jobs|shift|shifts|boss|manager|colleague|colleagues|coworker|coworkers|workmate|workmates|office "
       "at|with O", "@work_noun", proper=True),
    # shifts said by when they fall ("I'm on nights at the hospital this week", "on lates at the depot")
    _p("be on ~ nights|days|lates|earlies|weekends at O", "@shift", proper=True),
    _p("join O", "@join"),
    # in a group by its name ("I play drums in a punk band called The Rusty Nails")
    _p("in * band|choir|orchestra|club|group|team|quartet|trio called|named O", "member_of", state=True, proper=True),
    # a team at work or in a league ("I'm on the payments squad", "she's in the under-12s team")
    _p("be on|in O team|squad|crew|unit|band|choir|orchestra", "@team", state=True),
    _p("sing|perform in O band|choir|orchestra", "@team", state=True),  # "I sing in a gospel choir"
    _p("teach O", "@teach", state=True),
    _p("report to O", "reports_to", state=True),
    _p("study at O", "studies_at", state=True, proper=True),
    # a place of study one is at ("Sam's at Leeds uni", "she's still at Exeter University")
    _p("be [still|now|currently|both] at O", "@at_study", state=True, proper=True),
    # what is studied and where ("I'm studying law at Bristol"), a course by its name ("doing a part-time MA in
    # history at Birkbeck"), a place of study started or in a year of ("started at Leeds uni", "my second year at
    # Exeter University")
    _p("study|studying O at O2", "@study", state=True),
    _p("degree|degrees|masters|ma|ba|bsc|msc|phd|doctorate|apprenticeship|diploma|pgce|mba|course|a-levels in O",
       "@study", state=True),
    # the subject said before the course ("a nursing degree at Salford", "my second year of a law degree")
    _p("degree|masters|apprenticeship|diploma|course|phd|doctorate at O", "@study_before", state=True),
    _p("degree|masters|apprenticeship|diploma|course|phd|doctorate", "@study_before", state=True),
    _p("start|begin at O", "@study_at"),
    _p(f"start|begin on|in ~ {_WORK_POST} at O", "@study_at"),  # "started on the line at the Jaguar plant"
    _p("year at O", "@study_at", state=True),
    # a school year or class at a place by name: a school ("Tamsin's in Year 4 at Oakridge Primary", "my son is in
    # reception at St Mary's")
    _p("in year ~ at O", "@school_year", state=True),
    _p("in reception|nursery at O", "@school_year", state=True),
    # a child taken out of a school ("We've taken Tamsin out of Oakridge", "pulled him out of St Mark's")
    _p("take|pull O out of O2", "@taken_out"),
    _p("member of O", "member_of"),
    # tastes
    _p(f"come|grow|learn|start|begin to {_LIKE} O", "likes", neg="flip"),
    _p(f"start|begin {_LIKE}|liking|loving|enjoying O", "likes", neg="flip"),
    _p("fall in love with O", "likes"),
    _p("get enough of O", "likes", neg="ignore"),
    _p("stand|bear O", "dislikes", state=True, neg="require"),
    # "I can't stop listening to Afrobeat": what one keeps doing is liked
    _p("stop listen|listening to O", "likes", neg="require"),
    _p("stop watch|watching|eat|eating|read|reading|play|playing|drink|drinking O", "likes", neg="require"),
    # "I can't get enough of olives", "we never get enough of Bake Off": more is always wanted
    _p("get enough of O", "likes", neg="require"),
    _p("go|gone off O", "likes", "end"),
    _p("be ~ over O", "likes", "end"),  # "I'm so over reality TV" (ends only a taste held for it)
    _p("stop|quit like|liking|love|loving|enjoy|enjoying O", "likes", "end"),
    _p("lose ~ taste|appetite for O", "likes", "end"),
    # the taste said first, then whose it is ("Pottery is my absolute favourite thing to do", "Reading has always
    # been a passion of mine")
    _p("be|become ~ favourite|favorite|passion|obsession|thing|jam|hobby|pastime|place", "@taste_first", state=True),
    # a taste said as a noun of "my" ("still following my passion for dance", "my love of cooking")
    _p("passion|love for|of O", "@my_passion", state=True),
    _p("be into O", "likes", state=True, neg="flip"),
    _p("be ~ fan|lover of O", "likes", state=True, neg="flip"),
    # the taste said before the word of a fan ("I'm a big Arsenal fan", "she's a huge Taylor Swift fan")
    _p("be ~ allergic to O", "allergic_to", state=True),  # before a fan's "nut": "I'm allergic to nuts"
    _p("be ~ O fan|supporter|nut|buff", "@fan_noun", state=True),
    # a season ticket held is a team followed ("I've had a season ticket at Leeds United for years")
    _p("have|get|buy|renew ~ season ticket at|for|with O", "likes", proper=True),
    _p(
        "be ~ fond|crazy|mad|obsessed|passionate|keen|nuts|hooked|addicted of|about|with|on|to O",
        "likes",
        state=True,
        neg="flip",
    ),
    _p("favourite|favorite|pleasure|passion|obsession * be O", "likes", state=True),
    _p("hobby|hobbies|pastime|pastimes * be O", "practices", state=True),  # "My main hobby these days is knitting"
    # idioms of a taste ("I'm a sucker for rom-coms", "I've a soft spot for Westerns", "Nothing beats a curry")
    _p("be ~ sucker for O", "likes", state=True, neg="flip"),
    _p("have|get|got ~ soft spot for O", "likes", state=True),
    _p("nothing beat|beats|tops O", "@speaker_likes", neg="ignore"),
    _p("can|cannot beat O", "@speaker_likes", neg="ignore"),
    # "Big fan of Studio Ghibli here": a fan with no one named is the speaker
    _p("fan|lover of O", "@fan"),
    _p("only|mostly|mainly drink|eat|have O", "likes", state=True),
    _p("drink|eat only|mostly|mainly O", "likes", state=True),
    _p("hate|dislike|detest|loathe|despise O", "dislikes", state=True),
    _p(f"{_LIKE} O", "likes", state=True, neg="flip"),
    # long-term health conditions ("I've got asthma", "Dad has dementia", "I'm diabetic"): from the tables
    _p(f"have|got|get ~ {'|'.join(sorted(CONDITIONS))}", "@condition", state=True),
    # a diagnosis names a condition, whatever it is ("I've been diagnosed with type 2 diabetes")
    _p("be|get diagnose with O", "@diagnosed"),
    # an injury, an event: "I hurt my shoulder in March", "Dad broke his hip"
    _p(f"{'|'.join(sorted(INJURIES))} my|his|her|their|a ~ {'|'.join(sorted(BODY_PARTS))}", "@injury", event=True),
    _p(f"be ~ {'|'.join(sorted(CONDITION_ADJECTIVES))}", "@condition", state=True),
    _p("be ~ lactose|gluten|wheat|dairy intolerant", "@condition", state=True),  # "I'm lactose intolerant"
    # diets: a change ("I've gone vegan") and a state ("she's pescatarian")
    _p(f"go|become|turn ~ {_DIET}", "@diet"),
    _p(f"be ~ {_DIET}", "@diet", state=True),
    _p(f"go|become|turn|be|stay|eat ~ {_FREE_OF} [-] free", "@free_of", state=True),  # "Rob has gone gluten-free"
    # what is gone without, said as given up ("I've cut out caffeine", "gave up alcohol for good"): not "cut out
    # the coupon"
    _p(f"cut|give out|up [on] {_FREE_OF}", "@free_of"),
    _p(f"quit|ditch|drop {_FREE_OF}", "@free_of"),
    # a food eaten again ends the diets that leave it out ("I'm eating meat again", "back to eating fish")
    _p("eat|eating everything|anything again", "@diet_over"),  # "I'm eating everything again"
    _p("eat|eating O again", "@diet_back"),
    _p("back [to] eat|eating O", "@diet_back"),  # "I'm back eating meat"
    _p("back on O", "@diet_back"),
    _p("first O in|for", "@diet_back"),  # "my first steak in three years": eaten again
    # a diet that did not last ("Vegan didn't last", "the keto thing didn't last long")
    _p(f"{_DIET} [thing|phase|diet|experiment|lifestyle] do not|n't last", "@diet_over", neg="ignore"),
    # what people keep, read, volunteer at: open facts
    _p("keep|keeping O", "@keep", state=True),
    _p("finish|finished read|reading O", "read", proper=True, event=True),  # "Finally finished reading 'Dune'"
    _p("read|reading O", "reads", state=True, proper=True),
    _p("volunteer|volunteering at|with|for O", "volunteers_at", state=True),
    # "volunteering as a mentor for a local school": the role said first, then where
    _p("volunteer|volunteering as * at|with|for O", "volunteers_at", state=True),
    _p("help|helping out at O", "volunteers_at", state=True),  # "Twice a month I help out at the animal shelter"
    # hobbies, instruments, languages
    _p("switch|change|move|go from O to O2", "@switch"),
    _p("swap|trade|exchange|part-exchange in O for O2", "@swap"),  # "traded in the Fiesta for a Corsa"
    _p("swap|trade|exchange O for O2", "@swap"),
    _p("replace O with O2", "@swap"),  # "Finally replaced the Focus with an electric Kia Niro"
    # a plan called off: "We've cancelled Portugal", "had to cancel our trip to Rome", "called off the holiday in Crete"
    _p(f"{_CALLED_OFF} O", "@cancel"),
    _p("call off O", "@cancel"),
    _p("switch|change [over] to O", "@switch_to"),  # "I've switched to green tea, coffee was making me jittery"
    _p("start|begin|learn|learning [learn|learning] to O", "@learn_to"),
    _p("take|pick up O", "@take_up"),
    _p("get into O", "@take_up"),
    _p(
        "start|begin learn|learning|do|doing|practise|practising|practice|practicing|play|playing|taking O",
        "@take_up",
    ),
    _p("give up O", "@give_up"),
    _p("pack|jack|chuck in O", "@give_up"),  # "Kate's packed in teaching", "jacked in the gym"
    _p("stop|quit play|playing|do|doing|practise|practising|practice|practicing O", "@give_up"),
    # "I stopped smoking", "kicked vaping", "binned the vape": a doing given up (not "stopped the car")
    _p("stop|kick|bin|ditch O", "@give_up"),
    # a habit left off a while ("Three months without a cigarette now", "Five months smoke-free today!")
    _p("without O", "@habit_off", neg="ignore"),
    _p("smoke|vape - free", "@habit_off", neg="ignore"),
    # a hobby said by its verb alone, as a habit ("I knit a lot", "I paint in my spare time", "I sing in a choir")
    _p("knit|crochet|sew|paint|draw|sketch|bake|garden|surf|skate|ski|climb|boulder|dance|sing|quilt|embroider|"
       "hike|swim|jog|cycle|fish|camp|kayak|canoe|sail|row|golf|skateboard|snowboard|meditate|smoke|vape",
       "@hobby_verb", state=True),
    # running as a habit, said in the present ("I run 5k every morning"); "we ran the Berlin marathon" is a race
    _p("run", "@hobby_verb", state=True, present=True),
    _p("play O", "@play", state=True),
    _p("practise|practice|do O", "@do", state=True),
    _p("go O", "@go", state=True),
    _p("speak O", "@speak", state=True),
    _p("learn|study O", "@learn", state=True),
    # cars and things
    _p("drive O", "@drive", state=True),
    _p("ride O", "@drive", state=True),  # "I ride a Triumph Bonneville at weekends" (a make: not "ride horses")
    _p("trade|swap in O", "@sell"),
    _p("get rid of O", "@sell"),
    _p("sell|scrap|crash|total O", "@sell"),
    _p("be gone|sold|dead|totalled|totaled|written", "@gone"),
    # a couple's events, said of "Tom and I" (or "…married to Tom"): the state they start or end
    _p("get|be|got married", "@couple:spouse_of"),
    _p("tie ~ knot", "@couple:spouse_of"),
    _p("get|be|got engaged", "@couple:partner_of"),
    _p("be together", "@couple:partner_of", state=True),  # "Dan and I have been together for eight years"
    # a proposal said yes to ("Jonas proposed on Saturday and I said yes!", "I popped the question to Dana")
    _p("propose", "@proposed"),
    _p("pop ~ question", "@proposed"),
    _p("get|be|got divorced", "@couple:spouse_of", "end"),
    _p("divorce", "@couple:spouse_of", "end"),
    _p("split|break up", "@couple:partner_of", "end"),
    _p("separate", "@couple:partner_of", "end"),  # "Neil and Karen have separated", "we're separating"
    _p("call it quits", "@couple:partner_of", "end"),  # "Jonas and I called it quits"
    _p("call it a day", "@couple:partner_of", "end"),
    _p("call it off", "@couple:partner_of", "end"),  # "Thea's called it off with Connor" (not "called it Off")
    _p("break|call off ~ engagement", "@couple:partner_of", "end"),  # "broke off her engagement to Connor"
    # a pet's death ends having it ("Pixel passed away", "our old cat died")
    _p("pass away|on", "@died"),
    _p("pass O", "@passed", event=True),  # "I passed my driving test": a test or exam got through
    _p("die", "@died"),
    _p("rip|r.i.p. O", "@rip"),  # "RIP Kevin. Found him at the bottom of the cage"
    _p("rest in peace [,] O", "@rip"),
    _p("have|get O put down", "@put_down"),  # "We had to have Misty put to sleep"
    _p("have|get O put to sleep", "@put_down"),
    _p("rehome|re-home O", "@put_down"),  # "We had to rehome Bella": not the speaker's now
    _p("be|get put down", "@died"),
    _p("be|get put to sleep", "@died"),
    _p("make it", "@not_made_it", neg="require"),  # "Custard didn't make it through the night"
    _p(f"{_PREDATOR} get|have|take|kill|grab O", "@taken"),  # "A fox got John on Tuesday night"
    # pets, allergies, partners
    # a job interview had: what for, or where ("I had an interview for a design internship yesterday")
    _p("have * interview for O", "interviewed_for", event=True),
    _p("have * interview at|with O", "interviewed_at", event=True),
    _p("get|land|take|accept the * job|post|role|position", "@post_job"),  # "Got the ward sister job!"
    _p("be offer the * job|post|role|position", "@post_job"),  # "I've been offered the practice manager job"
    _p("adopt|buy|rescue|get|have|own O", "@acquire"),
    _p("come|bring|get home with O", "@brought_home", event=True),
    _p("bring home O", "@brought_home", event=True),  # "We brought home a puppy"
    _p("take in O", "@acquire"),  # "We've taken in a lodger", "took in a stray cat"
    _p(f"name|call ~ {_PET} O", "@name_kind", proper=True),  # "The kids named the new kitten Pickle"
    _p("name|call him|her|it|them O", "@name_pet"),
    _p("allergic to O", "allergic_to", state=True),
    _p("allergy to O", "allergic_to", state=True),
    _p("marry O", "spouse_of", proper=True),
    _p("married to O", "spouse_of", state=True, proper=True),
    _p("engaged to O", "partner_of", proper=True),
    _p("date|dating O", "partner_of", state=True, proper=True),
    _p("divorce O", "spouse_of", "end", proper=True),
    _p("break|split up with O", "partner_of", "end", proper=True),
    _p("visit O", "@trip", plan=True),
    # events told in the past: open predicates, with when
    # a graduation: the event, and studying is over ("Graduated today with a 2:1 in history!")
    _p("graduate", "@graduated", event=True),
    # a baby on the way ("Amy's expecting our second in March!", "my sister is pregnant with twins")
    _p("be expecting O", "@expecting"),
    _p("be pregnant", "@expecting", state=True),
    _p("attend O", "attended", event=True),
    _p("participate|partake in O", "attended", event=True),
    _p("take part in O", "attended", event=True),
    # a class by what it teaches ("I started a weekend yoga class", "we're taking salsa lessons")
    _p("start|begin|take|join|do|attend ~ O", "@class", plan=True),
    _p("sign up for|to O", "signed_up_for", event=True),
    _p("enrol|enroll in|on|onto O", "enrolled_in", event=True),
    _p("win O", "@won", event=True),
    _p("run|complete|finish O", "@race", event=True),
    _p("watch O", "@watched", event=True, proper=True),  # not "see": "saw Tom at the pub" is a person
    _p("be a|an O", "@be_a", state=True),  # "I used to be a nurse": held then, not now
    # one lost by name ("We lost Whiskers last week"): a pet of that name is no more (learning ends only a pet's)
    _p("lose O", "@lost_named", event=True, named=True),
    _p(f"lose {_POSSESSIVE} ~ {_PET} O", "@lost_pet", proper=True),  # "We lost our old dog Rosie in May"
    # a place left ("quit Google"), or a job left with the employer unnamed ("I quit my job", "Maya's left the
    # ambulance service", "lost my job", "got made redundant")
    _p("leave|quit|lose O", "@leave"),
    _p("resign from O", "@job_left"),
]


@dataclass(frozen=True)
class Elem:
    words: frozenset[str]
    kind: str  # word | opt | fill | star | slot | rest
    name: str = ""


def _compile(spec: str) -> tuple[Elem, ...]:
    out: list[Elem] = []
    for part in spec.split():
        if part in ("O", "O2"):
            out.append(Elem(frozenset(), "slot", part))
        elif part == "D":
            out.append(Elem(frozenset(), "rest", part))
        elif part == "~":
            out.append(Elem(frozenset(), "fill"))
        elif part == "*":
            out.append(Elem(frozenset(), "star"))
        elif part.startswith("["):
            out.append(Elem(frozenset(part.strip("[]").split("|")), "opt"))
        else:
            out.append(Elem(frozenset(part.split("|")), "word"))
    return tuple(out)


COMPILED: list[tuple[Pattern, tuple[Elem, ...]]] = [(p, _compile(p.spec)) for p in PATTERNS]


@dataclass(frozen=True)
class Match:
    """A pattern matched at token `start`; slots hold the token index where each object begins."""

    pattern: Pattern
    start: int
    end: int
    slots: dict[str, int]


def stem(word: str) -> str:
    """A crude verb stem for words the tagger misread ('lives' tagged as the noun 'life')."""
    for suffix, repl in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", "e"), ("s", "")):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + repl
    return word


def _hit(t: Tok, words: frozenset[str]) -> bool:
    return t.lower in words or t.lem in words or stem(t.lower) in words or stem(t.lower) + "e" in words


def _fill(t: Tok) -> bool:
    return t.pos in ("DET", "ADJ", "ADV", "NUM", "PART") or t.tag in ("EX", "PRP$", "HYPH") or t.lower in SOFT


def _soft(t: Tok) -> bool:
    return t.lower in SOFT or t.pos == "AUX" or t.dep == "neg" or t.lower in ("n't", "not", "never")


def _names(toks: list[Tok], at: int | None, hi: int) -> bool:
    """A name begins at token ``at`` ("the NHS", "Arriva"), not "about five years" or "my kids". A capitalised noun
    inside the sentence is one the tagger took for a common noun ("We lost Whiskers": NNS)."""
    if at is not None and at < hi and toks[at].lower == "the":
        at += 1
    return at is not None and at < hi and (toks[at].tag in ("NNP", "NNPS") or (
        at > 0 and toks[at].pos == "NOUN" and toks[at].text[:1].isupper()))


def match_at(
    toks: list[Tok], pos: int, elems: tuple[Elem, ...], limit: int
) -> tuple[int, dict[str, int]] | None:
    """Match elements from token `pos`; returns (end, slots) or None. O slots are only positions here."""
    i = pos
    slots: dict[str, int] = {}
    for n, e in enumerate(elems):
        if e.kind == "word":
            if n > 0:
                while i < limit and not _hit(toks[i], e.words) and _soft(toks[i]):
                    i += 1
            if i >= limit or not _hit(toks[i], e.words):
                return None
            i += 1
        elif e.kind == "opt":
            if i < limit and _hit(toks[i], e.words):
                i += 1
        elif e.kind == "fill":
            # the filler stops at a word the pattern wants next, past any optional ones ("moved into a flat in
            # York": "flat", tagged an adjective, is the home)
            wanted = list(takewhile(lambda x: x.kind == "opt", elems[n + 1 :]))
            after = elems[n + 1 + len(wanted)] if n + 1 + len(wanted) < len(elems) else None
            if after is not None and after.kind == "word":
                wanted.append(after)
            while i < limit and _fill(toks[i]) and not any(_hit(toks[i], x.words) for x in wanted):
                i += 1
        elif e.kind == "star":
            nxt = elems[n + 1]
            k = 0
            while (
                i < limit and k < 3 and not _hit(toks[i], nxt.words) and toks[i].pos not in ("VERB", "PUNCT", "SCONJ")
                and toks[i].lower not in ("when", "while", "as", "because", "if")  # a clause of its own
            ):
                i += 1
                k += 1
        else:  # slot / rest
            while i < limit and toks[i].lower in SOFT and toks[i].pos == "ADV":
                i += 1
            if i >= limit:
                return None
            slots[e.name] = i
            then = elems[n + 1] if n + 1 < len(elems) else None
            if then is not None and then.kind == "word":  # an inner slot: skip to the next word of the pattern
                k = i
                while (
                    k < limit
                    and k - i < 6
                    and not _hit(toks[k], then.words)
                    and toks[k].pos not in ("VERB", "PUNCT", "AUX")
                ):
                    k += 1
                if k == i or k >= limit or not _hit(toks[k], then.words):
                    return None
                i = k
    return i, slots


def find_matches(toks: list[Tok], lo: int, hi: int) -> list[Match]:
    """Non-overlapping pattern matches in toks[lo:hi], left to right; earlier patterns win at a position."""
    out: list[Match] = []
    i = lo
    while i < hi:
        if toks[i].lem == "have" and toks[i].dep == "aux" and i > 0:  # (an opening "Had…" may be the verb)
            i += 1  # "I've just qualified as…": an auxiliary "have" owns nothing, and leaves the verb to be read
            continue
        for pat, elems in COMPILED:
            if not _hit(toks[i], elems[0].words) and elems[0].kind == "word":
                continue
            res = match_at(toks, i, elems, hi)
            if res is not None and pat.named and not _names(toks, res[1].get("O"), hi):
                res = None
            if res is not None and pat.present and toks[i].tag not in ("VBP", "VBZ", "VB"):
                res = None
            if res is not None and pat.common and (at := res[1].get("O")) is not None and toks[at].tag in (
                    "NNP", "NNPS"):
                res = None  # "moved to Walthamstow at Easter" is a move, not a part of an employer
            if res is not None:
                end, slots = res
                out.append(Match(pat, i, end, slots))
                i = max(end, i + 1) - 1
                break
        i += 1
    return out
