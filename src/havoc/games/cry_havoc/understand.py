"""A question typed in a player's own words, English or Polish, read into the API's question and
the situation it states (issue 39): ``havoc understand``, ``havoc ask --text`` and
``POST /api/understand`` (the in-browser engine's too).

Deterministic and offline: the sentence is folded as every name is (:func:`ui.fold`: no case,
no diacritics), split into words, and read against the game's own names in every case form the
catalogs give them (factions, Regions, Structures: "z Głębi Sapos", "do Mgielni", "w
Pogorzelisku"), the kinds' cue words below (the verbs and question words a player uses for each
kind of question), and numbers as digits or words ("trzy", "three", "6 na 2", "3 of 8",
"1/1/2"). A word off by a typo from a name (one letter in five) still names it.

It never guesses silently: every word it used is listed with what it took it for
(``understood``), the words it could not place are listed (``unplaced``), two kinds that fit
equally are ``alternatives``, and a sentence with no kind of question in it is refused in the
asker's language. What the answer still needs (a kind's required fields the sentence did not
give) is ``missing``; the answer itself is asked separately, from the question and the position.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, InputError, Problem
from havoc.games.cry_havoc.contract import FACTIONS, TROGS
from havoc.games.cry_havoc.ui import fold, form_label, kind_label, value_text
from havoc.language.i18n import LANGUAGES, ui

if TYPE_CHECKING:
    from typing import Any

MAX_TEXT = 500  # characters: a question, not an essay (the API refuses longer, naming the field)

# The cue words of each kind of question: folded word beginnings (a Polish verb's every person and
# aspect starts so: "przesun" is "przesunąć", "przesunie", "przesuną"). A kind scores one per cue
# present; the highest wins, a tie is an ambiguity. Words, not rule facts: which rule decides is
# the engine's, from rules/.
CUES: dict[str, tuple[str, ...]] = {
    "move": ("move", "moving", "go ", "march", "przesun", "przemiesc", "ruch", "ruszy", "isc", "wejsc"),
    "retreat": ("retreat", "withdraw", "wycof", "odwrot", "dokad", "where "),
    "how-many": ("how many", "ile ", "ilu "),  # "ilu jeńców": the count of persons
    "battle": (
        "who wins the battle",
        "battle end",
        "how does the battle",
        "wygra bitw",
        "kto wygr",
        "wynik bitwy",
        "rozstrzyg",
    ),
    "score": ("score", "vp", "victory point", "punkt", "pz ", "zdobyw", "dostan"),
    "winner": ("who wins the game", "who won", "winner", "kto wygra gre", "zwyciez"),
    "legal": ("what may", "what can", "what do", "co moga", "co moze", "co wolno", "co mog"),
    "build": (
        "build",
        "put up",
        "zbud",
        "budowa",
        "buduj",
        "budu",
        "postaw",
        "wznie",
        "wznos",
    ),  # 003: "Wzniesienie Budowli"
    "activate": ("activate", "aktyw", "uzyc", "uzyj"),
    "recruit": ("recruit", "rekrut", "werb"),
    "setup": ("set up", "setup", "prepare", "przygot", "rozloz", "przygotow"),
    "prisoners": ("prisoner", "buy back", "jenc", "jeniec", "odbi", "wykup"),
    "draw-tactics": ("draw tactic", "draw ", "dobra", "dobier"),
    "discard": ("discard", "odrzuc"),
    "turn-order": ("who acts first", "whose turn", "turn order", "czyja", "kolej", "kto pierwszy", "kolejnosc"),
    "enable-scoring": ("enable scoring", "scoring", "punktowan", "punktacj", "wlacz", "uruchom"),
    "use-skill": ("skill", "umiejetn", "zdolnos", "uzyc", "uzyj"),  # 003: "Zdolność"; "użyć" a Skill or a Structure
    "play-tactic": ("play a tactic", "play tactic", "play a card", "play ", "zagrac", "zagrac karte", "zagrac taktyk"),
    "end-of-move": (
        "end a move",
        "end their move",
        "ends a move",
        "end of",
        "stop in",
        "what happens",
        "koncza ruch",
        "konczy ruch",
        "konc",
        "co sie dzieje",
    ),
    "place": ("place a crystal", "put a crystal", "crystal", "krysztal", "polozyc", "umiesc"),
}
# How-many's ``of``: what is counted, by the verb beside "how many"/"ile".
HOW_MANY_OF: dict[str, tuple[str, ...]] = {
    "may-leave": ("leave", "retreat", "withdraw", "pull", "wycof", "opusc", "wyjsc"),
    "may-recruit": ("recruit", "rekrut"),
    "must-discard": ("discard", "odrzuc"),
    "may-buy-back": ("buy back", "odkup", "wykup", "odbi"),
}
# The little words that say which field a Region name fills.
FROM_WORDS = ("from", "out of", "z", "ze")
TO_WORDS = ("to", "into", "onto", "do", "na")
IN_WORDS = ("in", "at", "on", "w", "we")
# A setup's experience by its words (the vocabulary's experience levels), and a Crystal's words.
EXPERIENCE = {
    "veteran": ("veteran", "weteran", "doswiadczon"),
    "beginner": ("beginner", "first game", "poczatkuj", "nowicj"),
}
CRYSTAL_WORDS = ("crystal", "krysztal")
# A faction's HQ named as a place ("from their HQ", "ze Sztabu"): the table says which Region.
HQ_WORDS = ("hq", "headquarters", "sztab")
# Articles a player may put between the little word and a name: "into the Scorch".
ARTICLES = ("the", "a", "an")
MY_WORDS = ("my", "mine", "moj", "moje", "moich", "moimi", "mojego", "nasz", "nasze", "naszych")
BATTLE_WORDS = ("battle", "bitw", "bitew")
ATTACKER_WORDS = ("attack", "atak", "agresor", "napastnik", "napadl", "napadaj")
DEFENDER_WORDS = ("defender", "obronc", "broniac")
AGAINST_WORDS = ("against", "vs", "versus", "przeciw", "przeciwko", "na")
OF_WORDS = ("of", "z", "ze")
# "2 in their Reserve", "z 2 w rezerwie", "rezerwa 2": a count of the asker's Reserve (folded stems)
RESERVE_WORDS = ("reserve", "rezerw")
NUMBERS: dict[str, int] = {
    **{w: i for i, w in enumerate(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"])},
    "jeden": 1, "jedna": 1, "jedno": 1, "jednego": 1, "dwa": 2, "dwie": 2, "dwoch": 2, "dwoma": 2,
    "trzy": 3, "trzech": 3, "cztery": 4, "czterech": 4, "piec": 5, "pieciu": 5, "szesc": 6, "szesciu": 6,
    "siedem": 7, "siedmiu": 7, "osiem": 8, "osmiu": 8, "dziewiec": 9, "dziewieciu": 9,
    "dziesiec": 10, "dziesieciu": 10,
    "jednym": 1, "trzema": 3, "czterema": 4, "piecioma": 5, "szescioma": 6, "siedmioma": 7, "osmioma": 8,
    "dziewiecioma": 9, "dziesiecioma": 10,
}  # fmt: skip
# An action's points, said with their count: "5 move points", "1 punkt budowy" (the question's
# points, never a score's Victory Points)
POINT_WORDS = ("point", "points", "punkt", "punkty", "punktow", "punktami")
POINT_KINDS = ("move", "recruit", "recruitment", "build", "ruchu", "rekrutacji", "budowy", "budowania")
# The question words of a modal question ("can the X …", "czy X mogą …"): its subject comes after.
MODAL_WORDS = ("can", "may", "could", "might", "czy", "moga", "moze", "mozna")
# A faction counted, not asking: "how many humans", "ilu Ludzi".
COUNTED_WORDS = ("many", "ilu", "ile")
# What the automated Trogs of the solo variant decide (the Trogs' page's decisions), by their
# words; the first that fits is the decision, in this order ("where do they move" last: "where"
# is any decision's word).
TROG_DECISIONS: dict[str, tuple[str, ...]] = {
    "initiative": ("initiative", "inicjatyw"),
    "place": ("place their", "put their units", "rozstaw", "oddzialy", "units"),
    "tactics": ("tactic", "taktyk"),
    "prisoner": ("prisoner", "jenc"),
    "build": ("build", "trap", "zbud", "postaw", "pulapk", "buduj", "budu"),
    "recruit": ("recruit", "rekrut"),
    "move": ("move", "go ", "where", "dokad", "rusz", "pojd", "ida", "idzie", "region"),
}
# The table's one Structure or Skill said without its name: "their structure", "swoją Zdolność".
STRUCTURE_WORDS = ("structure", "budowl")
SKILL_WORDS = ("skill", "zdolnos", "umiejetn")


def _words(text: str) -> list[str]:
    """The sentence folded and split: words and numbers (``1/1/2`` kept whole)."""
    folded = fold_text(text)
    out = []
    i, n = 0, len(folded)
    while i < n:
        end = _objectives_end(folded, i)
        if end is None and _word_char(folded[i]):
            end = i + 1
            while end < n and _word_char(folded[end]):
                end += 1
        if end is None:
            i += 1
        else:
            out.append(folded[i:end])
            i = end
    return out


def fold_text(text: str) -> str:
    """A whole sentence folded as names are (no case, no diacritics), its words kept apart by
    spaces; a Battle's objectives written ``1/1/2`` stay one word."""
    out = []
    piece = i = 0  # where the piece of text now read begins; where the reading is
    n = len(text)

    def folded(end: int) -> None:
        if end > piece:
            out.append(fold(text[piece:end]).replace("-", " "))

    while i < n:
        end = _objectives_end(text, i)
        if end is not None:  # objectives: kept as they are, a word of their own
            folded(i)
            out.append(text[i:end])
            piece = i = end
        elif text[i].isspace():
            folded(i)
            while i < n and text[i].isspace():
                i += 1
            piece = i
        elif text[i].isdecimal():  # digits with no "/" after: none of them begins objectives
            while i < n and text[i].isdecimal():
                i += 1
        else:
            i += 1
    folded(n)
    return " ".join(out)


def _objectives_end(text: str, at: int) -> int | None:
    """Where objectives written as ``1/1/2`` (digits, then "/" and digits, once or more) that
    begin at ``at`` end, or None. Read by hand, not by a regular expression: importing ``re``
    and compiling patterns is a measurable part of a short process."""
    n = len(text)
    end = at
    while end < n and text[end].isdecimal():
        end += 1
    if end == at:
        return None
    parts = 0
    while end + 1 < n and text[end] == "/" and text[end + 1].isdecimal():
        end += 2
        while end < n and text[end].isdecimal():
            end += 1
        parts += 1
    return end if parts else None


def _near(a: str, b: str) -> bool:
    """``a`` is ``b`` but for a typo: one edit in words of five letters or more, two from ten."""
    if a == b:
        return True
    # an inflected form: the same stem, a different ending ("jaskiniach" for "jaskinie", "mgielni")
    stem = max(5, len(b) - 2)
    if len(a) >= stem and len(b) >= 5 and a[:stem] == b[:stem] and abs(len(a) - len(b)) <= 3:
        return True
    limit = 0 if len(b) < 5 else 1 if len(b) < 10 else 2
    if not limit or abs(len(a) - len(b)) > limit:
        return False
    # each edit brings at most one letter the other word lacks (a swap, none): more is no typo,
    # and two sets cost a fraction of the table below, for nearly every word of a sentence
    if len(set(a) - set(b)) > limit or len(set(b) - set(a)) > limit:
        return False
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    if prev[-1] > limit and len(a) == len(b):  # two letters swapped ("regoin"): one typo
        swaps = [k for k in range(len(a)) if a[k] != b[k]]
        return (
            len(swaps) == 2 and swaps[1] == swaps[0] + 1 and a[swaps[0]] == b[swaps[1]] and a[swaps[1]] == b[swaps[0]]
        )
    return prev[-1] <= limit


def _names() -> list[tuple[tuple[str, ...], str, str]]:
    """Every name of a faction, Region and Structure, in every case form of every language, as
    folded words: (words, what, ID), the longest first (so "glebia sapos" wins over "sapos")."""
    from havoc.games.cry_havoc.ui import deck_name, faction_name, region_names, structure_name, vocabulary
    from havoc.language.nouns import Noun

    out: set[tuple[tuple[str, ...], str, str]] = set()
    for what, field in (
        ("regions", "region"),
        ("factions", "faction"),
        ("structures", "structure"),
        ("skills", "skill"),
        ("terrains", "terrain"),
    ):
        for word, ids in vocabulary(what).items():
            if len(ids) == 1 and not ids[0].startswith("example-"):
                out.add((tuple(word.split("-")), field, ids[0]))
    known = [i for ids in vocabulary("regions").values() for i in ids if not i.startswith("example-")]
    for lang in LANGUAGES:
        nouns: list[tuple[str, str, Any]] = [("region", k, n) for k, n in region_names(known, lang).items()]
        nouns += [("faction", f, faction_name(f, lang)) for f in FACTIONS]
        for ids in vocabulary("structures").values():
            if not ids[0].startswith("example-"):
                nouns.append(("structure", ids[0], structure_name(ids[0], lang)))
        for key in dict.fromkeys(i for ids in vocabulary("terrains").values() for i in ids):
            # a terrain as its deck names it, in every case: "z talii Oceanu" is the Ocean
            deck = deck_name(key, lang)
            nouns += [("terrain", key, Noun.plain(" ".join(form.split()[1:]) or form)) for form in deck.forms.values()]
        for field, key, noun in nouns:
            for form in {str(noun), *getattr(noun, "forms", {}).values()}:
                words = tuple(fold_text(form).split())
                if words and words[0] in ("na", "do", "w", "we", "z", "ze", "to", "in"):
                    words = words[1:]  # a Region's phrase ("na Wybrzeże"): the name alone
                if words:
                    out.add((words, field, key))
    return sorted(out, key=_longest_first)


def _longest_first(name: tuple[tuple[str, ...], str, str]) -> tuple[int, tuple[tuple[str, ...], str, str]]:
    """Names longest first, those of one length in a fixed order: a set's order follows the hash
    seed, and so would which of two names read at one place wins."""
    return (-len(name[0]), name)


def _table_names(keys: tuple[str, ...]) -> list[tuple[tuple[str, ...], str, str]]:
    """A table's Regions by every form of the names the answers give them, in every language."""
    from havoc.games.cry_havoc.ui import region_names

    out = []
    for lang in LANGUAGES:
        for key, noun in region_names(keys, lang).items():
            for form in {str(noun), key, *getattr(noun, "forms", {}).values()}:
                words = tuple(fold_text(form).split())
                if words and words[0] in ("na", "do", "w", "we", "z", "ze", "to", "in"):
                    words = words[1:]
                if words:
                    out.append((words, "region", key))
    return out


_NAMES: list[tuple[tuple[str, ...], str, str]] = []


def names() -> list[tuple[tuple[str, ...], str, str]]:
    if not _NAMES:
        _NAMES.extend(_names())
    return _NAMES


def _reading_names(position: Any) -> list[tuple[tuple[str, ...], str, str]]:
    """The names a sentence about ``position`` is read against (longest first): :func:`names`
    and the table's own Regions ("Region A", "z Regionu B"), Structures and Skills.

    Kept in the verified cache (plain data) for each table: making them declines every name in
    every language, which loads every language's catalog and was most of a short ``havoc ask
    --text``. The key is made of what they are made of: the game's rules, each language's
    catalog (its files' bytes), the code that declines and folds, and the table's IDs. A sealed
    bundle (the browser) has no sources to key by, and its engine lives for the whole page:
    it makes them, as the first question about a table always did."""
    from havoc.core import cache, sealed
    from havoc.games.cry_havoc import code_files
    from havoc.games.cry_havoc.contract import FINGERPRINT
    from havoc.language import grammar, i18n, markup, nouns

    keys = tuple(str(k) for k in _table_regions(position))
    if sealed.active():
        return _made_names(position, keys)
    owned = sorted(
        {("structure", k) for k in _owned(position, "structures", None)}
        | {("skill", k) for k in _owned(position, "skills", None)}
    )
    chunks = [FINGERPRINT.encode(), "\0".join(keys).encode(), "\0".join(f"{f}:{k}" for f, k in owned).encode()]
    chunks += [i18n.catalog_key(lang).encode() for lang in LANGUAGES if lang != i18n.SOURCE_LANGUAGE]
    code = [str(p) for p in (__file__, *code_files(), grammar.__file__, i18n.__file__, markup.__file__, nouns.__file__)]
    # the stat facts of the code may vouch for its digest without reading it (cache.remembered)
    chunks.append(
        cache.remembered("reading names code", code, lambda: cache.digest(*map(cache.code_bytes, code))).encode()
    )
    key = cache.digest(*chunks)
    found = cache.get(READING_NAMES, key, list)
    if found is not None:
        return found
    table = _made_names(position, keys)
    cache.put(READING_NAMES, key, table)
    return table


def _made_names(position: Any, keys: tuple[str, ...]) -> list[tuple[tuple[str, ...], str, str]]:
    """:func:`_reading_names` made afresh: the game's names and the table's own."""
    table = names()
    things = _table_things(position)
    if keys or things:
        extra = set(_table_names(keys)) | set(things)
        table = sorted(set(table) | extra, key=_longest_first)
    return table


READING_NAMES = "sentence-names"  # the cache's kind of entry for them


def _shown(field: str, key: str, lang: str) -> str:
    from havoc.games.cry_havoc.ui import faction_name, region_names, structure_name

    if field == "faction":
        return str(faction_name(key, lang))
    if field == "structure":
        return str(structure_name(key, lang))
    if field == "skill":
        from havoc.games.cry_havoc.ui import skill_name

        return str(skill_name(key, lang))
    return str(region_names([key], lang)[key])


# Polish verbs take a prefix for their perfective ("zrekrutować", "przesunąć", "wycofać"): a cue
# matches after one of them too.
_PREFIXES = ("", "z", "za", "ze", "po", "prze", "wy", "u", "do", "od", "s")


def _has(text: str, cues: tuple[str, ...]) -> int:
    """How many of ``cues`` the folded sentence has (a cue matches at a word's beginning)."""
    return sum(1 for cue in cues if _cue_at(text, cue))


def _cue_at(text: str, cue: str) -> bool:
    """``cue`` stands in ``text`` at a word's beginning, or after one of the verbs' prefixes that
    does. String searches, not a regular expression per cue: a sentence is matched against some
    300 cues, and compiling their patterns was most of a ``havoc ask --text`` process."""
    at = text.find(cue)
    while at >= 0:
        for prefix in _PREFIXES:
            start = at - len(prefix)
            if start >= 0 and text.startswith(prefix, start) and not (start and _word_char(text[start - 1])):
                return True
        at = text.find(cue, at + 1)
    return False


def _word_char(c: str) -> bool:
    """What a regular expression's ``\\w`` matches (Unicode letters and digits, and ``_``)."""
    return c.isalnum() or c == "_"


def understand(  # noqa: C901 - one reading, in the order a sentence is read (to split next)
    text: Any, lang: str = "en", position: Any = None, given: Any = None
) -> dict[str, Any]:
    """The question ``text`` asks, read as the module docstring says; a located InputError for a
    text that is no string or too long.

    ``given`` holds what the player has since told of the facts ``missing`` listed (each missing
    entry's ``field`` with the value chosen: ``{"question.faction": "humans"}``): read as if the
    sentence had said it, so the page asks the reader again rather than repeat its logic."""
    if not isinstance(text, str):
        raise InputError([Problem("text", None, ui("expected text", lang), code=Code.FIELD_TYPE)])
    if len(text) > MAX_TEXT:
        raise InputError(
            [Problem("text", None, ui("The question is longer than 500 characters.", lang), code=Code.FIELD_VALUE)]
        )
    if position is not None and not isinstance(position, dict) and hasattr(position, "regions"):
        position = _as_table(position)
    given = _given(given, lang)
    words = _words(text)
    flat = " " + " ".join(words) + " "
    used = [False] * len(words)
    understood: list[dict[str, Any]] = []
    question: dict[str, Any] = {}
    pos: dict[str, Any] = {}

    def took(start: int, end: int, field: str, value: Any, shown: str) -> None:
        for i in range(start, end):
            used[i] = True
        understood.append(
            {
                "words": " ".join(words[start:end]),
                "field": field,
                "value": value,
                "shown": shown,
                "label": _label(field, lang),
            }
        )

    # an action's points with their count ("5 move points", "1 punkt budowy"): the question's
    # points, and no cue of a score's Victory Points
    points_at: tuple[int, int, int] | None = None
    for i, w in enumerate(words):
        if (w.isdigit() or w in NUMBERS) and i + 1 < len(words):
            rest = words[i + 1 : i + 3]
            if rest and (
                (rest[0] in POINT_WORDS and len(rest) > 1 and rest[1] in POINT_KINDS)
                or (rest[0] in POINT_KINDS and len(rest) > 1 and rest[1] in POINT_WORDS)
            ):
                points_at = (i, i + 3, int(w) if w.isdigit() else NUMBERS[w])
                break
    cued = flat
    if points_at:
        cued = " " + " ".join(w for k, w in enumerate(words) if not points_at[0] <= k < points_at[1]) + " "
    sheets = any("/" in w for w in words)  # a Battle's objectives written "1/1/2"

    # the kind: the cue words present; a tie between two kinds is a choice for the asker
    scores = {k: _has(cued, c) for k, c in CUES.items()}
    if not any(_has(cued, cues) for cues in HOW_MANY_OF.values()):
        scores["how-many"] = 0  # "how many points": the count is another kind's figure
    if points_at:  # a count of points is the action's, whose verb is in the sentence
        scores["how-many"] = 0
    best = max(scores.values())
    kinds = [k for k, s in scores.items() if s == best and s > 0]
    if scores["how-many"]:
        kinds = ["how-many"]
    elif "battle" in kinds and "winner" in kinds:
        kinds = ["battle"] if _has(flat, BATTLE_WORDS) else ["winner"]
    elif "retreat" in kinds and "how-many" not in kinds and len(kinds) > 1:
        kinds = ["retreat"]
    elif "activate" in kinds and "use-skill" in kinds:
        kinds = ["use-skill"] if _has(flat, SKILL_WORDS) else ["activate"]  # "użyć" a Skill or a Structure

    # names (longest first), each at the place it stands, with the little word before it
    found: list[tuple[int, int, str, str]] = []
    i = 0
    table = _reading_names(position)
    while i < len(words):
        hit = None
        for name, field, key in table:
            n = len(name)
            if i + n <= len(words) and all(_near(words[i + k], name[k]) for k in range(n)):
                hit = (i, i + n, field, key)
                break
        if hit:
            found.append(hit)
            i = hit[1]
        else:
            i += 1
    numbers = [(i, w) for i, w in enumerate(words) if w.isdigit() or w in NUMBERS or "/" in w]

    def num(w: str) -> int:
        return int(w) if w.isdigit() else NUMBERS[w]

    factions = [(s, e, key) for s, e, f, key in found if f == "faction"]
    regions = [(s, e, key) for s, e, f, key in found if f == "region"]
    structures = [(s, e, key) for s, e, f, key in found if f == "structure"]
    battle = _has(flat, BATTLE_WORDS) > 0
    mine = _has(flat, MY_WORDS) > 0

    # who asks: the faction named as the subject: after the question's modal word when there is
    # one ("the humans took Region A, can the Machines …"), never one after "against", counted
    # ("how many Humans"), with a number, or owning a scoresheet ("humans 1/1/2")
    modal = next((i for i, w in enumerate(words) if w in MODAL_WORDS), None)

    def subject_like(s: int, e: int) -> bool:
        before = words[s - 1] if s else ""
        after = words[e] if e < len(words) else ""
        if before in AGAINST_WORDS or before in COUNTED_WORDS or (before and (before.isdigit() or before in NUMBERS)):
            return False
        return "/" not in after

    candidates = [(s, e, key) for s, e, key in factions if subject_like(s, e)]
    if modal is not None and any(s > modal for s, _, _ in candidates):
        candidates = [c for c in candidates if c[0] > modal]
    subject = candidates[0] if candidates else None

    # the solo Trogs, who no player leads: "where do the 4 Trogs move", "co zbudują Trogi" asks
    # what they decide (the Trogs' page's question), not what a player may do
    variant = position.get("variant") if isinstance(position, dict) else None
    trogs_named = next(
        ((s, e, key) for s, e, key in factions if key == TROGS and (not s or words[s - 1] not in AGAINST_WORDS)), None
    )
    decision = None
    if (
        trogs_named is not None
        and (subject is None or subject[2] == TROGS or sheets)
        and (variant == "solo" or _has(flat, ("solo",)))
        and modal is None
        and (not kinds or kinds[0] not in ("battle", "score", "winner", "setup", "end-of-move"))
    ):
        decision = next((d for d, cues in TROG_DECISIONS.items() if _has(flat, cues)), None)
        if decision == "place" and not sheets and not _has(flat, ("place", "rozstaw")):
            decision = "move" if _has(flat, TROG_DECISIONS["move"]) else None
    if decision:
        kinds = ["trogs"]
        subject = trogs_named
    # a Battle's sheets make it a Battle question ("how many VP … humans 1/1/1, trogs 1/0/2")
    elif sheets and (not kinds or kinds[0] in ("score", "prisoners", "winner", "legal", "retreat")):
        kinds = ["battle"]
    if not kinds:
        return _refused(text, lang, words)
    kind = kinds[0]
    question["ask"] = kind
    if decision:
        question["decide"] = decision
    if points_at:
        question["points"] = points_at[2]
        took(points_at[0], points_at[1], "question.points", points_at[2], str(points_at[2]))

    # a Battle or winner question names its factions as a scoresheet's owners ("humans 1/1/2");
    # the faction it names otherwise is the side asking ("… for the Pilgrims")
    if subject is not None and kind == "trogs":
        took(subject[0], subject[1], "question.decide", decision, _shown("faction", subject[2], lang))
    elif subject is not None and kind not in ("setup", "turn-order"):
        question["faction"] = subject[2]
        took(subject[0], subject[1], "question.faction", subject[2], _shown("faction", subject[2], lang))

    turn = position.get("turn") if isinstance(position, dict) else None
    if "faction" not in question and mine and isinstance(turn, str) and turn in FACTIONS:
        question["faction"] = turn  # "my Units": the table's faction to act
        at = next(i for i, w in enumerate(words) if w in MY_WORDS)
        took(at, at + 1, "question.faction", turn, _shown("faction", turn, lang))

    def tell(*slots: str) -> None:
        """What the player told since (or a chip changed) of the question's ``slots`` (all of
        them when none is named), as if the sentence said it: each applied before it is read."""
        for path, value in given.items():
            slot = path[len("question.") :] if path.startswith("question.") else ""
            if slot and "." not in slot and slot != "ask" and (not slots or slot in slots):
                question[slot] = value

    tell("faction")  # who asks: before the counts are given to a side

    # Regions: "from X" / "to X" / "in X"
    for s, e, key in regions:
        at = s - 1 if s and words[s - 1] not in ARTICLES else s - 2  # "into the Scorch"
        before = words[at] if at >= 0 else ""
        if before in FROM_WORDS:
            field = "from"
        elif before in TO_WORDS and kind in ("move", "retreat"):
            field = "to"
        elif kind in ("move", "retreat") and "from" not in question:
            field = "from"
        else:
            field = "region"
        if field == "region" and kind in ("retreat", "how-many"):
            field = "from"
        question.setdefault(field, key)
        took(
            at if before in FROM_WORDS + TO_WORDS + IN_WORDS else s,
            e,
            "question." + field,
            key,
            _shown("region", key, lang),
        )
    # "from their HQ" / "ze Sztabu": the Region of the asking faction's HQ on the table
    hq_at = next((i for i, w in enumerate(words) if w.startswith(HQ_WORDS) and not used[i]), None)
    hq_field = "region" if kind == "recruit" else "from"
    if (
        hq_at is not None
        and kind in ("move", "retreat", "recruit")
        and hq_field not in question
        and question.get("faction")
    ):
        own = _hq_regions(position, question["faction"])
        if len(own) == 1:
            question[hq_field] = own[0]
            start = (
                hq_at - 1 if hq_at and words[hq_at - 1] in (*FROM_WORDS, *TO_WORDS, "their", "the", "our") else hq_at
            )
            start = start - 1 if start and words[start - 1] in FROM_WORDS + TO_WORDS else start
            took(start, hq_at + 1, "question." + hq_field, own[0], _shown("region", own[0], lang))
    for s, e, key in structures[:1]:  # the first named is the one asked about ("a Harvester and an Orb")
        question["structure"] = key
        took(s, e, "question.structure", key, _shown("structure", key, lang))
    for s, e, key in [(s, e, key) for s, e, f, key in found if f == "skill"][:1]:
        question["skill"] = key
        took(s, e, "question.skill", key, _shown("skill", key, lang))
    # "their Structure", "swoją Zdolność": the asker's one Structure or Skill on the table
    for slot, thing_words, held in (("structure", STRUCTURE_WORDS, "structures"), ("skill", SKILL_WORDS, "skills")):
        spot = next((i for i, w in enumerate(words) if w.startswith(thing_words) and not used[i]), None)
        if spot is None or slot in question or kind not in ("activate", "use-skill", "build"):
            continue
        theirs = _owned(position, held, question.get("faction"))
        if len(theirs) == 1:
            question[slot] = theirs[0]
            took(spot, spot + 1, "question." + slot, theirs[0], _shown(slot, theirs[0], lang))
    # a terrain: the deck a card is drawn from, or the terrain of the Tactics card played
    terrain_field = {"draw-tactics": "deck", "play-tactic": "card-terrain"}.get(kind)
    for s, e, key in [(s, e, key) for s, e, f, key in found if f == "terrain"][:1]:  # the card's, not the Region's
        if terrain_field:
            question[terrain_field] = key
            took(s, e, "question." + terrain_field, key, value_text(key, lang))
    # the experience a setup is for ("for veterans", "dla weteranów")
    if kind == "setup":
        for level, cues in EXPERIENCE.items():
            if _has(flat, cues):
                question["experience"] = level
    # what a place question puts on the table ("a crystal", "kryształ")
    if kind == "place" and _has(flat, CRYSTAL_WORDS):
        question["item"] = "crystal"

    # numbers: "2 units" (the question's), "6 na 2" / "6 against 2 humans" (a Battle's sides), "1/1/2"
    on_table = _table_battle(position)  # the table's one Battle Region, if it has exactly one
    tell("from", "region")  # where: before the stated situation is placed
    region = question.get("from") or question.get("region") or (on_table[0] if on_table else "example-a")
    sides: dict[str, int] = {}
    opponent: str | None = None  # the faction named with a count after "against"
    scoresheet: dict[str, dict[str, int]] = {}
    sheet_units: dict[str, int] = {}
    for k, (i, w) in enumerate(numbers):
        if "/" in w:
            # its owner named right before it ("humans 1/1/2", "ludzie: 1/1/2"); a sheet after any
            # other word is nobody's, and stays unplaced rather than go to a faction named earlier
            whose = next(((s, key) for s, e, key in reversed(factions) if e <= i and i - e <= 1), None)
            parts = [int(x) for x in w.split("/")]
            if whose and len(parts) == 3:
                start, owner = whose
                scoresheet[owner] = {"control": parts[0], "prisoners": parts[1], "attrition": parts[2]}
                sheet_units[owner] = sum(parts)  # every Unit in a Battle stands on one objective
                took(
                    start,
                    i + 1,
                    f"question.objectives.{owner}",
                    scoresheet[owner],
                    f"{_shown('faction', owner, lang)} {w}",
                )
            continue
        after = words[i + 1] if i + 1 < len(words) else ""
        nxt = numbers[k + 1] if k + 1 < len(numbers) else None
        if nxt and nxt[0] == i + 2 and after in AGAINST_WORDS + OF_WORDS:
            first, second = num(w), num(nxt[1])
            if after in OF_WORDS and kind == "move":
                question["units"] = first
                sides["mine"] = second
            else:
                sides["mine"], sides["them"] = first, second
            took(i, i + 3, "position.units", [first, second], f"{first} {after} {second}")
            continue
        if any(i in range(s - 1, e + 1) for s, e, _ in factions) and i + 1 < len(words):
            pass
        if used[i]:
            continue
        n = num(w)
        near = [j for j in range(max(0, i - 2), min(len(words), i + 4)) if words[j].startswith(RESERVE_WORDS)]
        if near and "faction" in question:
            pos["reserve"] = n
            said = ui("Reserve {n}", lang).format(n=n)
            took(i, i + 1, f"position.factions.{question['faction']}.reserve", n, said)
            used[near[0]] = True  # the word saying it is the Reserve's count
            continue
        them = next((key for s, e, key in factions if s == i + 1), None)
        if them and (i and words[i - 1] in AGAINST_WORDS):
            sides["them"] = n
            opponent = them
            took(i - 1, i + 1 + 1, f"position.regions.{region}.units.{them}", n, f"{n}")
        elif kind == "setup":
            question_players = n
            pos["players-count"] = question_players
            took(i, i + 1, "position.players", n, str(n))
        elif kind == "how-many" and "units" not in question:
            sides.setdefault("mine", n)
            asking = question.get("faction")  # the asker's own Units, by their place on the table
            took(i, i + 1, f"position.regions.{region}.units.{asking}" if asking else "position.units", n, str(n))
        elif "units" not in question and (
            kind in ("move", "recruit", "retreat", "prisoners") or question.get("decide") in ("move", "recruit")
        ):
            question["units"] = n
            took(i, i + 1, "question.units", n, str(n))
        else:
            sides.setdefault("mine", n)
            took(i, i + 1, "position.units", n, str(n))
    if kind == "how-many":
        of = next((o for o, cues in HOW_MANY_OF.items() if _has(flat, cues)), None)
        if of:
            question["of"] = of
        if _has(flat, DEFENDER_WORDS) and "faction" not in question:
            pos["asker-role"] = "defender"
    if scoresheet:
        question["objectives"] = scoresheet
    tell()  # the rest, once the sentence's own numbers are placed
    if kind == "score" and _has(flat, ("this round", "tej rundzie", "w tej rundzie", "runda")):
        pass

    # the situation the sentence states, as a partial position
    asker = question.get("faction")
    them = opponent
    partial: dict[str, Any] = {}
    named_attacker = _attacker(words, factions, given, region)
    attacker = named_attacker[0] if named_attacker else None
    if named_attacker and named_attacker[1] is not None:
        took(
            named_attacker[1],
            named_attacker[2],
            f"position.regions.{region}.battle.attacker",
            named_attacker[0],
            _shown("faction", named_attacker[0], lang),
        )
    players = (position or {}).get("players") if isinstance(position, dict) else None
    if them is None and "them" in sides and asker and isinstance(players, list) and len(players) == 2:
        them = next((p for p in players if p != asker), None)  # two at the table: the other one
    table_region = _table_region(position, region)
    if kind == "battle" and (scoresheet or on_table):
        battle = True
        question.setdefault("region", region)  # the Battle the sheets are of
    if kind == "how-many" and question.get("of") == "may-leave" and (battle or on_table):
        battle = True
        question.setdefault("from", region)  # the Battle the Units leave
    if sides or sheet_units or (battle and region):
        units: dict[str, int] = dict(sheet_units)
        if asker and "mine" in sides:
            units[str(asker)] = sides["mine"]
        if them and "them" in sides:
            units[them] = sides["them"]
        regions_out: dict[str, Any] = {region: {}}
        if units:
            regions_out[region]["units"] = units
        if battle:
            token: dict[str, Any] = {}
            if not isinstance(table_region.get("battle"), dict) or "token" not in table_region["battle"]:
                token["token"] = 1  # the position's Battle token: its number and the attacker
            if attacker:
                token["attacker"] = attacker
            elif them and kind in ("how-many", "retreat") and asker != them:
                token["attacker"] = them  # who leaves a Battle is the defender: the other side attacked
            if token:
                regions_out[region]["battle"] = token
        if regions_out[region]:
            partial["regions"] = regions_out
    # a Region the sentence names that the table does not hold: on the table, as it says
    table_keys = set(_table_regions(position))
    for slot in ("from", "to", "region"):
        named = question.get(slot)
        if isinstance(named, str) and named not in table_keys and not named.startswith("example-"):
            partial.setdefault("regions", {}).setdefault(named, {})
    if "reserve" in pos and asker:
        partial["factions"] = {str(asker): {"reserve": pos["reserve"]}}
    if pos.get("players-count") == len(FACTIONS):
        partial["players"] = list(FACTIONS)
    elif pos.get("players-count") == len(FACTIONS) - 1:
        # one player fewer: every faction but the neutral one (the Trogs play only with all seats
        # taken, a rule the table's reader checks), so three players are the same three factions
        partial["players"] = [f for f in FACTIONS if f != TROGS]
    _told(given, partial, understood, lang)
    missing = _missing(kind, question, partial, position, lang)
    unplaced = [w for w, u in zip(words, used, strict=True) if not u and not _filler(w, flat)]
    out = {
        "text": text,
        "lang": lang,
        "question": question,
        "position": partial,
        "understood": understood,
        "unplaced": unplaced,
        "missing": missing,
        "alternatives": [{"question": {**question, "ask": k}, "position": partial} for k in kinds[1:]],
        "refusal": None,
    }
    out["summary"] = summary(out, lang)
    return out


def _filler(word: str, flat: str) -> bool:
    """A word that carries no fact of the table (question words, cue words, little words):
    leaving it unplaced would only be noise."""
    if len(word) <= 3:
        return True
    cues = [c for cs in (*CUES.values(), *HOW_MANY_OF.values()) for c in cs]
    little = MY_WORDS + BATTLE_WORDS + ATTACKER_WORDS + DEFENDER_WORDS + AGAINST_WORDS
    heads = tuple(c.strip().split()[0] for c in cues + list(little))
    return word in _FILLERS or _has(word, heads) > 0


# Words of a question that state no fact of the table (question words, things counted).
_FILLERS = frozenset(
    """wins win wygra wygrywa many much must musza musi back cards card kart karty karta tactics taktyki
    taktyk jest gdzie where zrobic zrobi zwyciestwa victory ended ends koniec units unit oddzialy
    oddzialow oddzial czy moga moze mog jak the they this that what which with round rundzie runde
    rundy game gry gre graczy players player their there here have now teraz then majac maja ma happens when""".split()  # noqa: SIM905 - a list of words, read as one
)  # fmt: skip


def _missing(
    kind: str, question: dict[str, Any], partial: dict[str, Any], table: Any, lang: str
) -> list[dict[str, str]]:
    """What the answer still needs: the kind's required fields the sentence left out (who asks,
    where from, how many), and the facts of the table the answer will read that neither the
    sentence nor the table gives (a Battle's attacker, where a faction recruits without an HQ on
    the table), each with its label in the asker's language: asked, never assumed."""
    from havoc.games.cry_havoc import kind as registry

    declared = registry.get(kind)
    need: list[str] = []
    if declared is not None and not declared.no_actor and "faction" not in question:
        need.append("question.faction")
    for name in declared.needs if declared else ():
        if name not in question:
            need.append("question." + name)
    if kind == "setup" and "players" not in partial:
        need.append("position.players")
    where = question.get("region") if kind == "battle" else question.get("from") if kind == "how-many" else None
    if isinstance(where, str) and "question.faction" not in need:  # who asks first: the attacker may follow
        stated = ((partial.get("regions") or {}).get(where) or {}).get("battle") or {}
        held = _table_region(table, where).get("battle")
        if (stated or held) and not stated.get("attacker") and not (isinstance(held, dict) and held.get("attacker")):
            need.append(f"position.regions.{where}.battle.attacker")
    faction = question.get("faction")
    if kind == "recruit" and "region" not in question and isinstance(faction, str) and not _hq_regions(table, faction):
        need.append("question.region")  # recruited Units go to the HQ's Region: with none on the table, where
    labels = {"question.region": ui("the Region of their HQ", lang)} if kind == "recruit" else {}
    return [{"field": n, "label": labels.get(n) or _label(n, lang)} for n in need]


def _told(given: dict[str, Any], partial: dict[str, Any], understood: list[dict[str, Any]], lang: str) -> None:
    """What the player told since laid over the reading: a fact of the table (``position.…``: a
    Battle's attacker, a side's Units) put in the stated situation, and each chip whose value
    the player changed showing the new one (``told``)."""
    for path, value in given.items():
        parts = path.split(".")
        if parts[0] == "position" and len(parts) > 2 and parts[1] in ("regions", "factions"):
            node = partial
            for step in parts[1:-1]:
                nxt = node.get(step)
                node = node.setdefault(step, {}) if nxt is None else nxt
                if not isinstance(node, dict):
                    break
            else:
                node[parts[-1]] = value
    for piece in understood:
        if piece["field"] in given and given[piece["field"]] != piece["value"]:
            value = given[piece["field"]]
            leaf = piece["field"].rsplit(".", 1)[-1]
            is_faction = isinstance(value, str) and value in FACTIONS and leaf in ("faction", "attacker")
            piece.update(
                value=value,
                told=True,
                shown=_shown("faction", value, lang)
                if is_faction
                else _shown("region", value, lang)
                if isinstance(value, str)
                else str(value),
            )


def _as_table(position: Any) -> dict[str, Any]:
    """A table the command line has read (a Position), as the mapping the page and the API send:
    the facts the reader looks at (each Region's HQ, Units and Battle token, whose turn)."""
    regions: dict[str, Any] = {}
    for key, r in position.regions.items():
        out: dict[str, Any] = {}
        if getattr(r, "hq", None):
            out["hq"] = r.hq
        if getattr(r, "units", None):
            out["units"] = dict(r.units)
        if getattr(r, "battle", None) is not None:
            out["battle"] = {"token": r.battle.token, **({"attacker": r.battle.attacker} if r.battle.attacker else {})}
        if getattr(r, "structures", None):
            out["structures"] = [{"type": st.type, "owner": st.owner} for st in r.structures]
        regions[key] = out
    factions = {
        who: {"skills": dict(state.skills)}
        for who, state in position.factions.items()
        if getattr(state, "skills", None)
    }
    return {
        "regions": regions,
        "turn": getattr(position, "turn", None),
        "players": list(position.players),
        "variant": getattr(position, "variant", None),
        "factions": factions,
    }


def _given(given: Any, lang: str) -> dict[str, Any]:
    """What the player told since (``given``): a mapping of a missing field to its value."""
    if given is None:
        return {}
    if not isinstance(given, dict):
        raise InputError([Problem("given", None, ui("expected a mapping (key: value)", lang), code=Code.FIELD_TYPE)])
    return given


def _table_things(table: Any) -> list[tuple[tuple[str, ...], str, str]]:
    """The table's own Structures and Skills (a rulebook example's "Structure A") by every form
    of their names, in every language: (words, field, ID)."""
    from havoc.games.cry_havoc.ui import skill_name, structure_name

    out: list[tuple[tuple[str, ...], str, str]] = []
    for field, key in {("structure", k) for k in _owned(table, "structures", None)} | {
        ("skill", k) for k in _owned(table, "skills", None)
    }:
        for lang in LANGUAGES:
            noun = structure_name(key, lang) if field == "structure" else skill_name(key, lang)
            for form in {str(noun), *getattr(noun, "forms", {}).values()}:
                words = tuple(fold_text(form).split())
                if words:
                    out.append((words, field, key))
    return out


def _owned(table: Any, things: str, faction: Any) -> list[str]:
    """The IDs of the table's Structures (``things`` "structures": on its Regions) or Skills
    ("skills": in its factions), of ``faction`` only when it is given."""
    if not isinstance(table, dict):
        return []
    out: list[str] = []
    if things == "structures":
        for region in _table_regions(table).values():
            for st in region.get("structures") or ():
                if (
                    isinstance(st, dict)
                    and isinstance(st.get("type"), str)
                    and (faction is None or st.get("owner") == faction)
                ):
                    out.append(st["type"])
    else:
        for who, state in (table.get("factions") or {}).items() if isinstance(table.get("factions"), dict) else ():
            if (
                isinstance(state, dict)
                and isinstance(state.get("skills"), dict)
                and (faction is None or who == faction)
            ):
                out += [str(k) for k in state["skills"]]
    return list(dict.fromkeys(out))


def _table_regions(table: Any) -> dict[str, dict[str, Any]]:
    """The table's Regions by key, each as a mapping (one written as anything else holds nothing;
    a table sent as anything else has none): the one reading of a table's Regions every
    question about it goes through."""
    regions = table.get("regions") if isinstance(table, dict) else None
    if not isinstance(regions, dict):
        return {}
    return {str(k): r if isinstance(r, dict) else {} for k, r in regions.items()}


def _table_region(table: Any, key: str) -> dict[str, Any]:
    return _table_regions(table).get(key, {})


def _hq_regions(table: Any, faction: str) -> list[str]:
    """The table's Regions holding ``faction``'s HQ."""
    return [k for k, r in _table_regions(table).items() if r.get("hq") == faction]


def _table_battle(table: Any) -> tuple[str, dict[str, Any]] | None:
    """The table's Battle Region when it has exactly one (a Battle question is about it)."""
    held = [
        (k, r)
        for k, r in _table_regions(table).items()
        if isinstance(r.get("battle"), dict) and r["battle"].get("token")
    ]
    return held[0] if len(held) == 1 else None


def _attacker(
    words: list[str], factions: list[tuple[int, int, str]], given: dict[str, Any], region: str
) -> tuple[str, int | None, int] | None:
    """The Battle's attacker as the sentence says it ("the humans attack", "atakują ludzie",
    "attacker: humans"), with the words that say it, or as the player told since (no words)."""
    for i, w in enumerate(words):
        if w.startswith(ATTACKER_WORDS):
            near = [(s, e, key) for s, e, key in factions if e == i or s == i + 1]
            if len(near) == 1:
                s, e, key = near[0]
                return key, min(s, i), max(e, i + 1)
    told = given.get(f"position.regions.{region}.battle.attacker")
    return (told, None, 0) if isinstance(told, str) else None


def _label(field: str, lang: str) -> str:
    """What a field of the question or the table is, in the asker's words (never its path)."""
    parts = field.split(".")
    name = parts[1] if parts[0] == "question" and len(parts) > 1 else parts[-1]
    if parts[0] == "position" and name not in ("players", "reserve", "attacker"):
        name = "position-units"  # a count of Units the sentence puts on the table
    words = {
        "faction": ui("who asks (a faction)", lang),
        "from": ui("the Region the Units leave", lang),
        "to": ui("the Region the Units enter", lang),
        "region": ui("the Region", lang),
        "structure": ui("the Structure", lang),
        "skill": ui("the Skill", lang),
        "of": ui("what is counted", lang),
        "item": ui("what is placed", lang),
        "players": ui("which factions play", lang),
        "units": ui("Units", lang),
        "position-units": ui("Units", lang),
        "reserve": ui("the Reserve", lang),
        "objectives": ui("Units on the Battle objectives", lang),
        "attacker": ui("who attacked (the Battle's attacker)", lang),
    }
    return words.get(name, name)


def summary(out: dict[str, Any], lang: str) -> str:
    """One line of what was understood, in the asker's language: the kind, then each piece."""
    if out.get("refusal"):
        return str(out["refusal"])
    kind = out["question"]["ask"]
    label = form_label(kind, lang)
    if label == kind:  # no question kind of the form (the solo Trogs' decider): its own words
        label = kind_label(kind, lang)
    pieces = [str(p["shown"]) for p in out["understood"]]
    return " · ".join([label, *pieces])


def _refused(text: str, lang: str, words: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "text": text,
        "lang": lang,
        "question": None,
        "position": {},
        "understood": [],
        "unplaced": words,
        "missing": [],
        "alternatives": [],
        "refusal": ui("This is not a question about the rules of the game.", lang),
    }
    out["summary"] = out["refusal"]
    return out


def lookup(rs: Any, fields: dict[str, Any], lang: str) -> dict[str, Any]:
    """``POST /api/understand``: ``{"text", "position"?, "given"?}`` (the language is the request's;
    ``given``: what the player has told since of the facts ``missing`` listed)."""
    unknown = [k for k in fields if k not in ("text", "position", "given")]
    if unknown:
        raise InputError(
            [Problem(unknown[0], None, ui("This field is not part of the request.", lang), code=Code.FIELD_UNKNOWN)]
        )
    if "text" not in fields:
        raise InputError([Problem("text", None, ui("The question's text is missing.", lang), code=Code.FIELD_MISSING)])
    position = fields.get("position")
    if "position" in fields and not isinstance(position, dict) and not hasattr(position, "regions"):
        # a JSON object, or a table the command line has parsed already; null is no table
        message = "position: " + ui("The table must be a mapping (an object).", lang)
        raise InputError([Problem("request", None, message, code=Code.FIELD_TYPE)])
    return understand(fields["text"], lang, position, fields.get("given"))
