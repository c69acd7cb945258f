"""sparts_client: an asyncio client and bot library for sparts-server (protocol version 1)."""
from .client import PROTOCOL, SpartsClient, SpartsError, TokenBucket
from .model import TableModel
from .bot import Bot, play_table

__all__ = ["PROTOCOL", "SpartsClient", "SpartsError", "TokenBucket", "TableModel", "Bot", "play_table"]
__version__ = "0.1.0"
