"""Answers: the verdict, the rules that decided it with the facts each used, figures, hints.

One :class:`Answer` renders as text for people (:func:`render_text`) and as JSON for
programs (:meth:`Answer.to_dict`). Rule titles and texts come from the catalogs in the
asker's language; the game's words (factions, figures, values) come from its labels, which the
game puts on each answer (:attr:`Answer.labels`).
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.record import field, record
from havoc.engine.interpreter.engine import RuleResult
from havoc.engine.rulebook.model import Rule, Ruleset
from havoc.language.i18n import SOURCE_LANGUAGE, nui, translator, ui, yes_no

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any


class Decision:
    """One rule as cited by an answer.

    What the rule looked at, in words (``said``), is written only when an answer is shown or
    serialised: a program asking thousands of questions reads only the verdict and the facts.
    """

    __slots__ = (
        "_said",
        "_said_from",
        "amended_by",
        "facts",
        "figures",
        "hint",
        "id",
        "instead",
        "note",
        "open",
        "origin",
        "passed",
        "specific",
        "text",
        "title",
        "who",
    )

    def __init__(
        self,
        id: str,
        title: str,
        text: str,
        origin: str,  # base, errata, or the variant's ID
        passed: bool | None,
        facts: dict[str, Any],
        figures: dict[str, Any] | None = None,
        hint: str | None = None,
        note: str | None = None,  # which side/step/candidate the rule was checked for
        amended_by: list[dict[str, str]] | None = None,
        specific: bool = False,  # the rule applies only in some situations (its check has applies-if)
        said: list[str] | None = None,  # the facts it read, in words, in the asker's language
        open: tuple[str, ...] = (),  # not checked: the facts the question left out that it needs
    ) -> None:
        self.id = id
        self.title = title
        self.text = text
        self.origin = origin
        self.passed = passed
        self.facts = facts
        self.figures = {} if figures is None else figures
        self.hint = hint
        self.note = note
        self.amended_by = [] if amended_by is None else amended_by
        self.specific = specific
        self.open = open
        self._said: list[str] | None = [] if said is None else said
        # (the texts, the facts dict, how many of its facts the rule had read when cited)
        self._said_from: tuple[Texts, dict[str, Any], int] | None = None
        # who and where the rule was checked for, as the game names them ({faction}, {region}
        # of a fact's player words); a function asked when the answer is shown, or None
        self.who: Callable[[], dict[str, Any]] | None = None
        # the rule never allows (requires: false) and gives figures: when it applies, what they
        # say happens instead (a report shows it as applying, not as failing)
        self.instead = False

    @property
    def looked_at(self) -> list[str]:
        """The facts the rule read in a player's words ("PZ Ludzi: 7"): each fact's player words
        with the asking faction and the Region filled in, a fact that only chose a branch left
        out; a fact without player words said as :attr:`said` says it."""
        if self._said_from is None or self.who is None:
            return self.said
        t, facts, n = self._said_from
        return t.player_facts(_read(facts, n), self.who(), self.open)

    @property
    def said(self) -> list[str]:
        """The facts the rule read, in words (written on first use, from the facts as evaluated)."""
        found = self._said
        if found is None:
            t, facts, n = self._said_from  # type: ignore[misc]
            found = self._said = t.facts(_read(facts, n))
        return found

    @said.setter
    def said(self, value: list[str]) -> None:
        self._said, self._said_from = value, None

    def _values(self) -> tuple[Any, ...]:
        return (
            self.id,
            self.title,
            self.text,
            self.origin,
            self.passed,
            self.facts,
            self.figures,
            self.hint,
            self.note,
            self.amended_by,
            self.specific,
            self.said,
            self.open,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Decision(id={self.id!r}, passed={self.passed!r}, facts={self.facts!r}, said={self.said!r})"

    def __getstate__(self) -> tuple[Any, ...]:
        return self._values()

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.__init__(*state)  # type: ignore[misc]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "text": self.text,
            "overlay": self.origin,
            "passed": self.passed,
            "facts": self.facts,
        }
        if self.figures:
            out["figures"] = self.figures
        if self.hint:
            out["hint"] = self.hint
        if self.note:
            out["for"] = self.note
        if self.specific:
            out["conditional"] = True
        if self.amended_by:
            out["amended-by"] = self.amended_by
        if self.open:
            out["not-given"] = list(self.open)
        said = self._said
        if said is None:  # put in words now (Texts.facts' work, without its calls: a Battle cites ~20)
            t, facts, n = self._said_from  # type: ignore[misc]
            kept = t._said
            said = []
            for name, value in facts.items() if len(facts) == n else _read(facts, n):
                try:
                    said.append(kept[(name, value.__class__, value)])
                except (KeyError, TypeError):
                    said.append(t.fact(name, value))
            self._said = said  # (its facts kept: shown later, they are also said in a player's words)
        if said:
            out["said"] = said
        return out


@record
class Answer:
    kind: str
    question: str
    verdict: bool | None
    rules: list[Decision]
    figures: dict[str, Any]
    lang: str = "en"
    hint: str | None = None
    fixes: list[str] = field(default_factory=list)
    overlay: str = "base"
    details: dict[str, Any] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)  # the kind's own report, already in `lang`
    yes_no: bool = True  # the question is a yes/no one ("Can …?"), not "how many"/"who"/"what"
    # A "no" that a card, Skill or Structure effect the position does not show could turn:
    # the rules stating that exception, cited (the verdict is then "no-unless").
    unless: list[str] = field(default_factory=list)
    labels: Any = None  # the game's words for its identifiers (havoc.games.Labels); not in the JSON
    # A question the position cannot decide: what the answer needs to know, in words (the verdict
    # is then None, "cannot tell", never a guess).
    needs: list[str] = field(default_factory=list)
    # What the answer was computed from (Ruleset.provenance: id, version, fingerprint, layers),
    # so an answer pasted into a forum says which rules it read; set where answers are made.
    ruleset: dict[str, Any] | None = None

    @property
    def rule_ids(self) -> list[str]:
        return [d.id for d in self.rules]

    @property
    def verdict_value(self) -> bool | str | None:
        """The verdict as JSON gives it: true, false, null, or "no-unless" (a qualified no)."""
        if self.verdict is False and self.unless:
            return VERDICT_NO_UNLESS
        return self.verdict

    def to_dict(self) -> dict[str, Any]:
        rules = [d.to_dict() for d in self.rules]
        return _answer_dict(self, self.question, rules, self.hint, self.fixes, self.overlay)


def _answer_dict(
    a: Answer, question: str, rules: list[dict[str, Any]], hint: str | None, fixes: list[str], overlay: str
) -> dict[str, Any]:
    """:meth:`Answer.to_dict`, the citation fields given (a :class:`LateAnswer` reads its own
    slots, past the properties that stand in front of them)."""
    verdict, unless, lang = a.verdict, a.unless, a.lang
    no_unless = verdict is False and bool(unless)
    out: dict[str, Any] = {
        "kind": a.kind,
        "question": question,
        "verdict": VERDICT_NO_UNLESS if no_unless else verdict,
        # a report (who wins, what may I do, how many) is not answered yes or no: "see below"
        "answer": _no_unless_word(lang) if no_unless else yes_no(verdict if a.yes_no else None, lang),
        "figures": a.figures,
        "rules": rules,
        "overlay": overlay,
        "lang": lang,
    }
    if hint:
        out["hint"] = hint
    if fixes:
        out["would-be-legal"] = fixes
    if a.details:
        out["details"] = a.details
    if a.lines:
        out["report"] = a.lines
    if unless:
        out["unless"] = unless
    if a.needs:
        out["answer"] = _cannot_tell_word(lang)
        out["cannot-tell-without"] = a.needs
    if a.ruleset:
        out["ruleset"] = a.ruleset
    return out


class Cites:
    """Rules an answer cites, not yet made into :class:`Decision` objects.

    Serialising an answer reads each citation once: its JSON values are made straight from the
    rule's result and the words kept for the rule (:meth:`dicts`), without a Decision in between;
    the Decisions are made only when a caller reads :attr:`Answer.rules` (:meth:`decisions`).
    Both give what :func:`decision` and :meth:`Decision.to_dict` give. A row: the rule's result,
    its note, how many facts it had read when cited, and whether it is cited as applying only
    in some situations whatever its check says (an exception rule)."""

    __slots__ = ("amendments", "rows", "t", "who")

    def __init__(self, t: Texts, amendments: dict[str, tuple[Rule, ...]]) -> None:
        self.t = t
        self.amendments = amendments
        self.rows: list[tuple[RuleResult, str | None, int, bool]] = []
        # per row, who and where it was checked for (:attr:`Decision.who`), when the game says
        self.who: list[Callable[[], dict[str, Any]] | None] = []

    def add(
        self,
        result: RuleResult,
        note: str | None = None,
        specific: bool = False,
        who: Callable[[], dict[str, Any]] | None = None,
    ) -> None:
        self.rows.append((result, note, len(result.facts), specific))
        self.who.append(who)

    def _cite(self, rule: Rule) -> tuple[Any, str, str, str | None, list[dict[str, str]], bool]:
        t, amendments = self.t, self.amendments
        cited = t._cited.get(rule.id)
        if cited is None or cited[0] is not amendments:
            cited = t._cited[rule.id] = _cited(t, amendments, rule)
        return cited

    def decisions(self) -> list[Decision]:
        out = []
        t, amendments = self.t, self.amendments
        for (result, note, n, specific), who in zip(self.rows, self.who, strict=True):
            d = decision(t, amendments, result, note)
            d._said_from = (t, result.facts, n)
            d.who = who
            if specific:
                d.specific = True
            out.append(d)
        return out

    def hint(self) -> str | None:
        """The hint of the first rule that said no and gives one."""
        for result, _, _, _ in self.rows:
            if result.passed is False:
                hint = self._cite(result.rule)[3]
                if hint:
                    return hint
        return None

    def overlay(self, rs: Ruleset) -> str:
        """:func:`deciding_overlay` of the citations."""
        return _highest_overlay(rs, self._origins())

    def _origins(self) -> Iterator[tuple[str, Any]]:
        """Each citation's layer and its rulings, as :func:`_highest_overlay` reads them."""
        kept, amendments = self.t._cited, self.amendments
        for result, _, _, _ in self.rows:
            rule = result.rule
            if rule.origin == "base" and rule.id not in amendments:  # no ruling: nothing above base
                continue
            cited = kept.get(rule.id)
            yield rule.origin, (cited if cited is not None and cited[0] is amendments else self._cite(rule))[4]

    def dicts(self) -> list[dict[str, Any]]:
        """Each citation's JSON values: ``decision(…).to_dict()``, without the Decision."""
        t, amendments = self.t, self.amendments
        kept, cites = t._said, t._cited
        out = []
        for result, note, n, specific in self.rows:
            rule = result.rule
            cited = cites.get(rule.id)
            if cited is None or cited[0] is not amendments:
                cited = self._cite(rule)
            _, title, text, hint, amended, conditional = cited
            passed = result.passed
            facts = result.facts
            note = _open_note(t, result, note)
            d: dict[str, Any] = {
                "id": rule.id,
                "title": title,
                "text": text,
                "overlay": rule.origin,
                "passed": passed,
                "facts": facts,
            }
            figures = result.figures
            if figures:
                d["figures"] = figures
            if hint and passed is False:
                d["hint"] = hint
            if note:
                d["for"] = note
            if conditional or specific:
                d["conditional"] = True
            if amended:
                d["amended-by"] = [dict(a) for a in amended]
            if result.open:
                d["not-given"] = list(result.open)
            said = []
            for name, value in facts.items() if len(facts) == n else _read(facts, n):
                try:
                    said.append(kept[(name, value.__class__, value)])
                except (KeyError, TypeError):
                    said.append(t.fact(name, value))
            if said:
                d["said"] = said
            out.append(d)
        return out


# The citations of an answer (which rules decided it, with their texts, the hint, the fixes that
# would make a "no" legal, the deciding overlay) as a function giving them in that order; the
# rules as Decisions or as Cites (made into Decisions when read).
if TYPE_CHECKING:  # (an alias made at run time would cost every short process its making)
    Citations = Callable[[], tuple["list[Decision] | Cites", str | None, list[str], str]]


def _cited_field(name: str) -> Any:
    """A citation field of :class:`LateAnswer`: worked out with the others on first read or write."""
    slot = Answer.__dict__[name]  # the record's own slot (the property below stands in front of it)

    def get(self: LateAnswer) -> Any:
        if self._later is not None:
            self._settle()
        return slot.__get__(self, Answer)

    def put(self: LateAnswer, value: Any) -> None:
        if self._later is not None:
            self._settle()
        slot.__set__(self, value)

    return property(get, put)


class LateAnswer(Answer):
    """An answer whose words are worked out when first read (to show or serialise it).

    A program asking thousands of questions reads the verdict and the figures; restating the
    question, rendering each cited rule's texts and walking a failed condition for its fixes is
    then never paid. The words come from the same rule results either way: reading them later
    gives what reading them at once would have.
    """

    __slots__ = ("_asked", "_cites", "_later")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._later: Citations | None = None
        self._asked: Callable[[], str] | None = None
        self._cites: Cites | None = None
        super().__init__(*args, **kwargs)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self._later = self._asked = self._cites = None
        super().__setstate__(state)  # type: ignore[misc]

    def _settle(self) -> None:
        later, self._later = self._later, None
        assert later is not None
        rules, hint, fixes, overlay = later()
        if isinstance(rules, Cites):  # made into Decisions when read
            self._cites = rules
            rules = []
        _RULES.__set__(self, rules)
        _HINT.__set__(self, hint)
        _FIXES.__set__(self, fixes)
        _OVERLAY.__set__(self, overlay)

    @property
    def question(self) -> str:
        """The question restated in the asker's language (said when first read)."""
        asked = self._asked
        if asked is not None:
            self._asked = None
            _QUESTION.__set__(self, asked())
        found: str = _QUESTION.__get__(self, Answer)
        return found

    @question.setter
    def question(self, value: str) -> None:
        self._asked = None
        _QUESTION.__set__(self, value)

    def to_dict(self) -> dict[str, Any]:
        if self._later is not None:
            self._settle()
        cites = self._cites
        rules = cites.dicts() if cites is not None else [d.to_dict() for d in _RULES.__get__(self)]
        return _answer_dict(
            self, self.question, rules, _HINT.__get__(self), _FIXES.__get__(self), _OVERLAY.__get__(self)
        )

    @property
    def rules(self) -> list[Decision]:
        """The cited rules (worked out with the other citation fields on first read)."""
        if self._later is not None:
            self._settle()
        cites = self._cites
        if cites is not None:
            self._cites = None
            _RULES.__set__(self, cites.decisions())
        found: list[Decision] = _RULES.__get__(self)
        return found

    @rules.setter
    def rules(self, value: list[Decision]) -> None:
        if self._later is not None:
            self._settle()
        self._cites = None
        _RULES.__set__(self, value)

    hint = _cited_field("hint")
    fixes = _cited_field("fixes")
    overlay = _cited_field("overlay")


_RULES, _HINT, _FIXES, _OVERLAY, _QUESTION = (
    Answer.__dict__[n] for n in ("rules", "hint", "fixes", "overlay", "question")
)
_new_answer = object.__new__


def late_answer(
    kind: str,
    question: str | Callable[[], str],
    verdict: bool | None,
    figures: dict[str, Any],
    lang: str,
    unless: list[str],
    later: Citations,
) -> LateAnswer:
    """An answer with its verdict and figures now, and its words when first read: the question
    (``question``, or what it returns) and the citations (``later()``)."""
    a = _new_answer(LateAnswer)
    a._later = later
    a._cites = None
    if isinstance(question, str):
        a._asked = None
        _QUESTION.__set__(a, question)
    else:
        a._asked = question
    a.kind = kind
    a.verdict = verdict
    a.figures = figures
    a.lang = lang
    a.details = {}
    a.lines = []
    a.yes_no = True
    a.unless = unless
    a.labels = None
    a.needs = []
    a.ruleset = None
    return a


def cited_answer(
    kind: str,
    question: str,
    verdict: bool | None,
    cites: Cites,
    figures: dict[str, Any],
    lang: str,
    overlay: str,
    details: dict[str, Any],
    lines: list[str],
    yes_no: bool = True,
) -> LateAnswer:
    """An answer whose rules are ``cites``: serialised straight from the rule results, made into
    Decisions only when its rules are read (a Battle cites ~20 rules). Without a hint or fixes."""
    a = _new_answer(LateAnswer)
    a._later = a._asked = None
    a._cites = cites
    _QUESTION.__set__(a, question)
    _RULES.__set__(a, [])
    _HINT.__set__(a, None)
    _FIXES.__set__(a, [])
    _OVERLAY.__set__(a, overlay)
    a.kind = kind
    a.verdict = verdict
    a.figures = figures
    a.lang = lang
    a.details = details
    a.lines = lines
    a.yes_no = yes_no
    a.unless = []
    a.labels = None
    a.needs = []
    a.ruleset = None
    return a


VERDICT_NO_UNLESS = "no-unless"


def _verdict_word(a: Answer) -> str:
    if a.needs:
        return _cannot_tell_word(a.lang)
    if a.verdict is False and a.unless:
        return _no_unless_word(a.lang)
    return yes_no(a.verdict, a.lang)


def _cannot_tell_word(lang: str) -> str:
    """The verdict of a question the position cannot decide, in words."""
    return ui("Cannot tell from this table", lang)


def _no_unless_word(lang: str) -> str:
    """The qualified "no" in words."""
    return ui("No, unless a card, Skill or Structure allows it", lang)


class Texts:
    """Rule titles, texts and hints in one language, rendered once and kept."""

    def __init__(self, rs: Ruleset, lang: str, labels: Any = None) -> None:
        self.rs = rs
        self.lang = lang
        # English is the source: its texts render straight from the rules, without loading
        # the catalog machinery (a short `havoc ask` process never imports it).
        self.tr = translator(lang, rs.id) if lang != "en" else None
        self._cache: dict[str, tuple[str, str, str | None]] = {}
        self._facts: dict[str, tuple[str, str | None]] = {}  # fact -> its words, its values' list
        self._said: dict[tuple[str, type, Any], str] = {}  # (fact, value's class, value) -> in words
        self._terms: dict[tuple[str, int | None], str] = {}  # (term, count) -> its name in that form
        # per rule: (the view's amendments it was made for, title, text, hint, rulings, specific)
        self._cited: dict[str, tuple[Any, str, str, str | None, list[dict[str, str]], bool]] = {}
        self.labels: Any = labels if labels is not None else _PlainLabels()  # the game's words, given
        # the game's own words kept per ruleset and language (forgotten with these texts)
        self.kept: dict[Any, Any] = {}

    def _render(self, context: str, msgid: str) -> str:
        if self.tr is not None:
            return self.tr.render(self.rs, context, msgid)
        from havoc.language import markup

        return markup.render_plain(msgid, self.rs.param, _english_plural)

    def rule(self, rule: Rule) -> tuple[str, str, str | None]:
        found = self._cache.get(rule.id)
        if found is None:
            title = self.tr.text(f"{rule.id}:title", rule.title) if self.tr is not None else rule.title
            text = self._render(f"{rule.id}:text", rule.text) if rule.text else ""
            hint = rule.check.hint if rule.check else None
            hint_text = self._render(f"{rule.id}:hint", hint) if hint else None
            found = self._cache[rule.id] = (title, text, hint_text)
        return found

    def fact(self, name: str, value: Any) -> str:
        """What a rule looked at, in words: the fact's documented meaning and its value (kept per
        fact and value: a fact's values are few, yes/no, small counts, names)."""
        key = (name, value.__class__, value)  # True and 1 are one key without the class
        try:
            return self._said[key]
        except KeyError:
            pass
        except TypeError:  # a value that is no key (a list): said each time
            return self._fact(name, value)
        if len(self._said) >= _SAID_KEPT:  # bounded: a table's counts cannot grow it without end
            self._said.clear()
        found = self._said[key] = self._fact(name, value)
        return found

    def facts(self, items: tuple[tuple[str, Any], ...]) -> list[str]:
        """What a rule looked at, in words: :meth:`fact` of each fact and value (the kept words
        read here directly: a cited rule reads a few facts, and every answer shown says them)."""
        kept = self._said
        out = []
        for name, value in items:
            try:
                out.append(kept[(name, value.__class__, value)])
            except (KeyError, TypeError):
                out.append(self.fact(name, value))
        return out

    def player_facts(
        self, items: tuple[tuple[str, Any], ...], who: dict[str, Any], open: tuple[str, ...] = ()
    ) -> list[str]:
        """What a rule looked at in a player's words: each fact's player words (facts.yaml
        ``player``, in the asker's language) with ``who``'s names filled in (the game's: who asks,
        each subject's name; a fact of a subject read as another, ``from.x`` as ``region.x``,
        names that subject by the other's field) and its value. A fact that only chose a branch
        of the rule is left out (unless the rule read nothing else), and so is one whose value was
        not given; one without player words is said as :meth:`fact` says it."""
        out = []
        branches = []
        for name, value in items:
            head, _, rest = name.partition(".")
            base = self.rs.vocabulary.get("fact-subjects", {}).get(head)
            key = f"{base[0]}.{rest}" if base else name
            fdef = self.rs.facts.get(key)
            player = fdef.player if fdef is not None else None
            if player is None:
                out.append(self.fact(name, value))
                continue
            # a fact that chose a branch, or an empty one, decided nothing; one the question left out
            # that the rule needs (``open``) is said: "not given"
            if player == "" or (value is None and name not in open) or value == "":
                branches.append(self.fact(name, value))
                continue
            if self.tr is not None:
                player = self.tr.text(f"fact:{key}:player", player)
            fields = who if not base else {**who, base[0]: who.get(head)}
            said = _player_words(player, fields)
            if said is None:  # a name it needs is not known here: the fact's description
                out.append(self.fact(name, value))
                continue
            values = fdef.values if fdef is not None else None
            if value is None:  # a fact the question left out (Engine.settle)
                shown = ui("not given", self.lang)
            else:
                shown = self.labels.value(value, self.lang, values) if values else self.labels.value(value, self.lang)
            out.append(f"{said}: {shown}")
        return out or branches

    def _fact(self, name: str, value: Any) -> str:
        found, values = self._facts.get(name, (None, None))
        if found is None:
            head, _, rest = name.partition(".")
            base = self.rs.vocabulary.get("fact-subjects", {}).get(head)  # from.x is read as region.x
            key = f"{base[0]}.{rest}" if base else name
            fdef = self.rs.facts.get(key)
            desc = fdef.description if fdef is not None else name
            if self.tr is not None and fdef is not None:
                desc = self.tr.text(f"fact:{key}:description", desc)
            desc = desc.strip().rstrip(".")
            subject = self.labels.subject(head, self.lang) if base else ""
            if subject:
                desc += f" ({subject})"
            values = fdef.values if fdef is not None else None  # the vocabulary list naming the value
            found, _ = self._facts[name] = (desc, values)
        if value is None:  # a fact the question left out (Engine.settle)
            shown = ui("not given", self.lang)
        else:
            shown = self.labels.value(value, self.lang, values) if values else self.labels.value(value, self.lang)
        return f"{found}: {shown}"

    def term(self, term_id: str, count: int | None = None) -> str:
        """A term's name in the form ``count`` needs (kept per term and count: questions count
        the same few Units again and again)."""
        key = (term_id, count)
        found = self._terms.get(key)
        if found is None:
            if len(self._terms) >= _SAID_KEPT:
                self._terms.clear()
            found = self._terms[key] = self._term(term_id, count)
        return found

    def _term(self, term_id: str, count: int | None) -> str:
        term = self.rs.terms.get(term_id)
        if term is None:
            return term_id
        if self.tr is not None:
            return self.tr.term_name(self.rs, term_id, count)
        return term.name if count is None or _english_plural(count) == 0 else term.plural


_SAID_KEPT = 4096  # fact-and-value words kept per ruleset and language


def _player_words(player: str, fields: dict[str, Any]) -> str | None:
    """A fact's player words with the names ``fields`` gives filled in (each in the case the words
    give it), or None when the words need a name that is not known."""
    if "{" not in player:
        return player
    from _string import formatter_parser

    from havoc.language.i18n import Text

    try:
        if any(f is not None and fields.get(f) is None for _, f, _, _ in formatter_parser(player)):
            return None
        return Text(player).format(**fields)
    except (KeyError, IndexError, ValueError):  # a translation naming another field, a stray brace
        return None


def _english_plural(n: int) -> int:
    return 0 if abs(n) == 1 else 1


_texts: dict[tuple[int, str], Texts] = {}


def texts(rs: Ruleset, lang: str, labels: Any) -> Texts:
    """The kept texts of a ruleset in a language; ``labels`` are its game's words (the caller's game)."""
    key = (id(rs), lang)
    found = _texts.get(key)
    if found is None or found.rs is not rs:
        found = _texts[key] = Texts(rs, lang, labels)
    return found


def decision(
    t: Texts, view_amendments: dict[str, tuple[Rule, ...]], result: RuleResult, note: str | None = None
) -> Decision:
    """Cite one rule; the facts and figures dicts are the evaluation's own (fresh per evaluation)."""
    rule = result.rule
    cited = t._cited.get(rule.id)
    if cited is None or cited[0] is not view_amendments:
        cited = t._cited[rule.id] = _cited(t, view_amendments, rule)
    _, title, text, hint, amended, specific = cited
    d = _new_decision(Decision)
    d.id = rule.id
    d.title = title
    d.text = text
    d.origin = rule.origin
    d.passed = passed = result.passed
    d.facts = facts = result.facts
    d.figures = result.figures
    d.hint = hint if passed is False else None
    d.note = _open_note(t, result, note)
    d.open = result.open
    d.amended_by = [dict(a) for a in amended] if amended else []
    d.specific = specific
    # the facts as they are now, put in words when shown: explaining a "no" later may read
    # more into the same dict
    d._said = None
    d._said_from = (t, facts, len(facts))
    d.who = None
    check = rule.check
    # never allows, and says what happens instead (its figures: a Trog Nest placed, not a retreat)
    d.instead = check is not None and check.requires is False and bool(check.figures)
    return d


_new_decision = object.__new__


def _open_note(t: Texts, result: RuleResult, note: str | None) -> str | None:
    """The citation's note, saying so when the rule was not checked for a fact the question left
    out (:meth:`~havoc.engine.interpreter.engine.Engine.settle`): what it looked at then shows
    that fact as not given."""
    if not result.open:
        return note
    said = ui("not checked: not given", t.lang)
    return f"{note}; {said}" if note else said


def _read(facts: dict[str, Any], n: int) -> tuple[tuple[str, Any], ...]:
    """The first ``n`` facts of a rule's facts dict: those it had read when it was cited.

    Explaining a "no" later (its fixes) may read more facts into the dict of the last rule
    evaluated in the same context; those come after, and a fact read again keeps its place and
    value (read from the context's cache), so the first ``n`` are the facts as cited."""
    items = tuple(facts.items())
    return items if len(items) == n else items[:n]


def _cited(
    t: Texts, view_amendments: dict[str, tuple[Rule, ...]], rule: Rule
) -> tuple[Any, str, str, str | None, list[dict[str, str]], bool]:
    """What every citation of ``rule`` in this language and view shares (worked out once)."""
    title, text, hint = t.rule(rule)
    amendments = view_amendments.get(rule.id)
    amended = (
        [{"id": a.id, "title": t.rule(a)[0], "text": t.rule(a)[1], "overlay": a.origin} for a in amendments]
        if amendments
        else []
    )
    specific = rule.check is not None and rule.check.applies_if is not None
    return view_amendments, title, text, hint, amended, specific


def deciding_overlay(rs: Ruleset, decisions: list[Decision]) -> str:
    """The highest layer among the deciding rules (and their rulings): variant > errata > base."""
    return _highest_overlay(rs, ((d.origin, d.amended_by) for d in decisions))


def _highest_overlay(rs: Ruleset, cited: Iterable[tuple[str, Any]]) -> str:
    """The highest layer among the cited rules' layers and their rulings' (variant > errata > base)."""
    best, rank = "base", 0
    overlays = rs.overlays
    for origin, amended in cited:
        if not amended:
            if origin == "base":
                continue
            origins: Any = (origin,)
        else:
            origins = [origin, *(a["overlay"] for a in amended)]
        for origin in origins:
            overlay = overlays.get(origin)
            r = 0 if overlay is None else (2 if overlay.kind == "variant" else 1)
            if r > rank:
                best, rank = origin, r
    return best


# --- text -------------------------------------------------------------------------


class _PlainLabels:
    """Identifiers as they are, for an answer whose game gave no labels."""

    def name(self, key: str, lang: str) -> str:
        return key

    def figure(self, name: str, lang: str) -> str:
        return name

    def value(self, value: object, lang: str, values: str | None = None) -> str:
        if isinstance(value, bool):
            return ui("yes", lang) if value else ui("no", lang)
        return str(value)

    def subject(self, head: str, lang: str) -> str:
        return ""


def _fmt_figure(words: Any, value: Any, lang: str) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{words.name(k, lang)} {words.value(v, lang)}" for k, v in value.items())
    return str(words.value(value, lang))


# The default text answer fits a phone's screen: at most this many lines of this many columns;
# what does not fit is folded into one line pointing to --explain (issue 38).
SCREEN_LINES = 25
SCREEN_COLUMNS = 60
SHOWN_RULES = 3  # the rules that decided, shown with what they looked at


def _head(a: Answer, explain: bool = False) -> list[str]:
    """The question and its verdict; for one the table cannot decide, what it depends on. The
    verdict stays on the question's line when both fit a phone's line (or when explaining), else
    it has a line of its own."""
    if not a.yes_no or (a.verdict is None and not a.needs):
        return [a.question]
    verdict = _verdict_word(a)
    head = f"{a.question}  {verdict}"
    out = [head] if explain or len(head) <= SCREEN_COLUMNS else [a.question, verdict]
    if a.needs:
        out.append("  " + ui("It depends on", a.lang) + ": " + "; ".join(a.needs))
    return out


def render_text(a: Answer, explain: bool = False) -> str:
    """The answer for a person reading a terminal (or a phone).

    The verdict and its figures come first, then the one to three rules that decided (a "no": the
    rules that said no; a "yes": the rules whose checks held, the most specific first; a report:
    the rules that gave its figures), each with what it looked at in words in the asker's
    language; everything else is folded into one line pointing to ``--explain``, and the whole fits
    :data:`SCREEN_LINES` lines of :data:`SCREEN_COLUMNS` columns or says what it folded.

    ``explain`` shows every rule cited with the machine trace (fact names and values, the
    deciding overlay) for those who check the data; in a translated answer the facts keep their
    words there too (a Polish reader meets no field path). A rule checked several times (once per
    side or candidate) is shown once.
    """
    lang = a.lang
    words = a.labels or _PlainLabels()
    out = _verdict_lines(a, words, explain)
    grouped: dict[str, list[Decision]] = {}
    for d in a.rules:
        grouped.setdefault(d.id, []).append(d)
    ordered = sorted(grouped.values(), key=lambda ds: _rank(a, ds))
    if explain:
        if ordered:
            out.append("")
            out.append(nui("Deciding rule", "Deciding rules", len(ordered), lang) + ":")
        for ds in ordered:
            out.extend(_rule_lines(a, words, ds, explain=True, text=True))
        if a.overlay != "base":
            out.append("")
            out.append(ui("Decided by overlay", lang) + f": {a.overlay}")
        return "\n".join(out)
    top = _wrapped(out)
    steps_only = len(ordered) > SHOWN_RULES and all(x.passed is None and not x.open for ds in ordered for x in ds)
    if not a.yes_no and steps_only:
        # a report made of steps (how a game is set up): no rule allowed or refused anything,
        # every one is a step of the answer, shown by its title
        steps = _wrapped([f"  • {ds[0].title}" for ds in ordered])
        heading = nui("Deciding rule", "Deciding rules", len(ordered), lang) + ":"
        if len(top) + 2 + len(steps) > SCREEN_LINES:  # every step and figure stays; the steps' texts fold
            steps.append(ui("+ the rules' full text and checks: havoc ask … --explain", lang))
        return "\n".join([*top, "", heading, *steps])
    shown_groups = ordered[:SHOWN_RULES]
    with_text = True
    trimmed = False  # what the rules looked at was cut short to fit

    # the stated assumptions: rules not checked for a fact the question left out, after the
    # rules that decided, always shown (what the answer did not look at)
    assumed = [ds for ds in ordered[SHOWN_RULES:] if any(x.open for x in ds)]

    def blocks() -> list[str]:
        lines: list[str] = []
        for i, ds in enumerate(shown_groups):
            lines.extend(_rule_lines(a, words, ds, explain=False, text=with_text and i == 0))
        for ds in assumed:
            lines.extend(_rule_lines(a, words, ds, explain=False, text=False))
        return _wrapped(lines)

    def folded_line(rules: int) -> list[str]:
        if rules:
            said = nui("+ {n} more rule: havoc ask … --explain", "+ {n} more rules: havoc ask … --explain", rules, lang)
            return _wrapped([said.format(n=rules)])
        if trimmed or (not with_text and shown_groups):
            return _wrapped([ui("+ the rules' full text and checks: havoc ask … --explain", lang)])
        return []

    def total() -> int:
        rest = len(ordered) - len(shown_groups) - len(assumed)
        return len(top) + (2 if shown_groups else 0) + len(body) + len(folded_line(rest))

    body = blocks()
    while total() > SCREEN_LINES:
        if with_text and _has_text(a, shown_groups):
            with_text = False
        elif len(shown_groups) > 1:
            shown_groups = shown_groups[:-1]
        else:
            break
        body = blocks()
    if shown_groups and total() > SCREEN_LINES:  # one rule, still too long: cut what it looked at
        trimmed = True
        room = max(1, SCREEN_LINES - len(top) - 2 - len(folded_line(len(ordered) - 1 - len(assumed))))
        body = body[:room]
    out = top
    if shown_groups:
        out.append("")
        out.append(nui("Deciding rule", "Deciding rules", len(shown_groups) + len(assumed), lang) + ":")
        out.extend(body)
    out.extend(folded_line(len(ordered) - len(shown_groups) - len(assumed)))
    return "\n".join(out)


def _verdict_lines(a: Answer, words: Any, explain: bool) -> list[str]:
    """The verdict and its figures, the hint and the fixes: what an answer leads with."""
    lang = a.lang
    out = _head(a, explain)
    for line in a.lines:
        out.append(f"  {line}")
    if a.figures and not a.lines:
        shown = a.figures
        if a.verdict is False:  # a "no": only the figures of the rules that said no
            keep = {k for d in a.rules for k in d.figures}
            shown = {k: v for k, v in a.figures.items() if k in keep}
        for name, value in shown.items():
            out.append(f"  {words.figure(name, lang)}: {_fmt_figure(words, value, lang)}")
    if a.hint:
        out.append(ui("Hint", lang) + f": {a.hint}")
    if a.fixes:
        out.append(ui("It would be allowed", lang) + ":")
    for fix in a.fixes:
        out.append(f"  - {fix}")
    return out


def _rank(a: Answer, ds: list[Decision]) -> int:
    """Where a cited rule comes among the rules that decided (lower first).

    A "no": the rules that said no, then those giving a figure or applying only in some
    situations (an exception), then the rest. A "yes": the rules whose checks held, the most
    specific first (applies only in some situations, then gives a figure, then a general check),
    then the rules that did not apply. A report (who wins, what follows in a Battle): the rules
    that gave its figures (those worked out per side or candidate first), then the specific ones, then those that held; a candidate a rule
    refused (one retreat destination among several) comes last: it did not make the report."""
    d = ds[0]
    failed = any(x.passed is False and not (x.instead and not a.yes_no) for x in ds)
    held = any(x.passed is True for x in ds)
    if a.yes_no and a.verdict is False:
        return 0 if failed else 1 if (d.figures or d.specific) else 2
    if a.yes_no:
        if held:
            return 0 if d.specific else 1 if d.figures else 2
        return 3 if (d.figures or d.specific) else 4
    if failed:
        return 5
    if d.figures:  # a figure worked out for a side or a candidate (who wins an objective) first
        return 0 if any(x.note for x in ds) else 1
    return 2 if d.specific else 3 if held else 4


def _has_text(a: Answer, groups: list[list[Decision]]) -> bool:
    """The first shown rule is shown with its text (it said no, gives a figure or is specific)."""
    if not groups:
        return False
    ds = groups[0]
    d = next((x for x in ds if x.passed is False), ds[0])
    return bool(d.passed is False or d.figures or d.specific)


def _rule_lines(a: Answer, words: Any, ds: list[Decision], explain: bool, text: bool) -> list[str]:
    """One cited rule: its mark and title, its text (``text``: when it said no, gives a figure
    or is specific), what it looked at and the rulings on it."""
    lang = a.lang
    out = []
    d = next((x for x in ds if x.passed is False), ds[0])
    mark = "✗" if d.passed is False else "✓" if d.passed else "•"
    if d.instead and not a.yes_no:  # in a report, a rule that never allows says what happens instead
        mark = "•"
    overlay_word = ui("overlay", lang)
    origin = f" ({overlay_word}: {d.origin})" if d.origin != "base" and explain else ""
    notes = list(dict.fromkeys(x.note for x in ds if x.note))
    note = f" — {'; '.join(notes)}" if notes else ""
    rid = f" [{d.id}]" if explain else ""
    out.append(f"  {mark} {d.title}{rid}{origin}{note}")
    if text and (d.passed is False or d.figures or d.specific):
        for para in d.text.split("\n"):  # a paragraph wraps under itself (on a phone)
            out.extend(([f"      {para}"] if explain else _wrap(para, "      ", "      ")) if para else [""])
    checked = ui("checked", lang)
    distinct = [x for i, x in enumerate(ds) if x.facts and all(x.facts != y.facts for y in ds[:i])]
    for x in distinct if len(distinct) > 1 else [d] if d.facts else []:
        who = f" ({x.note})" if len(distinct) > 1 and x.note else ""
        if explain and lang == SOURCE_LANGUAGE:
            facts = "; ".join(f"{k} = {words.value(v, lang)}" for k, v in x.facts.items())
            out.append(f"      {checked}{who}: {facts}")
        elif explain:  # a translated trace names each fact by its words, never by its path (query.deck)
            out.append(f"      {checked}{who}: " + "; ".join(x.said))
        else:  # in a player's words: "PZ Ludzi: 7"
            said = ui("looked at", lang)
            out.append(f"      {said}{who}: " + "; ".join(x.looked_at))
    for am in d.amended_by:
        ref = f" [{am['id']}]" if explain else ""
        out.append("      " + ui("ruling", lang) + f"{ref}: {am['text']}")
    return out


def _wrapped(lines: list[str]) -> list[str]:
    """``lines`` wrapped at :data:`SCREEN_COLUMNS`, each keeping its indentation (a continued
    line indented two more, so it reads as the same item)."""
    out: list[str] = []
    for line in lines:
        if len(line) <= SCREEN_COLUMNS:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        out.extend(_wrap(line.strip(), indent, indent + "  "))
    return out


def _wrap(text: str, first: str, rest: str) -> list[str]:
    """``text`` in lines of at most :data:`SCREEN_COLUMNS`, broken at spaces (a word longer than
    a line is cut); the first line indented ``first``, the others ``rest`` (what textwrap does,
    without importing it and ``re`` into every short process that answers a question)."""
    out: list[str] = []
    line = first
    empty = True
    for word in text.split():
        while len(rest) + len(word) > SCREEN_COLUMNS:  # a word no line holds: cut it
            if not empty:
                out.append(line)
                line, empty = rest, True
            room = SCREEN_COLUMNS - len(line)
            out.append(line + word[:room])
            word = word[room:]
            line = rest
        if empty:
            line, empty = line + word, False
        elif len(line) + 1 + len(word) <= SCREEN_COLUMNS:
            line += " " + word
        else:
            out.append(line)
            line = rest + word
    if not empty:
        out.append(line)
    return out
