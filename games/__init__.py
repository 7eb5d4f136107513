"""Pure rules engines: no Django import anywhere under games/ (see games/README.md)."""
