"""Screens and menus: (game state, ui state) -> Pillow image; button -> intent.

Nothing here touches hardware: screens return `Action`s and images, the app does the rest.
"""
