"""Provably fair deals (protocol/PROTOCOL.md §19).

``game_started`` carries ``deal_commitment``: lowercase hex of SHA-256 of ``salt:seed``.
``deal_revealed`` gives the seed and salt once the game is over. Keep the commitment
from the start and check the reveal against it.
"""
import hashlib
import re

_HEX64 = re.compile(r"[0-9a-f]{64}")
_SALT = re.compile(r"[0-9a-f]{32}")
_SEED = re.compile(r"0|[1-9][0-9]{0,19}")


def deal_commitment(seed: str, salt: str) -> str:
    """The commitment a server publishes for this seed (a decimal string) and salt."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def check_deal_commitment(commitment: str, seed: str, salt: str) -> bool:
    """Whether ``seed`` and ``salt`` open ``commitment``; False for anything malformed."""
    if not (isinstance(commitment, str) and _HEX64.fullmatch(commitment)):
        return False
    if not (isinstance(seed, str) and _SEED.fullmatch(seed) and int(seed) < 2**64):
        return False
    if not (isinstance(salt, str) and _SALT.fullmatch(salt)):
        return False
    return deal_commitment(seed, salt) == commitment
