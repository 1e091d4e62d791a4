"""micro mob: hire goons, make alliances and hit bosses until one kingpin is left."""
