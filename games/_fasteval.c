/* The evaluator's lookup in C: the same tables as games/evaluator.py, read without bytecode.
 *
 * games/evaluator.py builds every table (the one definition of the ranking) and keeps a
 * pure-Python lookup; this module only reads those tables, so a hand's value never depends on
 * which of the two answered (tests/games/evaluator/test_native.py compares them on every hand of every
 * deck). Built by scripts/build_native.py (`make venv`); when it is missing, the evaluator uses
 * its Python lookup.
 *
 * Tables(values, high, low, bit, split, low_mask, base, top, deck, cards_error, codes_error)
 *     One deck. `values` is array('I'), `high` and `low` array('i') (see evaluator._build); `bit`
 *     maps a card string to 1 << its index in the deck. Methods, each of one argument:
 *     cards(five card strings) and codes(five card codes) -> the hand's value. Anything that is
 *     not five distinct cards of the deck raises cards_error(items, deck) / codes_error(items,
 *     deck), the exceptions the Python lookup raises.
 * ByDeck(registry, build, codes)
 *     A callable f(items, low): the Tables of deck `low` from the dict `registry` (or build(low)
 *     on a miss), then its cards (codes false) or codes (codes true) method.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FASTEVAL_VERSION 1

/* A code is 1 << (4 * rank + suit) < 1 << 52; anything at or above this is refused before the
 * sum, so the sum of five cannot overflow. */
#define CODE_LIMIT (1LL << 56)

typedef struct {
    PyObject_HEAD
    Py_buffer values; /* uint32 */
    Py_buffer high;   /* int32 */
    Py_buffer low;    /* int32 */
    int have_buffers;
    Py_ssize_t n_values, n_high;
    PyObject *bit;
    PyObject *deck;
    PyObject *cards_error;
    PyObject *codes_error;
    unsigned int split, base, top;
    uint64_t low_mask;
    /* index + 1 of the card written with these two ASCII characters, 0 for none: the keys of
     * `bit`, so that an exact two-character str needs no dict lookup */
    int8_t by_chars[128][128];
} TablesObject;

static PyTypeObject TablesType;

static int
get_table(PyObject *obj, Py_buffer *view, char format, const char *name)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        return -1;
    }
    if (view->itemsize != 4 || view->format == NULL || view->format[0] != format ||
        view->format[1] != '\0' || view->ndim != 1) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, "%s: an array('%c') of 4-byte items is needed", name, format);
        return -1;
    }
    return 0;
}

static void
release_buffers(TablesObject *self)
{
    if (self->have_buffers) {
        self->have_buffers = 0;
        PyBuffer_Release(&self->values);
        PyBuffer_Release(&self->high);
        PyBuffer_Release(&self->low);
    }
}

static int
Tables_init(TablesObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"values", "high", "low", "bit", "split", "low_mask", "base",
                             "top", "deck", "cards_error", "codes_error", NULL};
    PyObject *values, *high, *low, *bit, *deck, *cards_error, *codes_error;
    unsigned int split, base, top;
    unsigned long long low_mask;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO!IKIIOOO", kwlist, &values, &high, &low,
                                     &PyDict_Type, &bit, &split, &low_mask, &base, &top, &deck,
                                     &cards_error, &codes_error)) {
        return -1;
    }
    if (split > 40 || base > 60 || top > 63 || low_mask != (1ULL << split) - 1) {
        PyErr_SetString(PyExc_ValueError, "split, low_mask, base and top do not describe a deck");
        return -1;
    }
    if (!PyCallable_Check(cards_error) || !PyCallable_Check(codes_error)) {
        PyErr_SetString(PyExc_TypeError, "cards_error and codes_error must be callables");
        return -1;
    }
    release_buffers(self);
    if (get_table(values, &self->values, 'I', "values") < 0) {
        return -1;
    }
    if (get_table(high, &self->high, 'i', "high") < 0) {
        PyBuffer_Release(&self->values);
        return -1;
    }
    if (get_table(low, &self->low, 'i', "low") < 0) {
        PyBuffer_Release(&self->values);
        PyBuffer_Release(&self->high);
        return -1;
    }
    self->have_buffers = 1;
    if (self->low.len / 4 != (Py_ssize_t)(1ULL << split)) {
        release_buffers(self);
        PyErr_SetString(PyExc_ValueError, "low must have 1 << split entries");
        return -1;
    }
    memset(self->by_chars, 0, sizeof self->by_chars);
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(bit, &pos, &key, &value)) {
        unsigned long long b = PyLong_Check(value) ? PyLong_AsUnsignedLongLong(value) : 0;
        if (b == (unsigned long long)-1 && PyErr_Occurred()) {
            release_buffers(self);
            return -1;
        }
        if (b == 0 || (b & (b - 1)) != 0 || b >= (1ULL << 63)) {
            release_buffers(self);
            PyErr_SetString(PyExc_ValueError, "bit must map each card to a power of two");
            return -1;
        }
        if (PyUnicode_Check(key) && PyUnicode_GET_LENGTH(key) == 2 && PyUnicode_IS_ASCII(key)) {
            const Py_UCS1 *c = PyUnicode_1BYTE_DATA(key);
            self->by_chars[c[0]][c[1]] = (int8_t)(__builtin_ctzll(b) + 1);
        }
    }
    self->n_values = self->values.len / 4;
    self->n_high = self->high.len / 4;
    self->split = split;
    self->low_mask = low_mask;
    self->base = base;
    self->top = top;
    Py_INCREF(bit);
    Py_XSETREF(self->bit, bit);
    Py_INCREF(deck);
    Py_XSETREF(self->deck, deck);
    Py_INCREF(cards_error);
    Py_XSETREF(self->cards_error, cards_error);
    Py_INCREF(codes_error);
    Py_XSETREF(self->codes_error, codes_error);
    return 0;
}

static int
Tables_traverse(TablesObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->bit);
    Py_VISIT(self->deck);
    Py_VISIT(self->cards_error);
    Py_VISIT(self->codes_error);
    if (self->have_buffers) {
        Py_VISIT(self->values.obj);
        Py_VISIT(self->high.obj);
        Py_VISIT(self->low.obj);
    }
    return 0;
}

static int
Tables_clear(TablesObject *self)
{
    release_buffers(self);
    Py_CLEAR(self->bit);
    Py_CLEAR(self->deck);
    Py_CLEAR(self->cards_error);
    Py_CLEAR(self->codes_error);
    return 0;
}

static void
Tables_dealloc(TablesObject *self)
{
    PyObject_GC_UnTrack(self);
    Tables_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The value at high[h] + low[l]; NULL without an exception when the index is out of range (any
 * count of cards but five: the tables' check, see evaluator._CHECK). */
static inline PyObject *
lookup(TablesObject *self, uint64_t h, uint64_t l)
{
    if (h >= (uint64_t)self->n_high) {
        return NULL;
    }
    int64_t i = (int64_t)((const int32_t *)self->high.buf)[h] + ((const int32_t *)self->low.buf)[l];
    if (i < 0 || i >= self->n_values) {
        return NULL;
    }
    return PyLong_FromUnsignedLong(((const uint32_t *)self->values.buf)[i]);
}

static PyObject *
refuse(PyObject *factory, PyObject *items, PyObject *deck)
{
    PyObject *exc = PyObject_CallFunctionObjArgs(factory, items, deck, NULL);
    if (exc != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
    return NULL;
}

/* Each reads the five items of one kind into the two halves of the deck's bit mask (high: the
 * index of `high`, low: of `low`); 0 when they are not cards of the deck (no exception set). */
typedef int (*read_five)(TablesObject *self, PyObject **items, uint64_t *high, uint64_t *low);

static int
read_cards(TablesObject *self, PyObject **items, uint64_t *high, uint64_t *low)
{
    uint64_t mask = 0;
    for (int k = 0; k < 5; k++) {
        PyObject *item = items[k];
        if (PyUnicode_CheckExact(item) && PyUnicode_GET_LENGTH(item) == 2 && PyUnicode_IS_ASCII(item)) {
            const Py_UCS1 *c = PyUnicode_1BYTE_DATA(item);
            int index = self->by_chars[c[0]][c[1]];
            if (index == 0) {
                return 0; /* not a card of the deck */
            }
            mask |= 1ULL << (index - 1);
            continue;
        }
        PyObject *b = PyDict_GetItemWithError(self->bit, item);
        if (b == NULL) {
            PyErr_Clear(); /* an unhashable item: refused like an unknown card */
            return 0;
        }
        unsigned long long bit = PyLong_AsUnsignedLongLong(b); /* a power of two (Tables_init) */
        if (bit == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear(); /* `bit` changed since: refused */
            return 0;
        }
        mask |= bit;
    }
    *high = mask >> self->split;
    *low = mask & self->low_mask;
    return 1;
}

static int
read_codes(TablesObject *self, PyObject **items, uint64_t *high, uint64_t *low)
{
    uint64_t s = 0;
    for (int k = 0; k < 5; k++) {
        int overflow = 0;
        if (!PyLong_Check(items[k])) {
            return 0;
        }
        long long v = PyLong_AsLongLongAndOverflow(items[k], &overflow);
        if (overflow || v <= 0 || v >= CODE_LIMIT) {
            return 0;
        }
        s += (uint64_t)v;
    }
    *high = s >> self->top;
    *low = (s >> self->base) & self->low_mask;
    return 1;
}

/* The value of the five items, or the error error(items, deck) when they are not five distinct
 * cards of the deck. */
static PyObject *
value_of(TablesObject *self, PyObject *items, PyObject *error, read_five read)
{
    if (!self->have_buffers) {
        PyErr_SetString(PyExc_RuntimeError, "Tables not initialised");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(items, "");
    if (seq == NULL) {
        PyErr_Clear(); /* not iterable */
        return refuse(error, items, self->deck);
    }
    PyObject *result = NULL;
    uint64_t high, low;
    if (PySequence_Fast_GET_SIZE(seq) == 5 && read(self, PySequence_Fast_ITEMS(seq), &high, &low)) {
        result = lookup(self, high, low);
    }
    Py_DECREF(seq);
    if (result != NULL || PyErr_Occurred()) {
        return result; /* a value, or a MemoryError from making it */
    }
    return refuse(error, items, self->deck);
}

static PyObject *
Tables_cards(TablesObject *self, PyObject *cards)
{
    return value_of(self, cards, self->cards_error, read_cards);
}

static PyObject *
Tables_codes(TablesObject *self, PyObject *codes)
{
    return value_of(self, codes, self->codes_error, read_codes);
}

static PyMethodDef Tables_methods[] = {
    {"cards", (PyCFunction)Tables_cards, METH_O, "Return the value of five card strings of the deck."},
    {"codes", (PyCFunction)Tables_codes, METH_O, "Return the value of five card codes of the deck."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "games._fasteval.Tables",
    .tp_doc = PyDoc_STR("One deck's evaluator tables, read in C."),
    .tp_basicsize = sizeof(TablesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tables_init,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_traverse = (traverseproc)Tables_traverse,
    .tp_clear = (inquiry)Tables_clear,
    .tp_methods = Tables_methods,
};

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *registry; /* dict: deck name -> Tables */
    PyObject *build;    /* build(low) -> Tables, on a miss */
    PyObject *first;    /* the first argument's keyword name: "cards" or "codes" */
    int codes;
} ByDeckObject;

static PyTypeObject ByDeckType;

static PyObject *
ByDeck_vectorcall(ByDeckObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *items = nargs > 0 ? args[0] : NULL;
    PyObject *low = nargs > 1 ? args[1] : NULL;
    if (nargs > 2) {
        PyErr_Format(PyExc_TypeError, "expected 2 arguments, got %zd", nargs);
        return NULL;
    }
    if (kwnames != NULL) {
        Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
        for (Py_ssize_t k = 0; k < nkw; k++) {
            PyObject *name = PyTuple_GET_ITEM(kwnames, k);
            PyObject **slot;
            if (PyUnicode_CompareWithASCIIString(name, "low") == 0) {
                slot = &low;
            }
            else if (PyUnicode_Compare(name, self->first) == 0) {
                slot = &items;
            }
            else {
                PyErr_Format(PyExc_TypeError, "unexpected keyword argument %R", name);
                return NULL;
            }
            if (*slot != NULL) {
                PyErr_Format(PyExc_TypeError, "argument %R given twice", name);
                return NULL;
            }
            *slot = args[nargs + k];
        }
    }
    if (items == NULL || low == NULL) {
        PyErr_Format(PyExc_TypeError, "expected the arguments %R and 'low'", self->first);
        return NULL;
    }
    PyObject *tables = PyDict_GetItemWithError(self->registry, low);
    if (tables != NULL) {
        Py_INCREF(tables);
    }
    else {
        if (PyErr_Occurred()) {
            return NULL;
        }
        tables = PyObject_CallOneArg(self->build, low);
        if (tables == NULL) {
            return NULL;
        }
    }
    PyObject *result;
    if (!PyObject_TypeCheck(tables, &TablesType)) {
        PyErr_SetString(PyExc_TypeError, "build(low) must return Tables");
        result = NULL;
    }
    else if (self->codes) {
        result = Tables_codes((TablesObject *)tables, items);
    }
    else {
        result = Tables_cards((TablesObject *)tables, items);
    }
    Py_DECREF(tables);
    return result;
}

static PyObject *
ByDeck_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"registry", "build", "codes", NULL};
    PyObject *registry, *build;
    int codes;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!Op", kwlist, &PyDict_Type, &registry, &build,
                                     &codes)) {
        return NULL;
    }
    ByDeckObject *self = (ByDeckObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = (vectorcallfunc)ByDeck_vectorcall;
    self->first = PyUnicode_FromString(codes ? "codes" : "cards");
    if (self->first == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    Py_INCREF(registry);
    self->registry = registry;
    Py_INCREF(build);
    self->build = build;
    self->codes = codes;
    return (PyObject *)self;
}

static int
ByDeck_traverse(ByDeckObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->registry);
    Py_VISIT(self->build);
    return 0;
}

static int
ByDeck_clear(ByDeckObject *self)
{
    Py_CLEAR(self->registry);
    Py_CLEAR(self->build);
    Py_CLEAR(self->first);
    return 0;
}

static void
ByDeck_dealloc(ByDeckObject *self)
{
    PyObject_GC_UnTrack(self);
    ByDeck_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject ByDeckType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "games._fasteval.ByDeck",
    .tp_doc = PyDoc_STR("f(items, low): the value of five cards of the deck `low`."),
    .tp_basicsize = sizeof(ByDeckObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = ByDeck_new,
    .tp_dealloc = (destructor)ByDeck_dealloc,
    .tp_traverse = (traverseproc)ByDeck_traverse,
    .tp_clear = (inquiry)ByDeck_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(ByDeckObject, vectorcall),
};

static struct PyModuleDef fasteval_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "games._fasteval",
    .m_doc = PyDoc_STR("The evaluator's table lookup in C (see games/evaluator.py)."),
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__fasteval(void)
{
    if (PyType_Ready(&TablesType) < 0 || PyType_Ready(&ByDeckType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&fasteval_module);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "VERSION", FASTEVAL_VERSION) < 0 ||
        PyModule_AddObjectRef(m, "Tables", (PyObject *)&TablesType) < 0 ||
        PyModule_AddObjectRef(m, "ByDeck", (PyObject *)&ByDeckType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
