"""Turn-based card games sharing one game protocol (see ``protocol``)."""
