"""univac-ttt: a faithful UNIVAC I emulator playing Gildersleeve's tic-tac-toe."""

__version__ = "0.1.0"
