"""Maps: YAML map files loaded into a networkx graph the resolver asks."""
