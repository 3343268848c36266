"""The shipped word lists as a club player reads them (issue 15): words that must be in, words
that must not (stems written only before a hyphen, abbreviations, verb + pronoun forms, the
2-letter words the review rejected). They read the shipped ``.txt.xz`` files as they are."""

from __future__ import annotations

import lzma
from functools import cache

import pytest

from letras.editions import find_edition
from letras.lexicon import shipped_lexicons


@cache
def words_of(name: str) -> frozenset[str]:
    data = shipped_lexicons()[name].words.read_bytes()
    return frozenset(lzma.decompress(data).decode("utf-8").split())


def folded(edition: str, word: str) -> str:
    tiles = find_edition(edition).tiles
    return tiles.word(tiles.word_tiles(word))


MUST = {
    "pt-BR": (
        # everyday words, verb forms whose hyphen-only twins are gone, the reviewed degree list
        "casa casas falamos falemos falarmos queremos fala come dá está vê revê lê crê compõe "
        "pôs dez ser sol dom ar ir lá já pé nó "
        "casinha casinhas cafezinho pouquinho cãozinho cãezinhos bonitinha bonitinhos "
        "lindíssimo lindíssimas muitíssimo calcinha camisinha"
    ),
    "es": (
        "vi ñu casa perro chaleco llave carro vale este pela bastante durante fuerte arte "
        "muerte parte date"
    ),
    "it": (
        "gi fi casa gatti belle mangiavamo ciò led alzarsi divertirsi fidanzarsi bellissimo "
        # strong pasts (it_IT's own entries), the past forms both conjugations share, the
        # regular past of regular verbs and of doublets, the reviewed participle superlatives
        "permise sorrise riconobbe mise prese permettesti riconoscemmo credette battette "
        "perdette perse concedette stridette prescindette soccombette "
        "pulitissimo pulitissima affollatissimo amatissimi complicatissimo"
    ),
    "en": (
        "cat quiz rhythm jumped oxen col gen max prof rep temp info "
        # ENABLE words that SCOWL lacked, and the plurals of two-tile nouns ENABLE predates
        "aahed jeton unhang zyzzyva lang phpht qis zas kis gis pos tes qi za ki"
    ),
}
MUST_NOT = {
    "pt-BR": (
        # written only before a hyphen (falamo-lo, compô-lo)
        "falamo falemo falarmo falaremo calculamo queremo fizemo compô "
        # abbreviations, units, foreign pieces
        "abr atm dpi etc fev jan jul jun nov min out var mmol quo "
        # participle superlatives and productive degree forms
        "afastadíssimas faladíssimo operaçãozinha japonesinho "
        # 2-letter words whose meaning no dictionary confirmed
        "fo ga go gu ho ie io iu ji jo lu oo vu xe za"
    ),
    "es": (
        "dale dame dilo dándole házmelos dímelo irse darle comerlo "
        "adv cta sra izq tel vta etc ing art"
    ),
    "it": (
        "ecc etc art ing prof asi mangiarlo mangiarselo potutissima abbagliatissimo "
        # the regular past that it_IT's flag B gives verbs whose past is strong
        "permettette sorridettero riconoscette riconoscettero mettei metterono prendette "
        "scrivette conoscette vincette chiudetti essette deridettero"
    ),
    "en": (
        "adj adv abbr dept govt misc etc blvd recd subj lxiv xcvi "
        # plurals of two-tile interjections and of words whose plural is doubtful: not added
        "ews ois oks das fes"
    ),
}


@pytest.mark.parametrize("name", sorted(MUST))
def test_the_words_a_club_player_expects_are_in(name: str) -> None:
    words = words_of(name)
    missing = [w for w in MUST[name].split() if folded(name, w) not in words]
    assert missing == []


@pytest.mark.parametrize("name", sorted(MUST_NOT))
def test_stems_abbreviations_and_rejected_words_are_out(name: str) -> None:
    words = words_of(name)
    present = [w for w in MUST_NOT[name].split() if folded(name, w) in words]
    assert present == []


def test_only_the_default_lists_ship() -> None:
    # pt-BR-full (every form VERO's rules make, about 15% junk) is no longer shipped
    assert sorted(shipped_lexicons()) == ["en", "es", "it", "pt-BR"]
