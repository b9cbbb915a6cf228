"""The program tape: the loader in UNIVAC code loads the whole memory image by INITIAL READ."""

from conftest import n, w

from univac_ttt.machine import Machine, PaperPrinter, QueueKeyboard, StopKind
from univac_ttt.machine.tape import BLOCK_CYCLE_PULSES, Reel
from univac_ttt.machine.word import ZERO
from univac_ttt.packs.tictactoe import fresh_tictactoe_tape, load_tictactoe, load_tictactoe_tape
from univac_ttt.packs.tictactoe.build import build_tape_text
from univac_ttt.program.boottape import LOAD_ORDER, boot_reel, load_loader
from univac_ttt.program.disassembler import instruction_text
from univac_ttt.program.reel import parse_reel

LOADER_STEPS = 20  # 11, sixteen 31s, a skip, 30 and U


def booted(reel: Reel) -> Machine:
    m = Machine(keyboard=QueueKeyboard(), printer=PaperPrinter())
    m.tapes.attach(1, reel)
    m.clear()
    assert m.initial_read() is None
    return m


def test_the_loader_stores_blocks_where_load_order_says():
    words = load_loader().image.words
    stores = [instruction_text(words[a][h:h + 6]) for a in sorted(words) for h in (0, 6)]
    targets = [int(s.split()[1]) for s in stores if s[:2] in ("31", "30")]
    assert targets == list(LOAD_ORDER)
    assert stores[0] == "11 000" and stores[-1] == "U0 000"


def test_memory_after_loading_is_the_image_word_for_word():
    image = load_tictactoe().image
    m = booted(fresh_tictactoe_tape())
    stop = m.step(LOADER_STEPS)
    assert stop is None and m.cc == 0 and m.half == 0
    assert m.mem == image.as_memory()
    # The loader's only traces: rI erased, Uniservo 1 after block 18, the tape's time.
    assert m.ri == [ZERO] * 60 and m.tapes[1].position == 18
    assert m.a == m.x == m.l == m.f == ZERO
    assert m.pulses >= 17 * BLOCK_CYCLE_PULSES


def test_loading_overwrites_whatever_memory_held():
    m = Machine()
    m.mem[:] = [w("LEFTΔOVERΔΔΔ")] * 1000
    m.tapes.attach(1, boot_reel({5: n(7)}))
    assert m.initial_read() is None
    m.step(LOADER_STEPS)
    assert m.mem[5] == n(7) and m.mem.count(ZERO) == 999


def test_the_booted_program_plays_as_the_image_does():
    image_machine = Machine(keyboard=QueueKeyboard(), printer=PaperPrinter())
    image_machine.load(load_tictactoe().image.words)
    tape_machine = booted(fresh_tictactoe_tape())
    for m in (image_machine, tape_machine):
        for key in ("5", "1", "9", "3"):
            m.keyboard.type_line(key)
        stop = m.run(10**7)
        assert stop.kind is StopKind.KEYBOARD
    assert tape_machine.printer.paper == image_machine.printer.paper
    assert "NEW GAME" in tape_machine.printer.paper


def test_the_shipped_tape_matches_the_coding_sheet():
    reel = load_tictactoe_tape()
    assert reel.block_count == 18
    assert parse_reel(build_tape_text()).blocks == reel.blocks


def test_the_shipped_tape_is_not_changed_by_a_run():
    tape = fresh_tictactoe_tape()
    tape.blocks.clear()
    assert load_tictactoe_tape().block_count == 18
