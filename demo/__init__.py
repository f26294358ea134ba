"""The offline demo corpus and its loader."""
