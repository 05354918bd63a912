"""Void Command's rules as pure Python: catalogue values, validation, dice, odds, simulation.

Nothing in this package imports Django.
"""
