"""What a GCG record says beyond its moves: the rules it was played under.

A record written by letras names its rule options (``#letras-rules``: JSON, the options that
differ from the edition's) and marks the passes that stand for a turn lost to a failed double
challenge, or that ran out of time, with a note. For other records the rules are the edition's,
with the challenge rule the record shows (``(challenge) +5`` is ``5pt``, ``+10`` ``10pt``,
``-10`` ``penalty10``, else ``double``), the end after six scoreless turns (as Quackle,
Macondo and Woogles play) instead of rounds of passes, and a game clock when the record has
time penalties.

>>> from letras.formats.gcg import read_gcg
>>> rules = record_rules(read_gcg(">a: ABC 8G CAB +14 14\\n>a: (challenge) +10 24"))
>>> rules.challenge_rule, rules.scoreless_turns_to_end, rules.pass_rounds_to_end
('10pt', 6, 0)
>>> spanish = read_gcg('#lexicon FILE2017\\n#letras-rules {"challenge_rule": "single"}')
>>> spanish.edition.name, record_rules(spanish).challenge_rule
('es', 'single')
"""

from __future__ import annotations

import json

from letras.editions import RuleOptions, TimeControl, editions
from letras.errors import FormatError, inner_facts
from letras.formats.gcg import EventKind, GcgRecord

RULES_PRAGMA = "letras-rules"
"""The pragma in which letras names the rule options of a game (JSON: those that differ from
the edition's defaults)."""
LOST_TURN_NOTE = "lost turn: a failed challenge of "
"""The start of the note letras writes after the pass that stands for a lost turn, followed by
the challenged play as its event wrote it."""
RESIGNED_PRAGMA = "letras-resigned"
"""The pragma in which letras names the player who resigned (their nickname): GCG has no event
for it. The game ends after the record's last event, with no final count (rules.md 6.5)."""
KEPT_NOTE = "late challenge: the same player plays again"
"""The note letras writes after a withdrawn phony that only extended a wrong word that had
stood (the ``late_challenge`` rule): its player's next line follows."""
TIMEOUT_NOTE = "time ran out"
"""The note letras writes after the pass that stands for a turn that ran out of time."""
GCG_SCORELESS_TURNS = 6
"""Scoreless turns in a row that end a game in Quackle, Macondo and Woogles."""

def refusal(record: GcgRecord) -> str | None:
    """Why the record cannot be replayed with its edition, or None when it can."""
    letters = sorted({c for e in record.errors if e.reason == "unknown-tile" for c in e.letters})
    unknown = [e.message for e in record.errors if e.reason == "unknown-edition"]
    if not letters and not unknown:
        return None
    name = record.edition.name
    parts = list(unknown)
    if letters:
        fits = [
            e.name for e in editions().values() if all(e.tiles.has_letter(c) for c in letters)
        ]
        hint = f"try --edition {fits[0]}" if fits else "no shipped edition has them"
        parts.append(f"it uses letters that edition {name} lacks: {' '.join(letters)} ({hint})")
    return "; ".join(parts)


def record_rules(record: GcgRecord) -> RuleOptions:
    """The rules a record was played under (see the module docstring). Raises
    :class:`~letras.errors.FormatError` on a bad ``#letras-rules`` pragma."""
    base = record.edition.rules
    named = [value for name, value in record.pragmas if name == RULES_PRAGMA]
    if named:
        try:
            data = json.loads(named[-1] or "{}")
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            return RuleOptions.from_dict({**base.to_dict(), **data})
        except (ValueError, TypeError) as e:
            raise FormatError(f"bad #{RULES_PRAGMA} {named[-1]!r}: {e}", key="record.rules",
                              pragma=RULES_PRAGMA, text=named[-1], **inner_facts(e)) from None
    bonuses = [e.score for e in record.events if e.kind is EventKind.CHALLENGE_BONUS]
    rule = "double"
    if any(b < 0 for b in bonuses):
        rule = "penalty10"
    else:
        rule = next((f"{b}pt" for b in bonuses if b in (5, 10)), rule)
    rules = base.replace(challenge_rule=rule, pass_rounds_to_end=0,
                         scoreless_turns_to_end=GCG_SCORELESS_TURNS)
    timed = any(e.kind is EventKind.TIME_PENALTY for e in record.events)
    if timed and rules.time_control.kind != "game":
        rules = rules.replace(time_control=TimeControl("game", 25 * 60, 10))
    return rules
