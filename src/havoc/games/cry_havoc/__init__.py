"""Cry Havoc (Portal Games, 2016) on the havoc engine: its positions, facts and question kinds."""
