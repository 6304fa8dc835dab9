"""The Advanced Cry Havoc 2 chart lookups against the values printed in seed 004.

The expected values below are typed from the seed, not read from the rules, so a wrong cell in
``rules/advanced-cry-havoc`` (or a wrong parse) fails here.
"""

from __future__ import annotations

import pytest

from havoc.core.errors import InputError
from havoc.engine import rulebook
from havoc.engine.rulebook.model import Ruleset
from havoc.games.advanced_cry_havoc import lookups as L

BANDS = ("Point blank", "Short range", "Medium range", "Long range")
POWER = {"low": (7, 5, 3, 1), "medium": (9, 6, 4, 2), "high": (10, 8, 5, 3)}
# weapon: (power class, (point blank, short, medium, long) as printed, ammo (None: ∞), letters)
SEED_WEAPONS = {
    "Throwing stone": ("low", ("1", "2", "3", "4"), None, "F"),
    "Mounted javelin": ("low", ("1-2", "-", "3-10", "11-15"), 4, "F"),
    "Foot javelin": ("low", ("1-2", "-", "3-12", "13-25"), 4, ""),
    "Mounted short bow": ("low", ("1-2", "3-4", "5-13", "14-30"), None, "R"),
    "Foot short bow": ("low", ("1-2", "3-4", "5-25", "26-50"), None, ""),
    "Early Welsh longbow": ("low", ("1-2", "3-4", "5-40", "41-80"), None, "N"),
    "Staff sling": ("low", ("-", "-", "3-20", "21-40"), None, "N"),
    "Mounted composite bow": ("medium", ("1-2", "3-4", "5-15", "16-35"), None, "R"),
    "Foot composite bow": ("medium", ("1-2", "3-4", "5-30", "31-70"), None, ""),
    "English longbow": ("medium", ("1-2", "3-4", "5-60", "61-90"), None, "N"),
    "Mounted lance": ("medium", ("1-2", "-", "3-6", "7-9"), 1, "FR"),
    "Foot lance": ("medium", ("1-2", "-", "3-8", "9-12"), 1, "F"),
    "Sling": ("medium", ("1-2", "3-4", "5-15", "16-30"), None, "FN"),
    "Early crossbow": ("high", ("1-2", "3-4", "5-30", "31-60"), None, "FSN"),
    "Throwing axe": ("high", ("-", "3-4", "-", "7-8"), 1, "F"),
    "Throwing dagger": ("high", ("1", "2", "3-4", "5-7"), 4, "FR"),
}


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return rulebook.load("advanced-cry-havoc")


def _span(cell: str) -> tuple[int, int]:
    lo, _, hi = cell.partition("-")
    return int(lo), int(hi or lo)


BAND_CASES = [
    (weapon, b, cell)
    for weapon, (_, cells, _, _) in SEED_WEAPONS.items()
    for b, cell in enumerate(cells)
    if cell != "-"
]


@pytest.mark.parametrize(("weapon", "band", "cell"), BAND_CASES)
def test_every_weapon_band_gives_the_seed_power_and_ammo(rs: Ruleset, weapon: str, band: int, cell: str) -> None:
    klass, _, ammo, letters = SEED_WEAPONS[weapon]
    for distance in sorted(set(_span(cell))):
        got = L.range_lookup(rs, weapon, distance)
        assert got.status == L.FOUND, (weapon, distance, got)
        assert (got.weapon, got.band, got.power, got.ammo, got.specials) == (
            weapon,
            BANDS[band],
            POWER[klass][band],
            ammo,
            letters,
        )
        assert got.rules == ("acv-ranged-weapons", "acv-ranged-power")


@pytest.mark.parametrize("weapon", list(SEED_WEAPONS))
def test_beyond_the_long_band_is_out_of_range(rs: Ruleset, weapon: str) -> None:
    longest = _span(SEED_WEAPONS[weapon][1][3])[1]
    assert L.range_lookup(rs, weapon, longest + 1).status == L.OUT_OF_RANGE
    assert L.range_lookup(rs, weapon, longest).status == L.FOUND


DASH_FIRST = [(w, d) for w, (_, cells, _, _) in SEED_WEAPONS.items() if cells[0] == "-" for d in (1, 2)]


@pytest.mark.parametrize(("weapon", "distance"), DASH_FIRST)
def test_a_dash_before_the_first_band_is_no_band_in_every_row(rs: Ruleset, weapon: str, distance: int) -> None:
    # 004 prints a dash for the point blank band of the staff sling and of the throwing axe alike
    assert {w for w, _ in DASH_FIRST} == {"Staff sling", "Throwing axe"}
    got = L.range_lookup(rs, weapon, distance)
    assert (got.status, got.band, got.power, got.reason) == (L.NO_BAND, None, None, None)


@pytest.mark.parametrize("distance", [5, 6])
def test_the_throwing_axe_gap_between_bands_is_refused_with_the_reason(rs: Ruleset, distance: int) -> None:
    got = L.range_lookup(rs, "throwing axe", distance)
    assert got.status == L.REFUSED
    assert got.power is None and got.band is None
    assert got.reason and "source" in got.reason
    assert got.rules[0] == "acv-ranged-undetermined"


def test_the_dash_rule_is_stated_on_the_weapons_page(rs: Ruleset) -> None:
    text = rs.rules["acv-ranged-weapons"].text
    assert "one rule reads it in" in text and "no band" in text and "out of range" in text


def test_weapon_names_are_matched_or_refused(rs: Ruleset) -> None:
    assert L.range_lookup(rs, "ENGLISH LONGBOW", 45).band == "Medium range"
    assert L.range_lookup(rs, "crossbow", 31).power == 3
    with pytest.raises(InputError, match="ambiguous"):
        L.range_lookup(rs, "longbow", 5)
    with pytest.raises(InputError, match="not in the chart"):
        L.range_lookup(rs, "musket", 5)
    with pytest.raises(InputError, match="at least 1"):
        L.range_lookup(rs, "sling", 0)


# (mounted band, foot band, courage) as printed
SEED_COURAGE = [
    ((19, 40), (13, 40), 9),
    ((15, 18), (11, 12), 8),
    ((11, 14), (9, 10), 7),
    ((8, 10), (7, 8), 6),
    ((5, 7), (5, 6), 5),
    ((3, 4), (3, 4), 4),
    ((1, 2), (1, 2), 3),
]


@pytest.mark.parametrize(("mounted", "foot", "courage"), SEED_COURAGE)
def test_every_courage_row(rs: Ruleset, mounted: tuple[int, int], foot: tuple[int, int], courage: int) -> None:
    for d in mounted:
        assert L.courage(rs, d, mounted=True).result == str(courage)
    for d in foot:
        assert L.courage(rs, d, mounted=False).result == str(courage)


def test_courage_refuses_a_def_factor_below_one(rs: Ruleset) -> None:
    with pytest.raises(InputError, match="DEF"):
        L.courage(rs, 0, mounted=False)


SEED_IMPAIRMENT = [
    (0, 4, "No effect"),
    (5, 6, "Activation over"),
    (7, 8, "Impaired"),
    (9, 30, "Impaired, unhorsed and Prone"),
]
SEED_WAKING = [
    (0, 4, "Healthy"),
    (5, 5, "Healthy and Impaired"),
    (6, 6, "Wounded and Impaired"),
    (7, 8, "Stunned"),
    (9, 30, "Dead"),
]


@pytest.mark.parametrize(("lo", "hi", "effect"), SEED_IMPAIRMENT)
def test_every_impairment_band(rs: Ruleset, lo: int, hi: int, effect: str) -> None:
    for roll in (lo, hi):
        assert L.impairment(rs, roll).result == effect


@pytest.mark.parametrize(("lo", "hi", "effect"), SEED_WAKING)
def test_every_waking_up_band(rs: Ruleset, lo: int, hi: int, effect: str) -> None:
    for roll in (lo, hi):
        assert L.waking(rs, roll).result == effect


@pytest.mark.parametrize("situation", ["armored", "wounded", "charging"])
def test_each_impairment_modifier_adds_one(rs: Ruleset, situation: str) -> None:
    got = L.impairment(rs, 6, situations=[situation])
    assert (got.value, got.result) == (7, "Impaired")
    assert [a.value for a in got.applied] == [1]


def test_impairment_modifiers_add_up_with_numbers(rs: Ruleset) -> None:
    got = L.impairment(rs, 4, extra=[1], situations=["armored", "wounded", "charging"])
    assert (got.value, got.result) == (8, "Impaired")


def test_waking_up_modifiers(rs: Ruleset) -> None:
    assert L.waking(rs, 6, situations=["aid"]).result == "Healthy and Impaired"
    got = L.waking(rs, 9, situations=["enemy exerting:3"])
    assert (got.value, got.result) == (6, "Wounded and Impaired")
    with pytest.raises(InputError, match="counts once"):
        L.waking(rs, 5, situations=["aid:2"])
    with pytest.raises(InputError, match="0 or more"):
        L.waking(rs, -1)


def test_waking_up_below_the_chart_is_healthy(rs: Ruleset) -> None:
    # "4 or -": any lower total is still Healthy (the band is open downwards)
    assert L.waking(rs, 0, extra=[-3]).result == "Healthy"


def test_impairment_below_zero_is_not_covered(rs: Ruleset) -> None:
    got = L.impairment(rs, 0, extra=[-1])
    assert got.status == L.NOT_COVERED and got.result is None


SEED_MORALE = {"scared": 1, "panic": 2, "enemy zoi": 1, "banner": -1, "knight": -1, "leader": -2}


@pytest.mark.parametrize(("situation", "value"), list(SEED_MORALE.items()))
def test_each_morale_modifier(rs: Ruleset, situation: str, value: int) -> None:
    assert L.morale(rs, [situation], "recovery").total == value


def test_the_enemy_zoi_line_counts_in_a_recovery_check_only(rs: Ruleset) -> None:
    got = L.morale(rs, ["enemy zoi", "scared"], "morale")
    assert got.total == 1 and got.check == "morale"
    assert [(a.label, a.why_not) for a in got.applied if not a.counted] == [
        ("In an enemy ZOI (recovery checks only)", "recovery-only")
    ]
    assert L.morale(rs, ["enemy zoi", "scared"], "recovery").total == 2
    with pytest.raises(InputError):
        L.morale(rs, ["scared"], "rally")


def test_a_roll_against_courage_gives_the_modified_roll_and_refuses_the_result(rs: Ruleset) -> None:
    got = L.morale(rs, ["panic", "leader"], "recovery", roll=6, courage=5)
    assert (got.roll, got.modified, got.courage, got.status) == (6, 6, 5, L.REFUSED)
    assert got.rules[-1] == "acv-morale-against-courage" and "acv-courage" in got.rules
    assert got.reason and "not determinable" in got.reason
    assert L.morale(rs, ["panic"]).status == L.FOUND  # the modifiers alone are an answer


def test_negative_morale_modifiers_are_not_cumulative(rs: Ruleset) -> None:
    got = L.morale(rs, ["banner", "knight", "leader", "panic"], "morale")
    assert got.total == 0  # +2 panic, only the leader's -2 of the three negatives
    dropped = [a.label for a in got.applied if not a.counted]
    assert dropped == ["In LOS of a friendly banner", "Adjacent to a Good Order Knight"]
    assert L.morale(rs, ["banner", "knight"]).total == -1
    assert got.rules == ("acv-morale-modifiers", "acv-morale-not-cumulative")  # cites our reading
    assert L.morale(rs, ["banner", "scared"]).rules == ("acv-morale-modifiers",)


SEED_CC_SHIFTS = {
    "parry": -2,
    "armored": -2,
    "light cover": -1,
    "medium cover": -2,
    "heavy cover": -3,
    "engaged by another": 1,
    "attacked by a charge": 2,
    "stunned": 6,
    "fumble": 2,
    "under an engaged marker": 1,
    "impaired": 2,
    "scared": 1,
    "panic": 2,
    "prone": 4,
    "side hex": 2,
    "on foot and attacked from a rear": 4,
    "mounted and attacked from a rear": 2,
}
SEED_CC_MODS = {
    "light impediment": 1,
    "medium impediment": 2,
    "engaged marker": -1,
    "scared": 2,
    "move and attack": 1,
    "zoi of an enemy": 1,
    "reaction swing": -1,
}


@pytest.mark.parametrize(("situation", "value"), list(SEED_CC_SHIFTS.items()))
def test_each_close_combat_shift(rs: Ruleset, situation: str, value: int) -> None:
    assert L.combat(rs, target=[situation]).shift_total == value


@pytest.mark.parametrize(("situation", "value"), list(SEED_CC_MODS.items()))
def test_each_close_combat_modifier(rs: Ruleset, situation: str, value: int) -> None:
    assert L.combat(rs, attacker=[situation]).modifier_total == value


def test_starred_shifts_keep_only_the_most_beneficial(rs: Ruleset) -> None:
    got = L.combat(rs, target=["scared", "impaired", "side hex", "armored", "stunned"])
    assert got.shift_total == -2 + 6 + 2  # armored, stunned, and one of the starred: impaired (2)
    assert [a.label for a in got.shifts if a.why_not == "not-cumulative"] == [
        "Under a Scared marker",
        "On foot and attacked from a side hex",
    ]


def test_an_animal_target_takes_only_the_marked_shifts(rs: Ruleset) -> None:
    got = L.combat(rs, target=["armored", "heavy cover", "attacked by a charge", "stunned", "prone"], animal=True)
    assert got.shift_total == -2 - 3 + 2
    assert {a.label for a in got.shifts if a.why_not == "not-animal"} == {"Stunned", "Under a Prone marker"}


def test_the_enemy_zoi_modifier_counts_per_enemy(rs: Ruleset) -> None:
    assert L.combat(rs, attacker=["zoi of an enemy:3", "reaction swing"]).modifier_total == 2


def test_the_combat_result_is_refused_with_the_reason(rs: Ruleset) -> None:
    got = L.combat(rs, target=["prone"])
    assert got.status == L.REFUSED
    assert got.reason and "14" in got.reason and "13" in got.reason
    assert "acv-combat-table" in got.rules


SEED_RANGED_SHIFTS = {
    "impaired": 1,
    "stunned": 2,
    "rear hex": 1,
    "reaction fire": -1,
    "armored": -2,
    "light cover": -1,
    "medium cover": -2,
    "heavy cover": -3,
}
SEED_RANGED_MODS = {"watch": -1, "elevation": -1, "wounded": 2, "scared": 1, "engaged target": 2, "spent any mf": 2}


@pytest.mark.parametrize(("situation", "value"), list(SEED_RANGED_SHIFTS.items()))
def test_each_ranged_shift(rs: Ruleset, situation: str, value: int) -> None:
    assert L.combat(rs, target=[situation], ranged=True).shift_total == value


@pytest.mark.parametrize(("situation", "value"), list(SEED_RANGED_MODS.items()))
def test_each_ranged_modifier(rs: Ruleset, situation: str, value: int) -> None:
    assert L.combat(rs, attacker=[situation], ranged=True).modifier_total == value


def test_ranged_shifts_all_count_together(rs: Ruleset) -> None:
    assert L.combat(rs, target=["impaired", "stunned", "rear hex"], ranged=True).shift_total == 4


def test_a_situation_named_twice_is_refused(rs: Ruleset) -> None:
    with pytest.raises(InputError, match="twice"):
        L.combat(rs, target=["prone", "under a prone"])


# status: (exerts a ZOI, may interrupt, may react, may charge, backing etc., if Impaired, if Stunned)
SEED_STATUS = {
    "healthy": ("Yes", "Yes", "Yes", "Yes", "Yes", "Impaired", "Stunned"),
    "wounded": ("Yes", "Yes", "Yes", "No", "Yes", "Impaired", "Dead"),
    "stunned": ("No", "No", "No", "No", "No", "No effect", "Dead"),
    "scared": ("Yes", "No", "Yes", "No", "Yes", "Impaired", "Remove"),
    "panic": ("No", "No", "No", "No", "No", "Impaired", "Remove"),
    "fumble": ("No", "No", "No", "No", "No", "Impaired", "Remove"),
    "impaired": ("No", "No", "No", "No", "No", "Activated", "Remove"),
    "charge": ("Yes", "Yes", "Yes", "-", "No", "Activated and Impaired", "Remove"),
    "parry": ("No", "No", "No", "No", "No", "Remove, Parry and Impaired", "Remove"),
    "prone": ("No", "No", "No", "No", "No", "Impaired", "Remove"),
}


@pytest.mark.parametrize(("name", "values"), list(SEED_STATUS.items()))
def test_every_status_line(rs: Ruleset, name: str, values: tuple[str, ...]) -> None:
    got = L.status(rs, name)
    assert got.status == L.FOUND
    cells = [cell for _, cell in got.effects]
    assert (*cells[:5], *cells[6:]) == values


@pytest.mark.parametrize("name", ["engaged", "Engaged (second line)", "ENGAGED (first"])
def test_both_engaged_lines_are_refused_with_the_reason(rs: Ruleset, name: str) -> None:
    got = L.status(rs, name)
    assert got.status == L.REFUSED and got.effects == ()
    assert got.reason and "ENGAGED twice" in got.reason
    assert got.rules[0] == "acv-status-undetermined"


def test_ranged_shots_at_an_animal_drop_only_the_rear_hex_shift(rs: Ruleset) -> None:
    # 004: "LOS through a rear hex (not animals)"; no other ranged shift is limited
    got = L.combat(rs, target=["rear hex"], ranged=True, animal=True)
    assert got.shift_total == 0
    assert [(a.label, a.counted, a.why_not) for a in got.shifts] == [
        ("LOS through a rear hex (not animals)", False, "not-animal")
    ]
    got = L.combat(rs, target=["armored", "heavy cover", "stunned"], ranged=True, animal=True)
    assert got.shift_total == -2 - 3 + 2 and all(a.counted for a in got.shifts)
    assert L.combat(rs, target=["rear hex"], ranged=True).shift_total == 1  # not an animal: it counts
