"""The smallest kosolve bot: it always takes the first legal option (pass
in the auction, no announcement, the first talon choice and lay-away, the
first legal card in the hand's order).  No kosolve import; docs/protocol.md.

    kosolve arena "exec:python3 examples/bots/first.py" random --deals 10 -o match.jsonl
"""

import json
import sys

for line in sys.stdin:
    if "legal" in json.loads(line):
        print('{"choice": 0}', flush=True)
