"""Who sits at the table: moved to :mod:`letras.table.seats` (this name stays for old imports)."""

from letras.table.seats import AI_PREFIX, ai_seed, default_level, is_ai, level_of, read_seats

__all__ = ["AI_PREFIX", "ai_seed", "default_level", "is_ai", "level_of", "read_seats"]
