"""Host input and output: what univac-ttt reads from and writes to the computer it runs on,
each bounded and refused in one line: atomic_files (writes that never leave a broken file),
text_files (bounded reads of a user's text files), stdin_lines (bounded lines from standard
input), bounded_input (numbers and JSON checked before Python converts them),
terminal_text (escapes shown as text), wording (counts in words)."""
