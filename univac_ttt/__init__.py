"""univac-ttt: a faithful UNIVAC I emulator playing tic-tac-toe after Gildersleeve's."""

__version__ = "0.1.0"
