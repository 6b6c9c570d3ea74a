"""Does the bundled model tell a sentence that answers a question from one that only names the person?

    GLIBC_TUNABLES=glibc.rtld.optional_static_tls=65536 .venv/bin/python benchmarks/answerability.py
        [benchmarks/data/answerability.jsonl]

The pipeline asks this (``assistant.answer.answers_messages``, one sentence at a time) before it refuses a
question whose asked relation, topic or premise no word of what was found says: "What hobby did Frank take
up?" — "My uncle Frank has started beekeeping". Each row: a question, a sentence, and whether the sentence
answers it (written for this check; half only name the person, or say another relation of theirs). Prints
the verdicts, accuracy, and the seconds a check takes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402

from assistant.answer import ANSWERS_SCHEMA, answers_messages  # noqa: E402
from benchmarks.common import machine  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", default=str(ROOT / "benchmarks" / "data" / "answerability.jsonl"))
    args = ap.parse_args()
    from assistant.compose import default_cache_dir
    from assistant.llm import start_llm

    con = Console()
    rows = [json.loads(line) for line in Path(args.file).read_text().splitlines() if line.strip()]
    llm, close = start_llm("bundled", models_dir=Path.home() / ".local/share/hearth/models",
                           logs_dir=Path(tempfile.mkdtemp()), keep_alive_s=600,
                           run_dir=default_cache_dir() / "run", timeout_s=300)
    right, seconds = 0, []
    try:
        for r in rows:
            t0 = time.perf_counter()
            reply = llm.complete(answers_messages(r["sentence"], r["question"]), json_schema=ANSWERS_SCHEMA,
                                 max_tokens=12, temperature=0.0)
            seconds.append(time.perf_counter() - t0)
            says = '"yes"' in reply
            right += says == r["answers"]
            mark = "[green]ok[/]" if says == r["answers"] else "[red]WRONG[/]"
            con.print(f"{mark} says {'yes' if says else 'no '} | {r['question']} | {r['sentence']}")
    finally:
        close()
    con.print(f"{machine()}: {right}/{len(rows)} right; a check takes {statistics.median(seconds):.2f} s median")
    return 0


if __name__ == "__main__":
    sys.exit(main())
