"""A served terminal's plain keys handled without prompt_toolkit's key state machine.

prompt_toolkit's ``KeyProcessor.process_keys`` sends every key through a generator (the
state machine for multi-key bindings, repeat arguments and retries), asks the current
application of its context several times over, and around the handler checks Vi's modes
and macro recordings; a served class pays it for every digit and Enter of hundreds of
terminals on one loop. ``plain_keys`` gives one application a ``process_keys`` that takes
the common key straight to its handler, as the state machine would:

* only while nothing is held (no key waiting as the prefix of a longer binding), no
  repeat argument is pending, Emacs editing mode is on (the console's and the monitor's;
  in it Vi's cursor fix and modes do nothing) and no macro is being recorded;
* only a key that is no flush or cursor report, has a matching binding and is the prefix
  of no longer active binding: the handler is the last eager match if there is one, else
  the last match, exactly the state machine's choice (with the same lookups, serve/keys.py);
  a key whose choice no filter can change outside quoted insert (``sole_binding``: the
  console's digits, letters and Enter) is given its binding without asking any;
* the handler is called as ``_call_handler`` calls it (the event with the previous key
  sequence and repeat flag, the buffer saved to the undo stack first if the binding says
  so, a read-only buffer's bell), the processor's previous sequence and handler kept; a
  prompt_toolkit binding goes through the processor's own (guarded) ``_call_handler``.

Any other key, and every key after it in the same read, goes to prompt_toolkit's own
``process_keys``, which finds the state machine waiting at its start (nothing held) as it
left it. The key processor's ``before_key_press`` and ``after_key_press`` still fire around
each key (nothing in prompt_toolkit or here listens to them; a listener would see them in
the same order, the binding already chosen).
"""

from __future__ import annotations

import weakref
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import EditReadOnlyBuffer
from prompt_toolkit.enums import EditingMode
from prompt_toolkit.key_binding.key_bindings import Binding
from prompt_toolkit.key_binding.key_processor import KeyPress, KeyPressEvent, _Flush
from prompt_toolkit.keys import Keys


def _prompt_toolkits(binding: Binding) -> bool:
    module = getattr(binding.handler, "__module__", "") or ""
    return module.startswith("prompt_toolkit.")


def plain_keys(app: Application[Any]) -> None:
    """Give ``app``'s key processor the plain keys' short path (see the module's
    docstring). Its registry must be serve/keys.py's (``matches``)."""
    processor = app.key_processor
    matches = processor._get_matches  # noqa: SLF001 - ServedKeyBindings.matches
    sole_binding = processor._bindings.sole_binding  # noqa: SLF001 - ServedKeyBindings'
    longer = processor._is_prefix_of_longer_match  # noqa: SLF001
    process_keys = processor.process_keys
    before, after = processor.before_key_press, processor.after_key_press
    own = weakref.ref(processor)

    def plain() -> bool:
        return (not processor.key_buffer and processor.arg is None and not app.is_done
                and app.editing_mode is EditingMode.EMACS
                and not app.emacs_state.is_recording and not app.vi_state.recording_register
                and not app.vi_state.temporary_navigation_mode)

    def handler_for(key_press: KeyPress) -> Binding | None:
        if key_press is _Flush or key_press.key == Keys.CPRResponse:
            return None
        if not app.quoted_insert:
            sole = sole_binding(key_press.key)
            if sole is not None:  # the state machine's choice whatever the filters say
                return sole
        sequence = [key_press]
        found = matches(sequence)
        eager = [binding for binding in found if binding.eager()]
        if eager:
            return eager[-1]
        if not found or longer(sequence):
            return None
        return found[-1]

    def call(binding: Binding, sequence: list[KeyPress]) -> None:
        if _prompt_toolkits(binding):  # the guard (tui/keyguard.py) wraps _call_handler
            processor._call_handler(binding, sequence)  # noqa: SLF001 - when run: looked up now
            return
        event = KeyPressEvent(own, arg=None, key_sequence=sequence,
                              previous_key_sequence=processor._previous_key_sequence,  # noqa: SLF001
                              is_repeat=(binding == processor._previous_handler))  # noqa: SLF001
        if binding.save_before(event):
            event.app.current_buffer.save_to_undo_stack()
        try:
            binding.call(event)
        except EditReadOnlyBuffer:
            app.output.bell()
        processor._previous_key_sequence = sequence  # noqa: SLF001
        processor._previous_handler = binding  # noqa: SLF001

    def process_plain_keys() -> None:
        queue = processor.input_queue
        while queue:
            if not plain():
                break
            key_press = queue[0]
            binding = handler_for(key_press)
            if binding is None:
                break
            queue.popleft()
            before.fire()
            try:
                call(binding, [key_press])
            except Exception:
                processor.reset()  # as prompt_toolkit's own loop does when a key fails
                processor.empty_queue()
                raise
            after.fire()
        if queue:
            process_keys()  # the rest, prompt_toolkit's way (it starts the timeout)
            return
        processor._start_timeout()  # noqa: SLF001 - as process_keys ends

    processor.process_keys = process_plain_keys  # type: ignore[method-assign]
