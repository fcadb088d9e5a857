"""The one-line notation against hostile lines: random mutations of the
examples' lines, some of them a hundred thousand characters long, give
only the documented errors, each one short line whatever the line's
length."""

from __future__ import annotations

import random

import pytest
from support import EXAMPLES

from kosolve.model.files import load_file
from kosolve.model.jsonfile import FileError
from kosolve.model.notation import parse_notation, to_notation

LINES = [to_notation(load_file(path)) for path in sorted(EXAMPLES.glob("*.json"))]  # type: ignore[arg-type]
LONGEST_SAID = 200
"""What a message may say besides its source and field."""
ALPHABET = ":/.,+-k" + "HKQ14IVXS" + "\n\x00é\u212a'\\ "


def mutated(line: str, rng: random.Random) -> str:
    """``line`` with a few random edits: a character dropped, added or
    changed, a run of one character or a piece of the line repeated
    thousands of times."""
    chars = list(line)
    for _ in range(rng.randint(1, 5)):
        at = rng.randrange(len(chars) + 1)
        edit = rng.randrange(4)
        if edit == 0 and at < len(chars):
            del chars[at]
        elif edit == 1:
            chars[at:at] = rng.choice(ALPHABET) * rng.choice([1, 100, 100_000])
        elif edit == 2:
            chars[at:at] = chars[at : at + rng.randint(1, 40)] * rng.randint(1, 3000)
        elif at < len(chars):
            chars[at] = rng.choice(ALPHABET)
    return "".join(chars)


def check_message(message: str) -> None:
    """One line: ``notation``, the field when there is one (a name, no
    spaces), and at most :data:`LONGEST_SAID` characters more."""
    assert "\n" not in message
    source, _, said = message.partition(": ")
    field, _, rest = said.partition(": ")
    if rest and " " not in field:
        said = rest
    assert source == "notation"
    assert len(said) <= LONGEST_SAID, message[:300]


@pytest.mark.parametrize(
    "text",
    [
        "kd1:dreiblatt:forehand:forehand:" + "HK." * 40_000 + ":-:-::",
        "kd1:dreiblatt:forehand:forehand:HK/HQ:-:-:" + "forehand+pagat" * 10_000 + ":",
        "kt1:I.II.III.IV.V.VI:" + "HK." * 40_000 + ":HQ:-:-:-::",
    ],
    ids=["hands", "announcements", "seat"],
)
def test_a_long_bad_part_is_quoted_short(text: str) -> None:
    with pytest.raises(FileError) as raised:
        parse_notation(text)
    check_message(str(raised.value))


def test_mutated_lines_give_short_documented_errors() -> None:
    rng = random.Random(28)
    failed = 0
    for _ in range(400):
        text = mutated(rng.choice(LINES), rng)
        try:
            parse_notation(text)
        except FileError as error:
            check_message(str(error))
            failed += 1
    assert failed > 300
