"""The few word tables that more than one part of memory reads: one copy each."""

from __future__ import annotations

import re

# Words by which a speaker means themselves (the user in the user's turns, the speaker's name otherwise).
FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"})
# What the user is called in stored names and asked about as: "you" is the assistant when the user speaks.
USER_KEYS = ("user", "me", "i", "myself")
FIRST_PERSON_RE = re.compile(r"\b(" + "|".join(sorted(FIRST_PERSON | {"i'm", "i've", "i'd", "i'll"}, key=len,
                                                       reverse=True)) + r")\b", re.I)
