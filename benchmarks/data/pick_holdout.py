"""Pick the LoCoMo turns of the extraction holdout, reproducibly.

Reads only the dialogue of each conversation (`speaker_a/b`, `session_N_date_time`, `session_N`); the
`qa`, `session_N_observation`, `session_N_summary` and `events_session_N` fields are answer keys and are
never opened here, so they cannot have steered the choice.

Each conversation's turns, in order, are cut into PER_CONV equal runs and one turn is drawn at random
from each run (seed SEED): the picks spread over the whole conversation and keep the natural mix of
fact-bearing turns and chit-chat. Prints one JSON skeleton per line (id, source, speaker, at, context,
text) to be annotated by hand; `facts` / `must_not` are left empty.

    python benchmarks/data/pick_holdout.py [LOCOMO_DIR] > /tmp/picked.jsonl
"""

from __future__ import annotations

import json
import os
import random
import sys
from datetime import datetime
from pathlib import Path

SEED = 20240610
PER_CONV = 18
CONVS = ["conv-30", "conv-41", "conv-42", "conv-43", "conv-44"]
CONTEXT_TURNS = 2


def locomo_dir(arg: str | None = None) -> Path:
    """The folder of LoCoMo files: the argument, $HEARTH_LOCOMO, or a `shared/eval/locomo` above the repo."""
    if arg:
        return Path(arg)
    if os.environ.get("HEARTH_LOCOMO"):
        return Path(os.environ["HEARTH_LOCOMO"])
    here = Path(__file__).resolve()
    for up in here.parents:
        cand = up / "shared" / "eval" / "locomo"
        if cand.is_dir():
            return cand
    raise SystemExit("LoCoMo folder not found: pass it as an argument or set HEARTH_LOCOMO")


def session_time(s: str) -> str:
    """'4:04 pm on 20 January, 2023' -> '2023-01-20T16:04:00+00:00' (LoCoMo gives no zone: UTC)."""
    dt = datetime.strptime(s.strip(), "%I:%M %p on %d %B, %Y")
    return dt.strftime("%Y-%m-%dT%H:%M:00+00:00")


def turn_text(turn: dict[str, str]) -> str:
    """The turn as the assistant hears it: a shared photo's caption is appended, as in the LoCoMo runs."""
    text = turn["text"].strip()
    if turn.get("blip_caption"):
        text += f" [shares a photo of {turn['blip_caption']}]"
    return text


def turns(conv: dict[str, object]) -> list[tuple[int, int, dict[str, str], list[dict[str, str]], str]]:
    """(session, index in session, turn, previous turns of the session, session time) in order."""
    out = []
    n = 1
    while f"session_{n}" in conv:
        sess = conv[f"session_{n}"]
        at = session_time(str(conv[f"session_{n}_date_time"]))
        assert isinstance(sess, list)
        for i, t in enumerate(sess):
            out.append((n, i, t, sess[max(0, i - CONTEXT_TURNS):i], at))
        n += 1
    return out


def pick(folder: Path) -> list[dict[str, object]]:
    rng = random.Random(SEED)
    rows: list[dict[str, object]] = []
    for name in CONVS:
        raw = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
        conv = {k: v for k, v in raw.items() if k.startswith(("speaker_", "session_")) and
                not k.endswith(("_observation", "_summary"))}
        all_turns = turns(conv)
        size = len(all_turns) / PER_CONV
        for k in range(PER_CONV):
            lo, hi = round(k * size), round((k + 1) * size)
            sess, _i, t, prev, at = all_turns[rng.randrange(lo, hi)]
            did = t["dia_id"]  # "D3:12"
            rows.append({
                "id": f"lc{name[5:]}-s{sess}-{did.split(':')[1]}",
                "source": f"locomo:{name}:{did}",
                "speaker": t["speaker"],
                "at": at,
                "context": [f"{p['speaker']}: {turn_text(p)}" for p in prev],
                "text": turn_text(t),
                "facts": [],
                "must_not": [],
            })
    return rows


def main(argv: list[str]) -> int:
    for row in pick(locomo_dir(argv[1] if len(argv) > 1 else None)):
        print(json.dumps(row, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
