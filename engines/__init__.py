"""Pure game rules, one module per game; see engines/base.py for the contract.

The games the bot offers, with their computer players, are declared in :mod:`bot.games`.
"""
