"""Chroma Table Companion: turns, dice, banks and scores for Chroma Cards on a Raspberry Pi."""

__version__ = "0.1.0"
