"""CircuitPython's displayio rules for layers, enforced on the desktop displayio (Blinka).

On the board a layer (a Group, TileGrid or vectorio shape) knows one thing about where it
hangs: an ``in_group`` flag. ``Group.append``, ``insert`` and ``__setitem__`` call
``_add_layer`` before anything else, and it raises ValueError("Layer already in a group")
when the flag is set, even when the layer is the very item being replaced
(shared-module/displayio/Group.c: ``common_hal_displayio_group_set`` adds, then removes).
A display's root slot sets the flag too: ``root_group =`` with a group already in a group (or
on another display) raises ValueError("Group already used"), the group it already shows is
accepted (shared-module/displayio/display_core.c ``displayio_display_core_set_root_group``,
shared-module/busdisplay/BusDisplay.c). Indexes are checked as ``mp_get_index`` does: no
slices, IndexError past either end, ``insert`` included (a list would clamp).

Blinka's displayio has its own, looser or differently worded, copy of some of these; which
of them it has depends on its version. ``install()`` wraps its Group and BusDisplay so the
simulator and the tests raise where the board raises, with the board's words. The flag is
kept here (``_strict_in``), beside Blinka's own, so the rule does not depend on Blinka's."""

IN_GROUP = "Layer already in a group"
USED = "Group already used"
NOT_LAYER = "Layer must be a Group or TileGrid subclass"
NOT_GROUP = "Must be a Group subclass."
OUT_OF_RANGE = "Group index out of range"
NO_SLICES = "Slices not supported"
NOT_FOUND = "object not in sequence"

_FLAG = "_strict_in"


def in_group(layer):
    """The board's ``in_group`` flag of ``layer``: held by a group or a display."""
    return getattr(layer, _FLAG, False)


def _set(layer, value):
    try:
        setattr(layer, _FLAG, value)
    except AttributeError:  # a layer type without a __dict__: _add_layer refused it already
        pass


def _index(group, index):
    """mp_get_index(&displayio_group_type, len, index, false) (py/obj.c)."""
    if isinstance(index, slice):
        raise NotImplementedError(NO_SLICES)
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError("Group indices must be integers, not {}".format(type(index).__name__))
    n = len(group)
    i = index + n if index < 0 else index
    if not 0 <= i < n:
        raise IndexError(OUT_OF_RANGE)
    return i


def install():
    """Make ``displayio.Group`` and ``busdisplay.BusDisplay`` follow the board (idempotent)."""
    import busdisplay
    import displayio

    group_cls = displayio.Group
    if getattr(group_cls, "_strict", False):
        return
    layer_types = [displayio.TileGrid, group_cls]
    try:
        import vectorio

        layer_types += [vectorio.Circle, vectorio.Rectangle, vectorio.Polygon]
    except (ImportError, AttributeError):
        pass
    layer_types = tuple(layer_types)

    orig_insert = group_cls.insert
    orig_pop = group_cls.pop
    orig_setitem = group_cls.__setitem__
    orig_getitem = group_cls.__getitem__
    orig_root = busdisplay.BusDisplay._set_root_group

    def add_layer(layer):
        # Group.c _add_layer: the vectorio shapes, then TileGrid, then Group; the flag is
        # checked before the layer goes anywhere
        if not isinstance(layer, layer_types):
            raise ValueError(NOT_LAYER)
        if in_group(layer):
            raise ValueError(IN_GROUP)

    def append(self, layer):
        # shared-bindings/displayio/Group.c: append is insert at the end
        self.insert(len(self), layer)

    def insert(self, index, layer):
        if isinstance(index, int) and not isinstance(index, bool) and index == len(self):
            i = index
        else:
            i = _index(self, index)
        add_layer(layer)
        orig_insert(self, i, layer)
        _set(layer, True)

    def pop(self, i=-1):
        i = _index(self, i)
        layer = orig_pop(self, i)
        _set(layer, False)
        return layer

    def index(self, layer):
        for i in range(len(self)):
            if orig_getitem(self, i) is layer:
                return i
        raise ValueError(NOT_FOUND)

    def remove(self, layer):
        self.pop(self.index(layer))

    def getitem(self, index):
        return orig_getitem(self, _index(self, index))

    def setitem(self, index, layer):
        # common_hal_displayio_group_set: _add_layer (raises), then _remove_layer
        i = _index(self, index)
        add_layer(layer)
        old = orig_getitem(self, i)
        orig_setitem(self, i, layer)
        _set(old, False)
        _set(layer, True)

    def delitem(self, index):
        self.pop(_index(self, index))

    def set_root_group(self, group):
        # busdisplay_busdisplay_obj_set_root_group -> native_group, then display_core.c
        if group is not None and not isinstance(group, group_cls):
            raise ValueError(NOT_GROUP)
        current = self._core.current_group
        if group is current:
            return
        if group is not None and in_group(group):
            raise ValueError(USED)
        orig_root(self, group)
        if current is not None:
            _set(current, False)
        if group is not None:
            _set(group, True)

    group_cls.append = append
    group_cls.insert = insert
    group_cls.pop = pop
    group_cls.index = index
    group_cls.remove = remove
    group_cls.__getitem__ = getitem
    group_cls.__setitem__ = setitem
    group_cls.__delitem__ = delitem
    group_cls._strict = True
    busdisplay.BusDisplay._set_root_group = set_root_group


def release(display):
    """displayio.release_displays() frees the group a display showed, so another display can
    show it (display_core.c ``release_display_core``)."""
    current = display._core.current_group
    if current is not None:
        _set(current, False)
