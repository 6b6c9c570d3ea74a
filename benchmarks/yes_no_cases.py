"""A "yes" checked against what was said (assistant/when.py ``said_otherwise``), case by case, without the model:

    .venv/bin/python benchmarks/yes_no_cases.py [benchmarks/data/yes_no_cases.jsonl]

Each case is a yes/no question, one thing the user said, and whether those words deny the yes ("Do I smoke?"
after "Quit smoking three months ago!") or not ("Do I have a dog?" after "My dog Bruno can't stand thunder").
Printed: the denials caught (recall), the yeses wrongly denied (a "Maybe not" said of something true), and each
case the check gets wrong.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    from assistant.when import said_otherwise
    from memory.episodes import Episode
    from memory.recall.intent import analyse
    from memory.recall.recall import RecallResult

    path = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "data" / "yes_no_cases.jsonl")
    cases = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    at = datetime(2026, 5, 1, 12, tzinfo=UTC)
    caught = wrong = 0
    for c in cases:
        r = RecallResult(c["question"], analyse(c["question"]), [], [], "now")
        r.episodes, r.episodes_relevant = [Episode("e1", "c1", 0, "user", c["said"], at)], True
        # a denial ("Maybe not: …"); with no fact given here, any other yes is the words said instead (a yes no
        # fact backs), which this file does not measure
        denied = (said_otherwise("Yes.", r) or "").startswith("Maybe not")
        caught += denied and c["denies"]
        wrong += denied and not c["denies"]
        if denied != c["denies"]:
            print(f"  {'missed' if c['denies'] else 'wrongly denied'}: {c['question']} | {c['said']}")
    deny = sum(c["denies"] for c in cases)
    print(f"cases {len(cases)}: denials caught {caught}/{deny}, yeses wrongly denied {wrong}/{len(cases) - deny}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
