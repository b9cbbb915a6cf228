"""The interpreter's executors of ops.py's rows written as bodies: the
source ops.py writes from those bodies, here as a module so that Python's bytecode
cache keeps it compiled (compiling it at every import was the largest part of importing the
machine). Written by ops.py (``python -c "from univac_ttt.machine import ops;
ops.write_executors()"``), never by hand: ops.py uses these functions only when SOURCE is
the source it writes from the table now (else it compiles that, as before), and
tests/machine/test_one_table.py holds this file to the table. The names the bodies read
(ops.BODY_NAMES) are put in this module's namespace by ops.py."""
# ruff: noqa
# fmt: off

SOURCE = "def _bring(m, a):\n mem = m.mem\n m._a = m._x = mem[a]\n return None\ndef _load_L(m, a):\n mem = m.mem\n m._l = m._x = mem[a]\n return None\ndef _load_F(m, a):\n mem = m.mem\n m._f = mem[a]\n return None\ndef _hold(m, a):\n mem = m.mem\n mem[a] = m.a\n return None\ndef _clear(m, a):\n mem = m.mem\n mem[a] = m.a\n m._a = ZERO\n return None\ndef _store_F(m, a):\n mem = m.mem\n mem[a] = m.f\n return None\ndef _store_X(m, a):\n mem = m.mem\n mem[a] = m.x\n return None\ndef _A_to_L(m, a):\n m._l = m._a\n m._a = ZERO\n return None\ndef _add(m, a):\n mem = m.mem\n n = None\n m._x = x = mem[a]\n try:\n  s, o = ADDER(m.a, x)\n except AdderFault as fault:\n  return error(f'adder fault: {fault}')\n if o and m.options.overflow == 'stop':\n  return error('overflow: the sum needs twelve digits')\n m._a = s\n if o:\n  m.overflows += 1\n  n = 0\n return n\ndef _subtract(m, a):\n mem = m.mem\n n = None\n m._x = x = NEG(mem[a])\n try:\n  s, o = ADDER(m.a, x)\n except AdderFault as fault:\n  return error(f'adder fault: {fault}')\n if o and m.options.overflow == 'stop':\n  return error('overflow: the sum needs twelve digits')\n m._a = s\n if o:\n  m.overflows += 1\n  n = 0\n return n\ndef _add_X(m, a):\n n = None\n x = m.x\n try:\n  s, o = ADDER(m.a, x)\n except AdderFault as fault:\n  return error(f'adder fault: {fault}')\n if o and m.options.overflow == 'stop':\n  return error('overflow: the sum needs twelve digits')\n m._a = s\n if o:\n  m.overflows += 1\n  n = 0\n return n\ndef _multiply(m, a):\n mem = m.mem\n m._x = x = mem[a]\n l = m.l\n r = MULTIPLY(l, x, False, False)\n if r is None:\n  return error('a multiply operand holds a non-digit character')\n m._a, m._x, m._f, p = r\n m.pulses += p * 91\n return None\ndef _negative_multiply(m, a):\n mem = m.mem\n m._x = x = mem[a]\n l = m.l\n r = MULTIPLY(l, x, True, False)\n if r is None:\n  return error('a multiply operand holds a non-digit character')\n m._a, m._x, m._f, p = r\n m.pulses += p * 91\n return None\ndef _product(m, a):\n mem = m.mem\n m._x = x = mem[a]\n l = m.l\n r = MULTIPLY(l, x, False, True)\n if r is None:\n  return error('a multiply operand holds a non-digit character')\n m._a, m._x, m._f, p = r\n m.pulses += p * 91\n return None\ndef _divide(m, a):\n mem = m.mem\n r = DIVIDE(mem[a], m.l)\n if r.__class__ is str:\n  return error(r)\n m._a, m._x = r\n return None\ndef _extract(m, a):\n mem = m.mem\n m._a = EXTRACT(m.a, mem[a], m.f)\n return None\ndef _to_V(m, a):\n mem = m.mem\n m.v = [mem[a], mem[(a + 1) % 1000]]\n return None\ndef _from_V(m, a):\n mem = m.mem\n mem[a], mem[(a + 1) % 1000] = m.v\n return None\ndef _to_Y(m, a):\n mem = m.mem\n c = a - a % 10 if m.options.ten_word_aligned else a\n m.y = [mem[(c + i) % 1000] for i in range(10)]\n return None\ndef _from_Y(m, a):\n mem = m.mem\n c = a - a % 10 if m.options.ten_word_aligned else a\n y = m.y\n if len(y) == 10 and c <= 990:\n  mem[c:c + 10] = y\n else:\n  for i, w in enumerate(y): mem[(c + i) % 1000] = w\n return None\ndef _equal_test(m, a):\n n = None\n if m.a == m.l:\n  n = a\n return n\ndef _greater_test(m, a):\n n = None\n if GREATER(m.a, m.l):\n  n = a\n return n\ndef _transfer(m, a):\n n = None\n n = a\n return n\ndef _record(m, a):\n mem = m.mem\n mem[a] = LINKS[m.cc]\n return None\ndef _shift_right(m, a):\n m._a = (ZEROS[a] + m.a)[:12]\n return None\ndef _shift_left(m, a):\n m._a = (m.a + ZEROS[a])[a:a + 12]\n return None\ndef _shift_right_sign_kept(m, a):\n v = m.a\n m._a = v[0] + (ZEROS[a] + v[1:])[:11]\n return None\ndef _shift_left_sign_kept(m, a):\n v = m.a\n m._a = v[0] + (v[1:] + ZEROS[a])[a:a + 11]\n return None\ndef _skip(m, a):\n pass\n return None\ndef _stop(m, a):\n return HALT\n return None\ndef _breakpoint_stop(m, a):\n if m.breakpoint_switch:\n  return BREAKPOINT\n return None\ndef _keyboard(m, a):\n mem = m.mem\n keyboard = m.keyboard\n word = keyboard.read_word() if keyboard is not None else None\n if word is None:\n  return KEYBOARD_WAIT\n mem[a] = word\n m.keyboard_words += 1\n return None\ndef _print(m, a):\n mem = m.mem\n printer = m.printer\n if printer is not None:\n  printer.print_word(mem[a])\n m.printed_words += 1\n return None"


def _bring(m, a):
 mem = m.mem
 m._a = m._x = mem[a]
 return None
def _load_L(m, a):
 mem = m.mem
 m._l = m._x = mem[a]
 return None
def _load_F(m, a):
 mem = m.mem
 m._f = mem[a]
 return None
def _hold(m, a):
 mem = m.mem
 mem[a] = m.a
 return None
def _clear(m, a):
 mem = m.mem
 mem[a] = m.a
 m._a = ZERO
 return None
def _store_F(m, a):
 mem = m.mem
 mem[a] = m.f
 return None
def _store_X(m, a):
 mem = m.mem
 mem[a] = m.x
 return None
def _A_to_L(m, a):
 m._l = m._a
 m._a = ZERO
 return None
def _add(m, a):
 mem = m.mem
 n = None
 m._x = x = mem[a]
 try:
  s, o = ADDER(m.a, x)
 except AdderFault as fault:
  return error(f'adder fault: {fault}')
 if o and m.options.overflow == 'stop':
  return error('overflow: the sum needs twelve digits')
 m._a = s
 if o:
  m.overflows += 1
  n = 0
 return n
def _subtract(m, a):
 mem = m.mem
 n = None
 m._x = x = NEG(mem[a])
 try:
  s, o = ADDER(m.a, x)
 except AdderFault as fault:
  return error(f'adder fault: {fault}')
 if o and m.options.overflow == 'stop':
  return error('overflow: the sum needs twelve digits')
 m._a = s
 if o:
  m.overflows += 1
  n = 0
 return n
def _add_X(m, a):
 n = None
 x = m.x
 try:
  s, o = ADDER(m.a, x)
 except AdderFault as fault:
  return error(f'adder fault: {fault}')
 if o and m.options.overflow == 'stop':
  return error('overflow: the sum needs twelve digits')
 m._a = s
 if o:
  m.overflows += 1
  n = 0
 return n
def _multiply(m, a):
 mem = m.mem
 m._x = x = mem[a]
 l = m.l
 r = MULTIPLY(l, x, False, False)
 if r is None:
  return error('a multiply operand holds a non-digit character')
 m._a, m._x, m._f, p = r
 m.pulses += p * 91
 return None
def _negative_multiply(m, a):
 mem = m.mem
 m._x = x = mem[a]
 l = m.l
 r = MULTIPLY(l, x, True, False)
 if r is None:
  return error('a multiply operand holds a non-digit character')
 m._a, m._x, m._f, p = r
 m.pulses += p * 91
 return None
def _product(m, a):
 mem = m.mem
 m._x = x = mem[a]
 l = m.l
 r = MULTIPLY(l, x, False, True)
 if r is None:
  return error('a multiply operand holds a non-digit character')
 m._a, m._x, m._f, p = r
 m.pulses += p * 91
 return None
def _divide(m, a):
 mem = m.mem
 r = DIVIDE(mem[a], m.l)
 if r.__class__ is str:
  return error(r)
 m._a, m._x = r
 return None
def _extract(m, a):
 mem = m.mem
 m._a = EXTRACT(m.a, mem[a], m.f)
 return None
def _to_V(m, a):
 mem = m.mem
 m.v = [mem[a], mem[(a + 1) % 1000]]
 return None
def _from_V(m, a):
 mem = m.mem
 mem[a], mem[(a + 1) % 1000] = m.v
 return None
def _to_Y(m, a):
 mem = m.mem
 c = a - a % 10 if m.options.ten_word_aligned else a
 m.y = [mem[(c + i) % 1000] for i in range(10)]
 return None
def _from_Y(m, a):
 mem = m.mem
 c = a - a % 10 if m.options.ten_word_aligned else a
 y = m.y
 if len(y) == 10 and c <= 990:
  mem[c:c + 10] = y
 else:
  for i, w in enumerate(y): mem[(c + i) % 1000] = w
 return None
def _equal_test(m, a):
 n = None
 if m.a == m.l:
  n = a
 return n
def _greater_test(m, a):
 n = None
 if GREATER(m.a, m.l):
  n = a
 return n
def _transfer(m, a):
 n = None
 n = a
 return n
def _record(m, a):
 mem = m.mem
 mem[a] = LINKS[m.cc]
 return None
def _shift_right(m, a):
 m._a = (ZEROS[a] + m.a)[:12]
 return None
def _shift_left(m, a):
 m._a = (m.a + ZEROS[a])[a:a + 12]
 return None
def _shift_right_sign_kept(m, a):
 v = m.a
 m._a = v[0] + (ZEROS[a] + v[1:])[:11]
 return None
def _shift_left_sign_kept(m, a):
 v = m.a
 m._a = v[0] + (v[1:] + ZEROS[a])[a:a + 11]
 return None
def _skip(m, a):
 pass
 return None
def _stop(m, a):
 return HALT
 return None
def _breakpoint_stop(m, a):
 if m.breakpoint_switch:
  return BREAKPOINT
 return None
def _keyboard(m, a):
 mem = m.mem
 keyboard = m.keyboard
 word = keyboard.read_word() if keyboard is not None else None
 if word is None:
  return KEYBOARD_WAIT
 mem[a] = word
 m.keyboard_words += 1
 return None
def _print(m, a):
 mem = m.mem
 printer = m.printer
 if printer is not None:
  printer.print_word(mem[a])
 m.printed_words += 1
 return None
