"""One module per study; see satcp.reproduce.model.Study."""
