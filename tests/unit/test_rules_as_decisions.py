"""Rules of every game stated one way (tests/harness.py): given a deal and what happened
so far, when a command comes, then these events are decided, or it is refused with a
sentence that says which rule. Through each game's ``Game`` contract, as the service plays."""
from games.baska import game as baska
from games.bisca import game as bisca
from games.kop import game as kop
from games.scopa import game as scopa
from tests.conftest import KOP_HANDS, KOP_TRICKS
from tests.harness import given

KOP_DEAL = {"dealer": 0, "hands": KOP_HANDS}  # seat 1 leads; QC (seat 1) and QS (seat 3) split
ROTATED = {"dealer": 0, "hands": [KOP_HANDS[3], KOP_HANDS[0], KOP_HANDS[1], KOP_HANDS[2]]}  # seat 2 holds QC


def test_kop_a_trick_is_recorded_with_its_leader_winner_and_card_points():
    given(kop.GAME, KOP_DEAL).when("trick", cards=KOP_TRICKS[0]).then(
        ("trick", {"trick": 1, "leader": 1, "cards": KOP_TRICKS[0], "winner": 1, "points": 19}))


def test_kop_a_card_that_does_not_follow_trumps_is_refused_naming_what_the_seat_holds():
    given(kop.GAME, KOP_DEAL).when("trick", cards=["AH", "10C", "QS", "JD"]).refused(
        "seat 2 holds QH QD JC and must follow trumps")


def test_kop_the_declarer_may_not_give_the_first_double_but_an_opponent_may():
    zolo = ("bid", {"seat": 1, "call": "zolo"})
    given(kop.GAME, KOP_DEAL, zolo).when("bid", seat=1, call="kontra").refused("may not give the first double")
    given(kop.GAME, KOP_DEAL, zolo).when("bid", seat=2, call="kontra").then(("bid", {"seat": 2, "call": "kontra"}))


def test_kop_a_contract_must_outrank_the_one_standing():
    given(kop.GAME, KOP_DEAL, ("bid", {"seat": 1, "call": "zolo"})).when("bid", seat=2, call="zolo").refused(
        "zolo does not outrank the standing zolo")


def test_baska_classic_the_wesele_caller_may_not_double_first_while_bytow_lets_the_pair():
    wesele = ("bid", {"seat": 2, "call": "wesele", "jack": "JS"})  # seat 2 holds QC QS JC
    deal = {"dealer": 0, "hands": [["AH", "10H", "QH", "QD"], ["10S", "JD", "AD", "10D"],
                                   ["QC", "QS", "JC", "AC"], ["JS", "JH", "AS", "10C"]]}
    given(baska.GAME, deal, wesele, rules={"variant": "classic"}).when("bid", seat=2, call="kontra").refused(
        "called wesele and may not give the first double")
    given(baska.GAME, deal, wesele).when("bid", seat=2, call="kontra").then(("bid", {"seat": 2, "call": "kontra"}))


def test_baska_only_the_holder_of_all_four_queens_may_call_baska():
    given(baska.GAME, ROTATED, rules={"variant": "classic"}).when("bid", seat=1, call="baska").refused(
        "only the holder of all four queens may call baska")


SCOPA_DEAL = {"dealer": 1, "hands": [["5C", "7D", "KH"], ["2C", "3S", "QH"]], "table": ["5S", "2D", "3D", "4H"],
              "stock": sorted(set(scopa.PACK) - {"5C", "7D", "KH", "2C", "3S", "QH", "5S", "2D", "3D", "4H"})}


def test_scopa_a_card_matching_a_table_card_takes_it_not_a_sum():
    given(scopa.GAME, SCOPA_DEAL).when("play", card="5C", capture=["2D", "3D"]).refused(
        "a card matching a single table card must take one such card, never a sum")
    given(scopa.GAME, SCOPA_DEAL).when("play", card="5C").then(
        ("play", {"seat": 0, "card": "5C", "capture": ["5S"], "scopa": False, "by": "match"}))


def test_scopa_it_is_the_seat_after_the_dealers_turn():
    given(scopa.GAME, SCOPA_DEAL).when("play", card="QH").refused("QH is held by seat 1, but it is seat 0's turn")


BISCA = sorted(bisca.PACKS["full"])
BISCA_DEAL = {"dealer": 0, "hands": [BISCA[0:3], BISCA[3:6]], "trump": BISCA[-1], "stock": BISCA[6:-1]}


def test_bisca_after_a_trick_the_winner_draws_first():
    cards = [BISCA[3], BISCA[0]]  # seat 1 leads
    state = given(bisca.GAME, BISCA_DEAL).when("trick", cards=cards).then(("trick", ...))
    winner = state.tricks[0].winner
    assert state.tricks[0].draws == ((winner, BISCA[6]), (1 - winner, BISCA[7]))


def test_bisca_a_card_not_yet_drawn_cannot_be_played():
    given(bisca.GAME, BISCA_DEAL).when("trick", cards=[BISCA[6], BISCA[0]]).refused(
        f"{BISCA[6]} has not been drawn yet: seat 1 cannot hold it")
