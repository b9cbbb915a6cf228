"""What an opponent may type at the keyboard, for the fuzz tests of the desk and the plain
console: one strategy, so both are fuzzed with the same inputs."""

from __future__ import annotations

from hypothesis import strategies as st

entries = st.one_of(
    st.text(max_size=40),                                   # any Unicode at all
    st.text(alphabet="0123456789", max_size=14),            # digits, long and short
    st.sampled_from(["", " ", "5 5", "-5", "+5", "05", "10", "A", "\t", "\x00", "٥", "５"]),
    st.text(alphabet=st.characters(max_codepoint=31), max_size=5),  # control characters
    st.text(min_size=200, max_size=2000),                   # very long lines
)
