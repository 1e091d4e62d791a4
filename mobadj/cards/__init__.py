"""Turn-based card games sharing one game protocol (micro mob, Mice Heist, Iron Triangle, Micro City)."""
