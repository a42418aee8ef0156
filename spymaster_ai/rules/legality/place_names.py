"""Multi-word place names: the one exception to "one word" that needs no game option.

Why a module of its own: RULES.md §4.4 refuses spaces and hyphens except in place names
(fa: "New York"), and nothing offline in the stack knows places of several words (wordfreq
lists single words; lemminflect lists no names). This short list is the whole source: well-known
countries, states and provinces, cities and natural features written in two words or more,
lower case, accents dropped, hyphens written as spaces ("port au prince"). A place it misses
is refused like any other phrase unless the game allows multi-word clues; add it here.
"""

from __future__ import annotations

PLACE_NAMES: frozenset[str] = frozenset(
    line.strip()
    for line in """
    united states
    united kingdom
    united arab emirates
    great britain
    northern ireland
    new zealand
    south africa
    south korea
    north korea
    south sudan
    sri lanka
    saudi arabia
    costa rica
    puerto rico
    el salvador
    dominican republic
    czech republic
    central african republic
    sierra leone
    papua new guinea
    new guinea
    equatorial guinea
    guinea bissau
    hong kong
    ivory coast
    cape verde
    san marino
    vatican city
    east timor
    burkina faso
    north macedonia
    trinidad and tobago
    bosnia and herzegovina
    antigua and barbuda
    marshall islands
    solomon islands
    faroe islands
    new york
    new jersey
    new mexico
    new hampshire
    north carolina
    south carolina
    north dakota
    south dakota
    west virginia
    rhode island
    british columbia
    nova scotia
    new brunswick
    prince edward island
    new south wales
    western australia
    south australia
    northern territory
    new england
    new york city
    los angeles
    san francisco
    san diego
    san antonio
    san jose
    las vegas
    new orleans
    salt lake city
    kansas city
    santa fe
    santa barbara
    silicon valley
    wall street
    times square
    central park
    new delhi
    mexico city
    buenos aires
    rio de janeiro
    sao paulo
    santo domingo
    san juan
    la paz
    port au prince
    panama city
    quebec city
    tel aviv
    cape town
    kuala lumpur
    abu dhabi
    ho chi minh city
    phnom penh
    addis ababa
    dar es salaam
    monte carlo
    hong kong island
    middle east
    far east
    latin america
    south america
    north america
    central america
    north pole
    south pole
    mount everest
    mount fuji
    mount kilimanjaro
    mount olympus
    grand canyon
    death valley
    niagara falls
    victoria falls
    great barrier reef
    great lakes
    dead sea
    red sea
    black sea
    north sea
    caspian sea
    pacific ocean
    atlantic ocean
    indian ocean
    arctic ocean
    southern ocean
    sahara desert
    gobi desert
    rocky mountains
    easter island
    loch ness
    """.strip().splitlines()
)
