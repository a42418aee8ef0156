"""People's direct associations (the thesaurus's own counts) as the human reader reads them."""

import numpy as np

from spymaster_ai.embeddings.association_links import AssociationLinks, association_links


def test_a_link_is_the_larger_share_either_way_round_over_the_lemmas():
    links = AssociationLinks({"treasure": {"island": 0.15}, "island": {"treasure": 0.15, "coral": 0.03},
                              "coral": {"island": 0.03}, "frog": {"pond": 0.2}, "pond": {"frog": 0.2}})
    x = links.links(["treasure", "frogs", "banana"], ["island", "pond", "coral"])
    assert x.dtype == np.float32 and x.shape == (3, 3)
    assert x[0, 0] == np.float32(0.15) and x[0, 1] == 0 and x[0, 2] == 0
    assert x[1, 1] == np.float32(0.2)  # FROGS reads FROG's answers
    assert not x[2].any()  # a word no one named gives no link


def test_a_long_clue_list_gives_what_its_rows_give_one_by_one():
    links = association_links()
    clues = [f"x{i}" for i in range(150)] + ["treasure", "cat", "door"]
    cards = ["island", "dog", "cellar", "fairy"]
    whole = links.links(clues, cards)
    for i in range(len(clues) - 3, len(clues)):
        assert np.array_equal(whole[i], links.links([clues[i]], cards)[0])


def test_the_shipped_thesaurus_links_what_people_named_and_not_what_no_one_did():
    links = association_links()
    assert links.link("treasure", "island") > 0.1  # 15 of 98 people
    assert links.link("island", "treasure") == links.link("treasure", "island")
    assert links.link("seal", "walrus") > 0
    assert links.link("fairy", "turtle") == 0
