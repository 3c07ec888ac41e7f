"""Every citation of the rulings states the finding it is cited for.

TABLE holds, per finding key, each source that the key's findings may cite and the words on that
source's page (in English, as the knowledge store holds them) that state the rule. The tests check
that each quote is on its page (case and spacing aside), and that every source cited for a finding
is in the table, so that a new citation off target fails here: in the rulings of a few ordinary
plain Fluxx tables (ruled here), and in every recorded ruling and play answer of the scenario
tables (tests/rules/scenarios/*.yaml, every edition and expansion): each ruling's findings and
`not_yet` reasons, and each play's `reasons`, its outcomes' `play_findings` and their rulings. The
recorded answers are tests/golden/scenarios.json, which tests/test_golden.py keeps equal to what
the engine answers (re-record it when a citation changes); reading them keeps this test fast.
And since most citations are made only on tables no scenario sets, every (key, source) pair that
the rules and play programs of any game can cite, read from the .lp files themselves
(tests/rules/static_cites.py: each cite/2 fact and each cites/3 head whose rule can fire), needs a
row too, except card sources (a card states its own rule; the recorded answers check those).

A card source that the finding itself names (in its arguments, in its key, or as a rule card in
force on the table) states its own rule and needs no row; so does the card of a move (move_made).
A finding that reports only a fact of the table (where a card is) cites the card it is about. An
outcome's `changes` cite the findings of the move that name them: their sources must be those
findings' (or the card moved). A passage of another deck is cited by analogy (`scope:
"other_deck"`, adjudicator/referee/source_scope.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from adjudicator.cards.catalog import catalog_for
from adjudicator.referee.ruling import ruling_for
from adjudicator.referee.source_scope import OTHER_DECK, source_decks
from adjudicator.table.reader import parse_state
from tests.rules.static_cites import static_pairs
from tests.scenario_files import scenario_cases

# words that state several findings
# the rulebook
DRAW = "Draw the number of cards currently required."
PLAY = "Play the number of cards currently required."
DRAW_AND_PLAY = f"{DRAW} - {PLAY}"
COMPLY = "Discard to comply with any Limit rules in play."
NO_SIMPLE_DISCARD = "You cannot simply discard unwanted cards."
LIMITS = "Hand and Keeper Limit cards will create such restrictions"
IGNORE_UNTIL_END = "you can ignore them until your turn ends"
OTHERS_COMPLY = "the other players must immediately comply with the new restriction"
CLOCKWISE = "Play proceeds clockwise."
# seed 000's Setup, in the project's English beside the Chinese (rulebook_seed.ZH_ONLY_EN)
SETUP_CLOCKWISE = "Players take turns clockwise by seat"
SETUP_RESHUFFLE = ("When the draw pile runs out, shuffle the discard pile, turn it face down as "
                   "the new draw pile and keep playing.")
GOALS = "Goals indicate which Keepers you currently need in order to win."
TIE = "If a tie, the game continues until one winner emerges."
ACTION = "To play an Action card, do whatever it says, then place it on the discard pile."
CONTRADICTS = "When a New Rule contradicts a card already in play, the old rule is discarded."
ONE_CARD = ("All of this activity would be considered the playing of just one card when counting "
            "the number of plays on your turn.")
RESHUFFLE = ("If the Draw pile runs out, shuffle the Discard pile, turn it over to make a new Draw "
             "pile, and keep playing.")
FREE_ACTIONS = "Since they don't count as plays, they are called Free Actions."
CLAIM = "Instead, they claim the Goal card and place it in front of them."
USED_KEEPERS = "That player must also discard all of the Keepers they used to meet the Goal"
MATH_WIN = ("To win, you must be able, during your turn, to compute the number on the Goal using "
            "at least one mathematical operation on two or more numbers represented by Keepers "
            "you have in play.")
PHASE = "Each phase, a player may draw one card and play one card."
CYCLE = "When a player meets the conditions of the goal card in play, they win the cycle."
KEEPER_FREE = ("A player may play a keeper card at any time, regardless of how many cards they "
               "have already played in the current phase.")
KEEPER_NOT_COUNTED = ("Keeper cards do not add to the maximum number of cards a player may play "
                      "per phase.")
DEFERRED = "its effect is not enacted until the beginning of a phase"
MOST_RECENT = "with the most recently played one ultimately taking effect"
JOINING = ("When an entity becomes a player for the first time, they gain 3+(phase-1) random "
           "cards.")
RETURNING = ("When an entity who was previously a player becomes a player, they gain some "
             "number of random cards equal to the number of phases since they were last a "
             "player.")
ENTITY = "When an entity becomes a player"
# where each game's rules state joining: seed 000's Setup (the project's English of its Chinese),
# seed 004's Jumping In, seed 003's Cards
JOIN_ANY_TIME = {
    "rulebook:setup": "A player who wants to join may do so at any time by drawing a hand of three",
    "rulebook:jumping-in": "New players may join at any time by being dealt a hand of three cards.",
    "rulebook:fluxxnomic-cards": ENTITY,
}
MADE = "one random card is made and put into the possession of the player"
# the FAQ
NOT_YOUR_TURN = "Hand and Keeper Limits apply to you when it's not your turn"
WAIT_FOR_DISCARDS = "should happen in the game until you've discarded down to the current Limits"
CANCELED = "you do not get to choose a different card to play. That play was canceled."
CHAIN = "B plays Surprise 1, canceling X."
BACK_IN_EFFECT = "A cancels surprise 1 with Surprise 2, so X is in effect again."
BEING_PLAYED = ("only into the discard pile when they are done being used, or when negated for "
                "good")
IMMEDIACY = "the immediacy required for a reactive Surprise play"
IMMEDIATELY_AFTER = "the Surprise should be played immediately after the card one wants to cancel"
PLAY_SLOWER = ("it's good practice to play a little slower if you happen to be executing multiple "
               "plays, so that your opponents have plenty of time to play one of these cards")
COUNTER_NO_PLAY = ("If you are the active player, counter-Surprising does not use up one of your "
                   "total plays for the turn.")
COUNTER_ON_OWN_TURN = ("The only time when you might not use the \"during your turn\" on your "
                       "turn is when you're using a Surprise to counter a Surprise")
IN_TURN_FUNCTIONS = ("If you use the Surprise card as one of your plays during your turn, then "
                     "you must use the \"during your turn\" functions.")
OWN_TURN_IN_TURN = "It's their turn, so they can only use the in-turn function."
OWN_CARD = ("If Player A was trying to use the out-of-turn function to cancel the play of their "
            "own card, that's not allowed.")
NOT_OWN_PLAY = "it is not allowed to cancel your own play with your own Surprise"
NO_EFFECT_NO_SURPRISE = ("Surprises can only be played for an out-of-turn effect when there is an "
                         "effect to be had.")
EITHER_SIDE = 'you can jump in at any time on either players "side"'
IN_FULL = ("Surprises always counter Surprises in full, no matter what the function of the "
           "Surprises in question.")
CREEPER_NOT_COUNTED = ("that Creeper doesn't count as one of the 3 cards you needed to draw "
                       "(neither does it count against the number of cards you get to Play on "
                       "your turn)")
FREE = "It does not use one of your plays."
GOWI_NEEDS = ("you must be sacrificing (at least) one of your Plays, and you must be discarding a "
              "hand of at least one card")
ONE_PLAY = 'and all actions as a result of it are considered 1 "Play"'
DRAW_BACK_UP = '"discard and draw back up to 3"'
TURN_ENDS = ("it means it's specifically overriding any Play rule that might otherwise require "
             "you to keep playing cards on this turn")
NO_POWERS_AFTER = ('You also end any option you may have to use Keeper powers or "Free Action" '
                   "Rules.")
MATH_OWN_TURN = ("When playing with the Math Rules Meta Rule, it must be your turn to claim "
                 "victory.")

# and more words quoted for several findings
ANOTHER_TURN = "Take another turn as soon as you finish this one."
ATTACHED_OR_NOT = ("having a Creeper in play in front of you prevents you from winning whether "
                   "it is attached")
AT_ONCE = "New Rules take effect immediately."
BEFORE_FINAL_PLAY = "in order to use Get On With It, you'd have to do it before your final play"
CANCEL_A_PLAY = "They play a card. You cancel it with the appropriate Surprise."
CLAIM_ENDS_TURN = "and their turn ends immediately"
ENDS_WITH_DRAW = "the effect is simultaneous with their turn ending immediately"
FILL_SLOT = ("the next Goal played must fill that spot, and not replace the single Goal "
             "already in play")
FINISH_DRAW = ("You must accept any and ALL Creepers acquired during your initial Draw phase "
               "before assessing win conditions.")
GOAL_USES_A_PLAY = ("playing a second Goal (or even first if you're really early in the game!) "
                    "still uses up one of your plays for your turn")
HIJACKED = ("as though you had played the Keeper directly to yourself instead of your opponent "
            "playing it to themselves")
INSTANTLY = "That player wins instantly"
OBSERVE_AT_END = "you would observe them as soon as your turn ends"
ONE_AND_ZERO = "a 1 and a 0 can always be substituted for a 10"
ONLY_IF_COMPELLED = "You can only discard if compelled to by a Hand Limit"
ON_YOUR_TURN = "\"On your turn\" means every time your turn comes around"
PLAY_1 = "Play 1."
POWERS = "exponentiation (or roots) are also allowed"
POWERS_NO_PLAY = ("using any special powers or abilities listed on Keepers or Creepers does "
                  "not use up one of your plays")
SIMPLIFY = ("Discard your choice of up to half (rounded up) of the New Rule cards currently in "
            "play.")
TARGET = "each Goal names a target number"
MEETS = "The game continues until someone meets the conditions of the current Goal."
THATS_MINE = "Out of turn: a Keeper another player has just played goes in front of you instead."
TOP_CARD = "You pull the top card off the deck, and immediately play that card."
UNKNOWN_VARIABLE = "Unknown Variable in Math"
UNNAMED_CREEPER = ("if you have a Creeper not mentioned on the Goal you are trying to win "
                   "with, then it prevents you from winning")

ONE_TWO_DIGIT = "You may only create ONE two-digit number"

TABLE: dict[str, dict[str, str]] = {
    # Fluxxnomic's phases (seed 003)
    "phase_draws_allowed": {"rulebook:fluxxnomic-phases": PHASE},
    "phase_plays_allowed": {"rulebook:fluxxnomic-phases": PHASE,
                            "rulebook:fluxxnomic-card-types": KEEPER_NOT_COUNTED},
    "nomic_joining_cards": {"rulebook:fluxxnomic-cards": JOINING},
    "nomic_returning_cards": {"rulebook:fluxxnomic-cards": RETURNING},
    "play_all_keeper_reading": {"rulebook:fluxxnomic-card-types": KEEPER_NOT_COUNTED},
    "nomic_join_reading": {"rulebook:fluxxnomic-cards": ENTITY},
    "player_joined": {"rulebook:fluxxnomic-cards": ENTITY},
    "already_a_player": JOIN_ANY_TIME,
    "table_full": JOIN_ANY_TIME,
    "join_reading": JOIN_ANY_TIME,
    "player_joined_dealt": JOIN_ANY_TIME,
    "nomic_phase_end": {"rulebook:fluxxnomic-phases": PHASE,
                        "rulebook:fluxxnomic-card-types": DEFERRED},
    "cycle_over": {"rulebook:fluxxnomic-winning": "Then the cycle ends."},
    "reason_phase_draws_used": {"rulebook:fluxxnomic-phases": PHASE},
    "reason_phase_plays_used": {"rulebook:fluxxnomic-phases": PHASE,
                                "rulebook:fluxxnomic-card-types": KEEPER_FREE},
    "waiting_card": {"rulebook:fluxxnomic-card-types": DEFERRED},
    "card_waits": {"rulebook:fluxxnomic-card-types": DEFERRED},
    "keeper_free_play": {"rulebook:fluxxnomic-card-types": KEEPER_FREE},
    "phase_begins": {"rulebook:fluxxnomic-phases": PHASE},
    "phase_took_effect": {"rulebook:fluxxnomic-card-types": DEFERRED},
    "phase_undone": {"rulebook:fluxxnomic-card-types": MOST_RECENT},
    "card_made": {"rulebook:fluxxnomic-cards": MADE, "rulebook:fluxxnomic-phases": PHASE},
    "card_odds_reading": {"rulebook:fluxxnomic-cards": MADE},
    "action_not_modeled": {
        "rulebook:actions": ACTION,
        "rulebook:fluxxnomic-card-types":
            ("When an action card is played, the player who played it must carry out the "
             "actions defined in the description of the card. Then the card is discarded."),
    },
    "action_resolved": {
        "faq:002-09": "the movement should be in a circle around the table",
        "rulebook:actions": ACTION,
    },
    "action_text_missing": {"rulebook:actions": ACTION},
    "answer_chain_first": {"faq:002-33": PLAY_SLOWER, "faq:002-51": IMMEDIATELY_AFTER},
    "cannot_answer": {"faq:002-52": NO_EFFECT_NO_SURPRISE, "faq:002-70": NOT_OWN_PLAY},
    "cannot_answer_own": {"faq:002-51": OWN_CARD, "faq:002-70": NOT_OWN_PLAY},
    "cannot_answer_type": {"faq:002-52": NO_EFFECT_NO_SURPRISE},
    "chain_closed_canceled": {"faq:002-01": CANCELED, "faq:002-54": CHAIN},
    "chain_closed_effective": {"faq:002-54": BACK_IN_EFFECT},
    "chain_closed_taken": {"card:surprises/thats_mine": THATS_MINE, "faq:002-22": HIJACKED},
    "chain_has_void_link": {"faq:002-52": NO_EFFECT_NO_SURPRISE, "faq:002-70": NOT_OWN_PLAY},
    "chain_link_canceled": {"faq:002-54": CHAIN, "faq:002-69": IN_FULL},
    "chain_link_effective": {"faq:002-54": CHAIN},
    "chain_opened": {
        "faq:002-33": PLAY_SLOWER,
        "faq:002-51": IMMEDIATELY_AFTER,
        "faq:002-62": CANCEL_A_PLAY,
    },
    "chain_original_canceled": {"faq:002-01": CANCELED, "faq:002-54": CHAIN},
    "chain_original_effective": {"faq:002-54": BACK_IN_EFFECT},
    "chain_original_taken": {
        "card:surprises/thats_mine": THATS_MINE,
        "faq:002-01": CANCELED,
        "faq:002-22": HIJACKED,
        "faq:002-54": CHAIN,
    },
    "chain_waits": {"faq:002-18": IMMEDIACY, "faq:002-51": IMMEDIATELY_AFTER},
    "copy_unplaced": {
        "rulebook:cards-in-play": ("this refers to a card that is face up on the table, but not in "
                                   "the discard pile"),
    },
    "counter_uses_no_play": {
        "faq:002-43": COUNTER_NO_PLAY,
        "faq:002-62": "although it is your turn, this does not count as one of your Plays",
        "faq:002-70": COUNTER_ON_OWN_TURN,
        "faq:002-71": "Playing a Surprise to cancel a Surprise is a free action",
    },
    "creeper_blocks_win": {
        "faq:002-13": UNNAMED_CREEPER,
        "faq:002-67": ATTACHED_OR_NOT,
        "faq:002-73":
            ("The 3-Headed Giant you need to win with He Bravely Ran Away prevents you from "
             "winning with Rabbits of DOOM"),
    },
    "creeper_drawn": {"faq:002-06": FINISH_DRAW, "faq:002-47": CREEPER_NOT_COUNTED,
                      "faq:002-35": "Creepers may not be held in your hand"},
    # a draw into a hand from a pile given as a count: which unseen Creepers it brings
    # (the unknown cards of a hand are no Creepers: the pile holds every unseen one)
    "creepers_from_unseen": {"rulebook:setup": "placing the remainder of the deck face down",
                             "faq:002-47": CREEPER_NOT_COUNTED,
                             "faq:002-35": "Creepers may not be held in your hand"},
    "creeper_sets_pile_short": {"faq:002-47": CREEPER_NOT_COUNTED,
                                "rulebook:reshuffling": RESHUFFLE,
                                "rulebook:setup": SETUP_RESHUFFLE},
    "creeper_draw_unlisted": {"faq:002-47": CREEPER_NOT_COUNTED,
                              "faq:002-35": "Creepers may not be held in your hand",
                              "rulebook:reshuffling": RESHUFFLE,
                              "rulebook:setup": SETUP_RESHUFFLE},
    "hidden_count_unknown": {"faq:002-35": "Creepers may not be held in your hand"},
    "sub_draw_hidden_not_creepers": {"faq:002-35": "Creepers may not be held in your hand"},
    "creeper_draws_replaced": {
        "faq:002-06": FINISH_DRAW,
        "faq:002-35": "Creepers may not be held in your hand",
        "faq:002-47": CREEPER_NOT_COUNTED,
    },
    "creeper_held": {"faq:002-13": UNNAMED_CREEPER, "faq:002-67": ATTACHED_OR_NOT},
    "creepers_no_limit": {
        "faq:002-77": "There is no limit to the number of Creepers you can have in front of you.",
    },
    "discard_before_turn_end": {
        "rulebook:discarding": ONLY_IF_COMPELLED,
        "rulebook:limits": IGNORE_UNTIL_END,
    },
    "discard_end_of_turn": {
        "faq:002-66": OBSERVE_AT_END,
        "rulebook:each-turn": COMPLY,
        "rulebook:limits": IGNORE_UNTIL_END,
    },
    "discard_now": {"rulebook:discarding": ONLY_IF_COMPELLED, "rulebook:limits": OTHERS_COMPLY},
    "discarded_to_limit": {
        "rulebook:discarding": ONLY_IF_COMPELLED,
        "rulebook:limits": OTHERS_COMPLY,
    },
    "double_agenda_goal_discarded": {
        "faq:002-53": "Whoever caused it to go away gets to choose which Goal stays in play",
    },
    "double_agenda_open_slot": {"faq:002-34": GOAL_USES_A_PLAY, "faq:002-74": FILL_SLOT},
    "draw_already_met": {
        "rulebook:example-draw-rule-rises":
            "they draw no more cards, having already gotten (at least) two cards this turn",
    },
    "draw_catch_up": {
        "faq:002-24":
            "when you play a card that increases the Draw amount, you get to draw the difference",
        "faq:002-64": "you get to draw two more cards when you increase the Draw from 2 to 4",
        "rulebook:example-draw-rule-rises":
            "since you only took one card before, you must immediately draw two more cards",
    },
    "draw_or_play_first": {"rulebook:each-turn": "you may play before you draw"},
    "draw_rule": {"rulebook:basic-rules": "Draw 1.", "rulebook:each-turn": DRAW},
    "draw_short": {"rulebook:reshuffling": RESHUFFLE, "rulebook:setup": SETUP_RESHUFFLE},
    "piles_empty": {"rulebook:reshuffling": RESHUFFLE, "rulebook:setup": SETUP_RESHUFFLE},
    "draw_total": {"rulebook:each-turn": DRAW},
    "drawn_not_reshuffled": {"rulebook:reshuffling": RESHUFFLE, "rulebook:setup": SETUP_RESHUFFLE},
    "drawn_from_unseen": {"rulebook:setup": "placing the remainder of the deck face down"},
    # the pile is the rest of the deck: a table that counts more unknown cards than the deck
    # keeps unseen gives no composition to draw from
    "pile_count_unknown": {"rulebook:setup": "placing the remainder of the deck face down"},
    "drew_unknown": {"rulebook:setup": "placing the remainder of the deck face down",
                     "rulebook:fluxxnomic-cards": MADE},
    "extra_turn_taken": {"card:take_another_turn": ANOTHER_TURN},
    "extra_turns_owed": {"card:take_another_turn": ANOTHER_TURN},
    "free_action_discarded": {
        "faq:002-03": POWERS_NO_PLAY,
        "faq:002-68": FREE,
        "rulebook:free-actions": FREE_ACTIONS,
    },
    "finish_sub_hand": {
        "faq:002-60": ("You would either need to invoke Get On With It! before the Free/Action "
                       "with the temporary hand is played or after."),
    },
    "free_action_ends_turn": {
        "faq:002-05": ENDS_WITH_DRAW,
        "faq:002-48": "Cards (Rules) that end your turn immediately if/when you execute them",
        "faq:002-61": NO_POWERS_AFTER,
        "faq:002-68": FREE,
    },
    "free_action_moved": {"faq:002-03": POWERS_NO_PLAY},
    "free_action_not_in_sub_hand": {
        "faq:002-60":
            ("you could not utilize their functions while in the middle of executing one of "
             "these cards"),
    },
    "free_action_not_modelled": {
        "rulebook:free-actions":
            "Some cards allow for bonus actions which can be taken at any time during your turn.",
    },
    "free_action_rule_coexists": {
        "faq:002-46": "simply putting either of them into play doesn't contradict Play All",
    },
    "game_over": {"rulebook:winning": INSTANTLY},
    "get_on_with_it": {
        "faq:002-05": ENDS_WITH_DRAW,
        "faq:002-21": BEFORE_FINAL_PLAY,
        "faq:002-44": GOWI_NEEDS,
        "faq:002-60": DRAW_BACK_UP,
        "faq:002-61": NO_POWERS_AFTER,
        "faq:002-68": FREE,
        "rulebook:free-actions": FREE_ACTIONS,
    },
    "get_on_with_it_unavailable": {"faq:002-21": BEFORE_FINAL_PLAY, "faq:002-44": GOWI_NEEDS},
    "goal_claimed": {"rulebook:keep-going": CLAIM},
    "goal_met_alone": {"rulebook:fluxxnomic-winning": CYCLE, "rulebook:goals": GOALS},
    "goal_met_alone_read": {"rulebook:fluxxnomic-winning": CYCLE, "rulebook:goals": GOALS},
    "goal_met_at_least": {"rulebook:fluxxnomic-winning": CYCLE, "rulebook:winning": MEETS},
    "goal_met_copies": {"rulebook:fluxxnomic-winning": CYCLE, "rulebook:goals": GOALS},
    "goal_met_digits": {
        "faq:004-q3": ONE_AND_ZERO,
        "rulebook:goals": GOALS,
        "rulebook:numbers-and-math":
            ("you win by putting together Keepers whose digits, read together, form the Goal's "
             "number"),
    },
    "goal_met_math": {
        "faq:004-q1": MATH_OWN_TURN,
        "faq:004-q2": POWERS,
        "faq:004-q4":
            ("just lets you take two numbers you can see and make them into a two-digit number "
             "you can see"),
        "faq:004-q5": "You may only create ONE two-digit number to use in your calculations.",
        "rulebook:goals": GOALS,
        "rulebook:math-rules": MATH_WIN,
    },
    "goal_met_most": {"rulebook:goals": GOALS},
    "goal_met_no_one_has": {"rulebook:goals": GOALS},
    "goal_met_pair": {"rulebook:fluxxnomic-winning": CYCLE, "rulebook:goals": GOALS},
    "goal_not_changed": {
        "card:creepers/radioactive_potato":
            ("Whenever the Goal changes, move this card to the next player in the direction "
             "opposite to turn order."),
        "faq:002-54": CHAIN,
    },
    "goal_not_modeled": {
        "rulebook:fluxxnomic-card-types":
            "A goal card has a condition which players should attempt to meet.",
        "rulebook:goals": GOALS,
    },
    "goal_number_given": {"rulebook:numbers-and-math": TARGET},
    "player_number_not_used": {"rulebook:numbers-and-math": TARGET},
    "goal_replaced": {"rulebook:goals": "Discard the previous Goal, if any."},
    "goal_slot_filled": {"faq:002-74": FILL_SLOT},
    "goal_target_interpreted": {"rulebook:numbers-and-math": TARGET},
    "goal_target_unknown": {"rulebook:numbers-and-math": TARGET},
    "goals_canceled": {
        "card:surprises/canceled_plans":
            "During your turn, as one of your plays: discard the current Goal(s).",
    },
    "hand_limit": {
        "faq:002-66": NOT_YOUR_TURN,
        "rulebook:each-turn": COMPLY,
        "rulebook:limits": LIMITS,
    },
    "hand_swapped_turn_ends": {
        "faq:002-05": ENDS_WITH_DRAW,
        "faq:002-44": GOWI_NEEDS,
        "faq:002-60": DRAW_BACK_UP,
        "faq:002-61": NO_POWERS_AFTER,
        "faq:002-66": OBSERVE_AT_END,
    },
    "in_turn_only": {"faq:002-51": OWN_TURN_IN_TURN, "faq:002-70": IN_TURN_FUNCTIONS},
    "in_turn_surprise": {
        "faq:002-43": "use it on your turn as a play, for it's in-turn function",
        "faq:002-70": IN_TURN_FUNCTIONS,
    },
    "keep_going_claim": {"rulebook:keep-going": CLAIM},
    "keep_going_claim_off_turn": {"rulebook:keep-going": CLAIM_ENDS_TURN},
    "keep_going_claimed": {
        "rulebook:keep-going": "the player who has collected the most Goals wins",
    },
    "keep_going_keeper_used": {"rulebook:keep-going": USED_KEEPERS},
    "keep_going_keepers_choice": {"faq:004-q3": ONE_AND_ZERO, "rulebook:keep-going": USED_KEEPERS},
    "keep_going_math_keepers": {
        "rulebook:keep-going": USED_KEEPERS,
        "rulebook:math-rules": MATH_WIN,
    },
    "keep_going_turn_ends": {"rulebook:keep-going": CLAIM_ENDS_TURN},
    "keeper_limit": {
        "faq:002-66": NOT_YOUR_TURN,
        "rulebook:each-turn": COMPLY,
        "rulebook:limits": LIMITS,
    },
    "keeper_taken_instead": {"card:surprises/thats_mine": THATS_MINE, "faq:002-22": HIJACKED},
    "limit_ignored_during_turn": {
        "faq:002-66": NOT_YOUR_TURN,
        "rulebook:limits": IGNORE_UNTIL_END,
    },
    "limits_after_turn_ending": {
        "faq:002-66": OBSERVE_AT_END,
        "rulebook:limits": "These rules only affect you when it's NOT your turn",
    },
    "link_dropped": {"faq:002-52": NO_EFFECT_NO_SURPRISE},
    "link_not_a_surprise": {"faq:002-62": CANCEL_A_PLAY},
    "link_own_card": {"faq:002-51": OWN_CARD, "faq:002-70": NOT_OWN_PLAY},
    "link_wrong_type": {
        "faq:002-50":
            ("Stop That (or Belay That) is intended to cancel out Action cards specifically. "
             "Nor will Veto! which cancels Rules stop this type of free action."),
        "faq:002-52": NO_EFFECT_NO_SURPRISE,
    },
    "math_rules_draw_3": {
        "rulebook:math-rules":
            ("the player who would have won draws 3 cards, the Goal is discarded, and the game "
             "continues"),
    },
    "math_rules_digit_tie": {
        "rulebook:math-rules": ("Players do not win by matching the Goal in the usual manner. If "
                                "that happens, the player who would have won draws 3 cards"),
        "rulebook:winning": TIE,
    },
    "math_rules_no_digit_win": {
        "faq:004-q1": "If you're winning using Math, then yes.",
        "rulebook:math-rules": "Players do not win by matching the Goal in the usual manner.",
    },
    "math_rules_own_turn": {"faq:004-q1": MATH_OWN_TURN, "rulebook:math-rules": MATH_WIN},
    "math_no_equation": {"faq:004-q2": POWERS, "rulebook:math-rules": MATH_WIN,
                         "faq:004-q5": ONE_TWO_DIGIT},
    "math_undecided": {"rulebook:math-rules": MATH_WIN},
    "math_one_two_digit_number": {"faq:004-q5": ONE_TWO_DIGIT},
    "math_number_alone": {"rulebook:math-rules": MATH_WIN,
                          "faq:004-q4": ("make them into a two-digit number you can see to "
                                         "write out your equation")},
    "math_rules_goal_drawn": {
        "rulebook:math-rules":
            ("the player who would have won draws 3 cards, the Goal is discarded, and the game "
             "continues"),
    },
    "action_resolved_by_name": {"rulebook:actions": "then place it on the discard pile"},
    "may_answer": {
        "faq:002-43": COUNTER_NO_PLAY,
        "faq:002-62": EITHER_SIDE,
        "faq:002-69": IN_FULL,
    },
    "may_close_chain": {"faq:002-51": IMMEDIATELY_AFTER, "faq:002-54": CHAIN},
    "may_discard_itself": {
        "faq:002-03": POWERS_NO_PLAY,
        "faq:002-68": FREE,
        "rulebook:free-actions": FREE_ACTIONS,
    },
    "may_end_turn": {"rulebook:each-turn": DRAW_AND_PLAY},
    "may_pair_discard": {
        "faq:002-03": POWERS_NO_PLAY,
        "faq:002-68": FREE,
        "rulebook:free-actions": FREE_ACTIONS,
    },
    "most_tie": {"rulebook:winning": TIE},
    "move_made": {
        "faq:002-54":
            "only into the discard pile when they are done being used, or when negated for good",
        "rulebook:each-turn": DRAW_AND_PLAY,
        "rulebook:fluxxnomic-cards": ENTITY,
        "rulebook:jumping-in": JOIN_ANY_TIME["rulebook:jumping-in"],
        "rulebook:setup": JOIN_ANY_TIME["rulebook:setup"],
        "rulebook:keep-going": CLAIM,
        "rulebook:limits": OTHERS_COMPLY,
    },
    "must_move_keeper": {"faq:002-03": POWERS_NO_PLAY},
    "mystery_play_analogue": {"faq:002-18": UNKNOWN_VARIABLE, "faq:002-55": UNKNOWN_VARIABLE},
    "mystery_top_card_is": {"faq:002-76": TOP_CARD},
    "mystery_top_card_played_at_once": {"faq:002-76": TOP_CARD},
    "mystery_use_unknown": {"faq:002-55": UNKNOWN_VARIABLE},
    "name_the_card": {"rulebook:each-turn": PLAY},
    "next_player": {"rulebook:going-first": CLOCKWISE, "rulebook:setup": SETUP_CLOCKWISE},
    "nhb_not_counted": {
        "faq:002-64": "don't count towards the number of cards drawn for your turn",
    },
    "no_goal": {"rulebook:fluxxnomic-winning": CYCLE, "rulebook:goals": GOALS},
    "no_hand_bonus": {
        "faq:002-63": "Draw a new hand of 3 cards BEFORE observing the current draw rule",
    },
    "no_plays_left": {"rulebook:basic-rules": PLAY_1, "rulebook:each-turn": PLAY},
    "no_move_now": {"rulebook:each-turn": DRAW_AND_PLAY},
    "nobody_meets": {
        "rulebook:fluxxnomic-winning": CYCLE,
        "rulebook:winning": MEETS,
    },
    "nomic_next_player": {"rulebook:going-first": CLOCKWISE},
    "nomic_phases": {"rulebook:fluxxnomic-phases": PHASE},
    "not_playable": {
        "rulebook:basic-rules": "The Basic Rules card stays in the middle for the entire game.",
    },
    "not_your_turn": {"rulebook:each-turn": DRAW_AND_PLAY},
    "nothing_happens": {"rulebook:actions": ACTION},
    "nothing_pending": {"faq:002-54": BEING_PLAYED},
    "nothing_to_cancel": {
        "faq:002-18": "It's far too late.",
        "faq:002-50": "Nor will Veto! which cancels Rules stop this type of free action.",
        "faq:002-51": IMMEDIATELY_AFTER,
        "faq:002-52": NO_EFFECT_NO_SURPRISE,
    },
    "nothing_to_discard": {"rulebook:discarding": ONLY_IF_COMPELLED},
    "nothing_to_draw": {"rulebook:each-turn": DRAW},
    "others_discard_first": {"faq:002-20": WAIT_FOR_DISCARDS, "rulebook:limits": OTHERS_COMPLY},
    "pab1_no_extra_after_nhb": {
        "faq:002-63": ('these cards essentially make up a "new hand" which simulates you having '
                       "had a hand BEFORE starting your turn"),
    },
    "pab1_extra_card": {
        "faq:002-24": "would make the extra card part of your total Draw allowance for your turn",
        "faq:002-40": "they need to draw an extra card",
    },
    "pair_discard_on_turn": {"rulebook:free-actions": FREE_ACTIONS},
    "pair_discarded": {"faq:002-03": POWERS_NO_PLAY},
    "part_of_play": {"faq:002-60": ONE_PLAY, "rulebook:example-draw-2-and-use-em": ONE_CARD},
    "phase_draw": {"rulebook:fluxxnomic-phases": PHASE},
    "phase_play": {
        "rulebook:fluxxnomic-card-types":
            "Keeper cards do not add to the maximum number of cards a player may play per phase.",
        "rulebook:fluxxnomic-phases": PHASE,
    },
    "pile_exhausted": {"rulebook:reshuffling": RESHUFFLE, "rulebook:setup": SETUP_RESHUFFLE},
    "play_all_but": {"faq:002-40": "Play all but 1 of your cards."},
    "play_no_cards": {"rulebook:basic-rules": PLAY_1, "rulebook:discarding": NO_SIMPLE_DISCARD},
    "play_remaining": {"rulebook:each-turn": PLAY},
    "play_rule": {"rulebook:basic-rules": PLAY_1, "rulebook:each-turn": PLAY},
    "play_rule_rose": {"rulebook:new-rules": AT_ONCE},
    "potato_moves_next": {"rulebook:going-first": CLOCKWISE, "rulebook:setup": SETUP_CLOCKWISE},
    "reason_chain_open": {"faq:002-33": PLAY_SLOWER, "faq:002-51": IMMEDIATELY_AFTER},
    "reason_claim_first": {"rulebook:keep-going": CLAIM},
    "reason_math_draw_first": {
        "rulebook:math-rules":
            ("the player who would have won draws 3 cards, the Goal is discarded, and the game "
             "continues"),
    },
    "reason_nice_try_first": {
        "card:fluxxnomic/nice_try": "this card and the goal is immediately discarded",
    },
    "reason_discards_owed": {"faq:002-20": WAIT_FOR_DISCARDS, "rulebook:limits": OTHERS_COMPLY},
    "reason_draws_owed": {"rulebook:each-turn": DRAW},
    "catch_up_drawn": {
        "rulebook:example-draw-rule-rises":
            "since you only took one card before, you must immediately draw two more cards",
    },
    "reason_others_discard_first": {
        "faq:002-20": "The active player should wait to play their next card",
        "rulebook:limits": OTHERS_COMPLY,
    },
    "reason_no_plays_left": {"rulebook:discarding": NO_SIMPLE_DISCARD, "rulebook:each-turn": PLAY},
    "reason_peace_must_move": {
        "card:creepers/war": "If you have Peace, you must move it to another player.",
    },
    "reason_plays_owed": {"rulebook:each-turn": PLAY},
    "reason_start_of_turn_discard": {
        "card:creepers/death":
            "If you have Death at the start of your turn, discard something else you have in play",
        "faq:002-23": ON_YOUR_TURN,
    },
    "reason_sub_hand_open": {"faq:002-60": ONE_PLAY, "rulebook:actions": ACTION},
    "received_card_cannot_stop": {
        "faq:002-72":
            ("does not have access to the card until after the Trade Hands Action has been "
             "resolved, by which time it's too late to be stopped"),
    },
    "reshuffle": {"rulebook:reshuffling": RESHUFFLE, "rulebook:setup": SETUP_RESHUFFLE},
    "reshuffle_all_drawn": {"rulebook:reshuffling": RESHUFFLE, "rulebook:setup": SETUP_RESHUFFLE},
    "reshuffle_may_draw": {"rulebook:reshuffling": RESHUFFLE, "rulebook:setup": SETUP_RESHUFFLE},
    "reshuffle_order_unknown": {"rulebook:reshuffling": RESHUFFLE,
                                "rulebook:setup": SETUP_RESHUFFLE},
    "reshuffled_discards": {"rulebook:reshuffling": RESHUFFLE, "rulebook:setup": SETUP_RESHUFFLE},
    "reverse_order_two_players": {"card:take_another_turn": ANOTHER_TURN},
    "rule_placed": {"rulebook:new-rules": AT_ONCE},
    "rule_replaced": {"rulebook:new-rules": CONTRADICTS},
    "rule_superseded": {"rulebook:new-rules": CONTRADICTS},
    "rule_text_missing": {
        "rulebook:each-turn": DRAW_AND_PLAY,
        "rulebook:limits": LIMITS,
        "rulebook:new-rules": "New Rules change the way the game works.",
    },
    "simplify_none": {
        "card:lets_simplify": SIMPLIFY,
        "faq:002-56": "you could choose to discard just one or two, or even zero if you want",
    },
    "simplify_up_to": {
        "card:lets_simplify": SIMPLIFY,
        "faq:002-56": "you should ROUND UP when figuring out what \"half\" is",
    },
    "start_of_turn_discard": {"faq:002-03": POWERS_NO_PLAY, "faq:002-23": ON_YOUR_TURN},
    "start_of_turn_discard_still_owed": {"faq:002-23": ON_YOUR_TURN},
    "start_of_turn_done": {"faq:002-23": ON_YOUR_TURN},
    "start_of_turn_duty_met": {"faq:002-23": ON_YOUR_TURN},
    "sub_hand_set": {
        "rulebook:example-draw-2-and-use-em":
            "you will immediately draw two cards and play them both",
    },
    "sub_hand_to_play": {"faq:002-60": ONE_PLAY, "rulebook:example-draw-2-and-use-em": ONE_CARD},
    "surprise_answered": {"faq:002-43": COUNTER_NO_PLAY, "faq:002-62": CANCEL_A_PLAY},
    "surprise_counters_surprise": {
        "faq:002-62": "You play a Surprise to counter their Surprise.",
        "faq:002-69": IN_FULL,
    },
    "thats_mine_in_turn": {"faq:002-54": "That's Mine is played in turn: Keeper is stolen"},
    "thats_mine_nothing": {
        "faq:002-52": ("When used for their in-turn effect, of course, they behave much the same "
                       "way as Actions, and, as such, may or may not have an effect."),
    },
    "third_player_joins": {
        "faq:002-54": "some other player, for example, Player C, to jump in on either side",
        "faq:002-62": EITHER_SIDE,
    },
    "tie": {"rulebook:winning": TIE},
    "tie_cycle": {"rulebook:fluxxnomic-winning": CYCLE},
    "turn_ending_overrides_play_all": {
        "faq:002-46":
            ("only temporarily override the instructions on Play All and only on the turn of "
             "the player using it"),
        "faq:002-61": TURN_ENDS,
    },
    "turn_passes": {"rulebook:going-first": CLOCKWISE, "rulebook:setup": SETUP_CLOCKWISE},
    "uses_a_play": {
        "faq:002-34": GOAL_USES_A_PLAY,
        "rulebook:each-turn": PLAY,
        "rulebook:fluxxnomic-phases": PHASE,
    },
    "veto_in_turn": {
        "faq:002-51": "discard [their] choice of up to 2 New Rules currently in play",
    },
    "win_after_draw": {"faq:002-06": FINISH_DRAW, "faq:002-47": CREEPER_NOT_COUNTED},
    "wins": {"rulebook:winning": "That player wins instantly, no matter whose turn it is!"},
    "wins_cycle": {"rulebook:fluxxnomic-winning": CYCLE},
    "wins_math_rules": {
        "faq:004-q1": MATH_OWN_TURN,
        "rulebook:math-rules": MATH_WIN,
        "rulebook:winning": INSTANTLY,
    },
}


# Ordinary plain Fluxx tables: every ruling carries draw, play, limits, turn order and winner
# findings.
TABLES: dict[str, dict] = {
    "opening": {
        "players": [{"name": "Ann", "hand": ["Jackpot", "Love", "Peace"]},
                    {"name": "Bo", "hand_size": 3}],
        "active": "Ann",
    },
    "limits": {
        "players": [{"name": "Ann", "hand": ["Jackpot", "Love", "Peace", "Milk"],
                     "keepers": ["Sun", "Moon", "Toaster"]},
                    {"name": "Bo", "hand_size": 4, "keepers": ["Cookies", "Bread", "Time"]},
                    {"name": "Cy", "hand_size": 2}],
        "active": "Ann",
        "rules": ["Hand Limit 2", "Keeper Limit 2", "Draw 2", "Play 2"],
        "goals": ["Hippyism"],
        "turn": {"hand_at_start": 3, "drawn": 1, "played": 0},
    },
    "won": {
        "players": [{"name": "Ann", "hand": ["Jackpot"], "keepers": ["Milk", "Cookies"]},
                    {"name": "Bo", "hand_size": 3, "keepers": ["Peace"]}],
        "active": "Bo",
        "goals": ["Milk and Cookies"],
    },
    "no_winner": {
        "players": [{"name": "Ann", "hand": ["Jackpot", "Sleep"], "keepers": ["Milk"]},
                    {"name": "Bo", "hand_size": 3, "keepers": ["Peace"]}],
        "active": "Ann",
        "goals": ["Milk and Cookies"],
        "turn": {"hand_at_start": 1, "drawn": 1, "played": 1},
    },
}
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "scenarios.json"


def _norm(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"')
    return re.sub(r"\s+", " ", text.replace("\u201d", '"')).strip().casefold()


def _page_text(db, source_id: str) -> str:
    """The English words of a source's page: a rulebook section's title, text and notes, an FAQ
    entry's title, question and answer, a card's name and text."""
    kind, _, ref = source_id.partition(":")
    if kind == "rulebook":
        rows = list(db.execute("select title_en, text_en, notes from rulebook where anchor = ?",
                               [ref]))
        parts = list(rows[0][:2]) + [n.get("en") for n in json.loads(rows[0][2] or "[]")] \
            if rows else []
    elif kind == "faq":
        rows = list(db.execute("select title_en, question_en, answer from faq where id = ?",
                               [ref]))
        parts = list(rows[0]) if rows else []
    else:
        rows = list(db.execute("select name_en, text_en from cards where source_id = ?",
                               [source_id]))
        parts = list(rows[0]) if rows else []
    return _norm(" ".join(p for p in parts if p))


QUOTES = [(key, src, quote) for key, srcs in TABLE.items() for src, quote in srcs.items()]


@pytest.mark.parametrize(("key", "source_id", "quote"), QUOTES,
                         ids=[f"{k}-{s}" for k, s, _ in QUOTES])
def test_quote_is_on_the_cited_page(knowledge_db, key: str, source_id: str, quote: str) -> None:
    page = _page_text(knowledge_db, source_id)
    assert page, f"{source_id} is not in the store"
    assert _norm(quote) in page, f"{key}: {source_id} does not say {quote!r}"


def _flat(value: Any) -> Iterator[Any]:
    if isinstance(value, list | tuple):
        for item in value:
            yield from _flat(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _flat(item)
    else:
        yield value


def _card_id(source_id: str) -> str | None:
    """`card:surprises/veto` -> `veto`; None for a source that is not a card."""
    kind, _, ref = source_id.partition(":")
    return ref.rpartition("/")[2] if kind == "card" else None


# Findings that report a count of the cards a move's choices name (a fact of the table, no rule):
# they cite those cards.
ABOUT_THE_CARDS_NAMED = frozenset({"too_many_revealed"})


def _own_card(key: str, finding: dict, source_id: str, in_force: frozenset[str]) -> bool:
    """A card source that states its own rule (or the fact it is cited for): named in the
    finding's arguments or its key, a rule in force on the table, the card of a move, or a card
    a choice names."""
    card = _card_id(source_id)
    if card is None:
        return False
    return (card in set(_flat(finding.get("args") or [])) or key == "move_made"
            or key in ABOUT_THE_CARDS_NAMED
            or key.removeprefix("reason_").startswith(card) or card in in_force)


@dataclass(frozen=True)
class Cited:
    key: str
    source: dict
    where: str  # "<scenario id>: <part of the answer>"
    own: bool  # a card that states its own rule (_own_card)


def _cited(findings: list[dict], where: str, in_force: frozenset[str]) -> Iterator[Cited]:
    for f in findings:
        key = f.get("key") or f.get("reason_key")
        for s in f["sources"]:
            yield Cited(key, s, where, _own_card(key, f, s["id"], in_force))


def _in_force(*rulings: dict | None) -> frozenset[str]:
    return frozenset(r for ruling in rulings if ruling for r in ruling.get("rules_in_force", []))


def _ruling_cites(ruling: dict, where: str, in_force: frozenset[str]) -> Iterator[Cited]:
    yield from _cited(ruling["findings"], f"{where} findings", in_force)
    yield from _cited(ruling.get("not_yet", []), f"{where} not_yet", in_force)


def _answer_cites(cid: str, answer: dict) -> Iterator[Cited]:
    """Every citation of one recorded scenario: its ruling, its play's reasons and outcomes."""
    ruling = answer.get("ruling")
    if ruling is None:  # a table the reader refuses
        return
    before = _in_force(ruling)
    yield from _ruling_cites(ruling, cid, before)
    play = answer.get("play") or {}
    yield from _cited(play.get("reasons", []), f"{cid} play reasons", before)
    for n, outcome in enumerate(play.get("outcomes", [])):
        after = outcome.get("ruling")
        in_force = before | _in_force(after)
        yield from _cited(outcome["play_findings"], f"{cid} outcome {n} play_findings", in_force)
        if after:
            yield from _ruling_cites(after, f"{cid} outcome {n} ruling", _in_force(after))


@cache
def _recorded() -> dict[str, dict]:
    return json.loads(GOLDEN.read_text("utf-8"))


@cache
def _cases() -> dict[str, dict]:
    return dict(scenario_cases())


def _edition(cid: str) -> str:
    return _cases()[cid]["state"].get("edition", "fluxx")


def _played_card(cid: str) -> str | None:
    """The source id of the card a scenario's play names, if it names one."""
    case = _cases()[cid]
    name = case.get("play", {}).get("card")
    if not isinstance(name, str):
        return None
    state = case["state"]
    card = catalog_for(state.get("edition", "fluxx"), state.get("expansions", [])).resolve(name)
    return card.source_id if card else None


@cache
def _all_cites() -> tuple[Cited, ...]:
    """The citations of the ordinary tables (ruled now) and of every recorded scenario."""
    out = []
    for name, state in TABLES.items():
        ruling = ruling_for(parse_state(state))
        out += _ruling_cites(ruling, f"table {name}", _in_force(ruling))
    for cid, answer in _recorded().items():
        out += _answer_cites(cid, answer)
    return tuple(out)


def _off_table(cites: Iterable[Cited]) -> dict[tuple[str, str], str]:
    return {(c.key, c.source["id"]): c.where for c in cites
            if not c.own and c.source["id"] not in TABLE.get(c.key, {})}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_ordinary_rulings_cite_only_table_sources(name: str) -> None:
    ruling = ruling_for(parse_state(TABLES[name]))
    assert ruling["ok"], ruling
    off = _off_table(_ruling_cites(ruling, name, _in_force(ruling)))
    assert not off, f"citations missing from TABLE (check that they state the finding): {off}"


def test_scenario_rulings_and_plays_cite_only_table_sources() -> None:
    off = _off_table(_all_cites())
    assert not off, ("citations missing from TABLE (check that they state the finding; where: "
                     f"one answer citing it): {off}")


def test_every_citation_the_programs_can_make_has_a_row() -> None:
    """The citations of the .lp files, read statically: those no scenario makes included."""
    off = sorted((key, src) for key, src in static_pairs() if src not in TABLE.get(key, {}))
    assert not off, ("citations of rules_asp/ missing from TABLE (check that they state the "
                     f"finding): {off}")


def test_the_programs_text_holds_every_citation_made() -> None:
    """The static reading misses no citation that a ruling makes (so it can miss the others
    only by a way of citing that no scenario shows)."""
    made = {(c.key, c.source["id"]) for c in _all_cites() if _card_id(c.source["id"]) is None}
    assert made - static_pairs() == set()


def test_every_row_is_cited_somewhere() -> None:
    """A row that neither a ruling nor the programs' text cites any more is left over from a
    citation that changed."""
    met = {(c.key, c.source["id"]) for c in _all_cites()} | static_pairs()
    stale = [(key, src) for key, src, _ in QUOTES if (key, src) not in met]
    assert not stale, f"TABLE rows that no ruling cites: {stale}"


def test_changes_cite_the_findings_that_name_them() -> None:
    """An outcome's change cites the sources of the move's findings (or the card it moves, or
    the card played: adjudicator/referee/changes.py)."""
    off = []
    for cid, answer in _recorded().items():
        for n, outcome in enumerate((answer.get("play") or {}).get("outcomes", [])):
            cited = {s["id"] for f in outcome["play_findings"] for s in f["sources"]}
            cited.add(_played_card(cid))
            # (a win is told with the sources of the outcome's findings about its winner)
            cited |= {s["id"] for f in outcome["ruling"]["findings"] if f["about"] == "winner"
                      for s in f["sources"]}
            for change in outcome["changes"]:
                off += [(cid, n, change["text"]["en"], s["id"]) for s in change["sources"]
                        if s["id"] not in cited and _card_id(s["id"]) != change.get("card")]
    assert not off, off


def test_other_decks_passages_are_marked() -> None:
    """A passage is cited by analogy exactly when its deck is not the ruling's: a plain Fluxx
    ruling cites the Math Fluxx rulebook's Limits by analogy, the rulebook deck's own sections
    plainly (turn order: its own Setup, not Math Fluxx's Going First); and so on every path of
    every recorded answer."""
    ruling = ruling_for(parse_state(TABLES["limits"]))
    sources = {s["id"]: s for f in ruling["findings"] for s in f["sources"]}
    assert sources["rulebook:limits"].get("scope") == "other_deck"
    opening = ruling_for(parse_state(TABLES["opening"]))
    sources = {s["id"]: s for f in opening["findings"] for s in f["sources"]}
    assert "rulebook:going-first" not in sources
    assert "scope" not in sources["rulebook:setup"]
    assert "scope" not in sources["rulebook:each-turn"]
    assert "scope" not in sources["rulebook:basic-rules"]
    wrong = set()
    for cid, answer in _recorded().items():
        edition = _edition(cid)
        for c in _answer_cites(cid, answer):
            decks = source_decks(c.source["id"])
            analogy = decks is not None and edition not in decks
            if (c.source.get("scope") == OTHER_DECK) != analogy:
                wrong.add((c.source["id"], edition, c.source.get("scope")))
    assert not wrong, wrong


def test_other_decks_faq_entries_are_annotated() -> None:
    """An FAQ entry cited for a ruling belongs to the decks it is about: the entries about Math
    Fluxx cards only (Get On With It, Play All But 1, Unknown Variable, seed 004's own FAQ) are
    Math Fluxx's, so a plain Fluxx ruling citing them says it cites by analogy."""
    for entry in ("faq:002-05", "faq:002-21", "faq:002-24", "faq:002-40", "faq:002-44",
                  "faq:002-46", "faq:002-60", "faq:004-q1", "faq:004-q2", "faq:004-q3"):
        assert source_decks(entry) == frozenset({"math"}), entry
    for entry in ("faq:002-01", "faq:002-43", "faq:002-51", "faq:002-54", "faq:002-62"):
        assert "fluxx" in (source_decks(entry) or {"fluxx"}), entry


def test_ordinary_rulings_carry_the_usual_findings() -> None:
    keys = set()
    for state in TABLES.values():
        keys |= {f["key"] for f in ruling_for(parse_state(state))["findings"]}
    assert {"draw_rule", "play_rule", "draw_total", "play_remaining", "next_player", "hand_limit",
            "keeper_limit", "wins", "no_goal"} <= keys
