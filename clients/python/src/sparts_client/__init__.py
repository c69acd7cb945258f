"""sparts_client: an asyncio client and bot library for sparts-server (protocol version 1)."""
from .client import PROTOCOL, SpartsClient, SpartsError, TokenBucket
from .model import (TableModel, deck_in_play, low_score_wins, partners_for, ranks_for, strength, suit_in_play,
                    trick_winner)
from .bot import Bot, play_table
from .fair_deal import check_deal_commitment, deal_commitment

__all__ = ["PROTOCOL", "SpartsClient", "SpartsError", "TokenBucket", "TableModel", "partners_for", "suit_in_play", "strength",
           "trick_winner", "deck_in_play", "low_score_wins", "ranks_for", "Bot",
           "play_table", "check_deal_commitment", "deal_commitment"]
__version__ = "0.1.0"
