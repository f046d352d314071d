"""The journal: apply, undo, redo, replay, persistence (SQLite), log export."""
