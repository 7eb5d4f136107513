"""The default Italian watched list, loaded by a data migration; staff edit it in the back office.

Each row: (pattern, kind, category, action, in_game_only). Words are normalised as the lines are
(``moderation.filters``): write them plainly, ``*`` at the end for any ending. Kept short on
purpose: words that are also ordinary Italian ("scopa" is a game, "penne" pasta) stay out.
"""

from __future__ import annotations

from typing import Any

W, P, R = "word", "phrase", "regex"


_INSULTS = (
    "stronz*",
    "coglion*",
    "idiot*",
    "imbecill*",
    "cretin*",
    "deficient*",
    "minchion*",
    "scemo",
    "scema",
    "scemi",
    "pirla",
    "bastard*",
    "cornut*",
    "vaffancul*",
    "fanculo",
    "fancul*",
    "sfigat*",
    "demente",
    "dementi",
    "mongoloid*",
    "ritardat*",
    "fdp",
    "incapac*",
)
_INSULT_PHRASES = (
    "figlio di puttana",
    "figli di puttana",
    "vai a cagare",
    "testa di cazzo",
    "pezzo di merda",
)
_OBSCENE = (
    "cazzo",
    "cazzi",
    "cazzat*",
    "merda",
    "merde",
    "puttan*",
    "troia",
    "troie",
    "zoccol*",
    "mignott*",
    "pompin*",
    "inculat*",
    "sborr*",
    "figa",
    "fighe",
    "porca troia",
)
_BLASPHEMY_WORDS = ("porcodio", "diocane", "dioporco", "dioboia", "porcamadonna", "diobestia", "porcoddio")
_BLASPHEMY_PHRASES = (
    "porco dio",
    "dio cane",
    "dio porco",
    "dio boia",
    "dio bestia",
    "porca madonna",
    "madonna puttana",
    "porco cristo",
    "cristo porco",
    "dio maiale",
    "madonna troia",
)
_RACISM = ("negro", "negri", "negra", "negre", "frocio", "froci", "ricchion*", "terron*", "giudeo", "giudei")
_RACISM_PHRASES = (
    "sporco ebreo",
    "sporchi ebrei",
    "sporco negro",
    "torna al tuo paese",
    "tornatene al tuo paese",
)
_INTIMIDATION = (
    "ti ammazzo",
    "ti uccido",
    "ti trovo",
    "so dove abiti",
    "ti vengo a prendere",
    "ti spacco la faccia",
    "vattene",
    "sparisci",
    "lascia il tavolo",
    "esci dal tavolo",
    "abbandona il tavolo",
    "lascia il sito",
    "cambia sito",
)
_PROMOTION_REGEX = (
    r"https?://\S+",
    r"\bwww\s*\.\s*\S+",
    r"\bt\.me/\S+",
    # a domain, also written "nome punto it" or "nome (dot) it"; with spaces around the dot only the
    # endings that are no Italian word ("Bravo. Io..." is no link)
    r"\b[a-z0-9-]{2,}(?:\.|\s*[(\[]dot[)\]]\s*|\s+dot\s+|\s+punto\s+)(?:com|it|net|org|eu|io|info|biz|bet|me|tv|co|gg|app|casino|poker)\b",
    r"\b[a-z0-9-]{2,}\s*\.\s*(?:com|net|org|bet|casino|biz)\b",
    # a phone number: eight digits or more, spaced or dotted as people write them
    r"(?:\+|\b00)?\b\d(?:[\s./-]?\d){7,}\b",
)
_PROMOTION_WORDS = ("telegram", "whatsapp", "watsapp")
# "Durante il gioco": revealing cards, the score, the hand in progress; inducing or agreeing.
_CARDS = (
    "asso",
    "assi",
    "re",
    "donna",
    "donne",
    "fante",
    "fanti",
    "cavallo",
    "cavalli",
    "settebello",
    "sette",
    "jolly",
    "matta",
    "matte",
    "coppia",
    "doppia",
    "tris",
    "full",
    "poker",
    "scala",
    "colore",
    "primiera",
    "denari",
    "bastoni",
    "spade",
    "coppe",
    "cuori",
    "quadri",
    "fiori",
    "picche",
    "briscola",
    "carico",
    "carichi",
)
_GAME_TALK_HOLD = (
    *(
        f"{verb} {filler}{card}"
        for card in _CARDS
        for verb in ("ho", "avevo", "tengo")
        for filler in ("", "* ")
    ),
    "ho scartato",
    "ho in mano",
    "sono a * punti",
    "ho * punti",
    "siamo a * punti",
    "ho fatto * punti",
    "ho fatto * scop*",
    "mi serve *",
    "mi manca *",
    "mi mancano *",
)
_GAME_TALK_FLAG = ("questa mano", "questa partita", "non chiudere", "passa che", "lascia la mano")
_COLLUSION = (
    "facciamo a meta",
    "dividiamo",
    "ti lascio vincere",
    "lasciami vincere",
    "perdo apposta",
    "perdi apposta",
    "facciamo pari",
    "ci mettiamo d accordo",
    "mettiamoci d accordo",
)
_COMPLAINT = (
    "gioco truccato",
    "e truccato",
    "sito truccato",
    "carte truccate",
    "mazzo truccato",
    "rng truccato",
)


def rows() -> list[tuple[str, str, str, str, bool]]:
    """The default entries."""
    out: list[tuple[str, str, str, str, bool]] = []
    out += [(w, W, "insult", "censor", False) for w in _INSULTS]
    out += [(p, P, "insult", "block", False) for p in _INSULT_PHRASES]
    out += [(w, P if " " in w else W, "obscenity", "censor", False) for w in _OBSCENE]
    out += [(w, W, "blasphemy", "block", False) for w in _BLASPHEMY_WORDS]
    out += [(p, P, "blasphemy", "block", False) for p in _BLASPHEMY_PHRASES]
    out += [(w, W, "racism", "block", False) for w in _RACISM]
    out += [(p, P, "racism", "block", False) for p in _RACISM_PHRASES]
    out += [(p, P if " " in p else W, "intimidation", "hold", False) for p in _INTIMIDATION]
    out += [(r, R, "promotion", "block", False) for r in _PROMOTION_REGEX]
    out += [(w, W, "promotion", "flag", False) for w in _PROMOTION_WORDS]
    out += [(p, P, "game_talk", "hold", True) for p in _GAME_TALK_HOLD]
    out += [(p, P if " " in p else W, "game_talk", "flag", True) for p in _GAME_TALK_FLAG]
    out += [(p, P if " " in p else W, "collusion", "hold", False) for p in _COLLUSION]
    out += [(p, P, "complaint", "flag", False) for p in _COMPLAINT]
    return out


def seed(entry_model: Any) -> int:
    """Add the default entries missing from the list (the data migration, tests after a flush)."""
    existing = set(entry_model.objects.values_list("pattern", "kind"))
    new = [
        entry_model(pattern=p, kind=k, category=c, action=a, in_game_only=g, language="it")
        for p, k, c, a, g in rows()
        if (p, k) not in existing
    ]
    entry_model.objects.bulk_create(new)
    return len(new)
