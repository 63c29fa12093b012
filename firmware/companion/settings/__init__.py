# Settings: the screens that change the user's values, and the box's self-test (comments,
# not a docstring: this file is loaded with any part). The values themselves, loaded with the
# app in every VM, are store/appsettings.py's (a package less on every VM's heap).
#   menu.py         Settings' screens (loaded when Settings opens, let go when it closes)
#   selftest.py     Settings > Check the box: a first box's self-test, a page at a time
#   boxcheck.py     the box's own figures, for the self-test's last page and `lunchbox
#                   doctor` over the link (portable)
# The turn clock's own settings are in turn_clock/ (menu.py, setting.py).
