"""Dates of the rules' sources in the reader's language ("19 August 2016", "19 sierpnia 2016").

A source gives its date as ISO text of any precision ("2016-08-19", "2016-08" or "2016"); only
what it gives is shown, so a year stays a year and nothing is invented. Babel (a dependency)
supplies the month names, in Polish in the genitive a date needs.
"""

from __future__ import annotations

import datetime as dt
import re

from babel.dates import format_date as _babel_format

_ISO = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")


def format_date(value: object, lang: str, short: bool = False) -> str | None:
    """``value`` (an ISO date of any precision) in ``lang``; None when it is missing or not a date.

    ``short`` abbreviates the month ("19 Aug 2016") for tight places like the sheet's footer.
    """
    if isinstance(value, dt.date):
        value = value.isoformat()
    match = _ISO.match(str(value).strip()) if value not in (None, "") else None
    if match is None:
        return None
    year, month, day = match.groups()
    locale = lang.replace("-", "_")
    month_pattern = "MMM" if short else "MMMM"
    try:
        if day:
            when = dt.date(int(year), int(month), int(day))
            if short and locale != "en":
                # Polish abbreviates a date in figures ("19.08.2016"), never the month ("19 sie 2016")
                return _babel_format(when, "short", locale=locale).replace(f".{when:%y}", f".{when.year}")
            return _babel_format(when, f"d {month_pattern} y", locale=locale)
        if month:
            # a month on its own is the standalone form ("sierpień 2016", not "sierpnia")
            standalone = "LLL" if short and locale == "en" else "LLLL"
            return _babel_format(dt.date(int(year), int(month), 1), f"{standalone} y", locale=locale)
    except ValueError:
        return None
    return year
