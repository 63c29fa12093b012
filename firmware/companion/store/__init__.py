# Saves and records: the game being played, the settings, and each finished game kept until
# `lunchbox pull` takes it, written so that a power cut loses nothing (docs/persistence.md).
# All portable (comments, not a docstring: this file is loaded with any part).
# CircuitPython, the 4 KB nvm:
#   store.py       Store: the save log (loaded with the app)
#   mount.py       nvmscan.py: reading the log at start (let go after)
#   nvmlog.py      the log's record format
# MicroPython, files on littlefs:
#   filestore.py   FileStore: the same API, each file written aside and renamed
#   filemount.py   reading the folder at start (let go after)
# Both:
#   saveformat.py  the record kinds, the sizes, the messages a mount ends with
#   crc32.py       the checksum
#   records.py     a finished game's record in its envelope (the date, the names)
#   appsettings.py the user's settings (brightness, LEDs, names, hints, idle times) as bytes
#                  for the store (loaded with the app; Settings' screens are settings/'s)
