"""A complete kosolve bot in a few lines of Python, with no kosolve import:
it reads one JSON object a line from its standard input and answers each
decision with a legal option drawn at random, seeded by the game's seed
(docs/protocol.md).  The same choices as kosolve's own ``random`` bot.

    kosolve arena "exec:python3 examples/bots/random_bot.py" heuristic --deals 10 -o match.jsonl
"""

import json
import random
import sys

rng = random.Random(0)
for line in sys.stdin:
    message = json.loads(line)
    if message.get("notice") == "start":
        rng = random.Random(message["seed"])
    elif "legal" in message:
        print(json.dumps({"choice": rng.randrange(len(message["legal"]))}), flush=True)
