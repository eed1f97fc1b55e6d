"""Baccarat rules core: cards, drawing rules, outcomes, bets, validation, shoes.

Plain typed Python with no Django import, so the rules can be tested directly and
reused by the database layer, the simulator and (later) the odds engine.
"""
