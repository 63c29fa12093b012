# One step of mp_figures.py's heap measurement a call: the runner imports this module once
# per interpreter call, and it lets itself be imported again.
import sys

import mp_figures

mp_figures.step()
del sys.modules["mp_step"]
