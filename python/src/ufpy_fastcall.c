/* _core.UFuncBase: the C base of ufjit's vectorize and guvectorize
 * objects. Its call is the common case done in C, NumPy arrays in (and
 * the output as out= or, a gufunc's way, after the inputs) for a kernel
 * compiled already; anything else (scalars, where=, dtype=, axes=,
 * overriding operands, the first call) goes to the Python class's
 * _slow_call. A call on ten elements costs what Numba's does (a NumPy
 * ufunc's), not a Python function's layers on top. */
#include "ufpy.h"

#include <structmember.h>

typedef struct {
    PyObject_HEAD
    PyObject *func; /* _core.Func once compiled (set by the package) */
    /* A call on fewer elements keeps the GIL: handing it over and back
     * costs more than such a call (NumPy does the same below 500). Set by
     * the package to a positive size only for kernels on a host target,
     * whose loops never call back into Python from another thread. */
    Py_ssize_t hold_gil_below;
} ufpy_ufuncbase;

static PyTypeObject *ndarray_type;
static PyObject *asarray;

/* numpy.ndarray and numpy.asarray, looked up on first use */
static int numpy_ready(void)
{
    if (ndarray_type != NULL)
        return 0;
    PyObject *np = PyImport_ImportModule("numpy");
    if (np == NULL)
        return -1;
    PyObject *t = PyObject_GetAttrString(np, "ndarray");
    asarray = PyObject_GetAttrString(np, "asarray");
    Py_DECREF(np);
    if (t == NULL || asarray == NULL || !PyType_Check(t)) {
        Py_XDECREF(t);
        Py_CLEAR(asarray);
        return -1;
    }
    ndarray_type = (PyTypeObject *)t;
    return 0;
}

/* The fast path takes exact ndarrays only: no subclass may override. */
static bool plain(PyObject *o)
{
    return Py_TYPE(o) == ndarray_type;
}

/* out= from kwargs when it is the only keyword: one exact ndarray (or a
 * 1-tuple of one). NULL with *ok true when there is none. */
static PyObject *fast_out(PyObject *kw, bool *ok)
{
    *ok = true;
    if (kw == NULL || PyDict_GET_SIZE(kw) == 0)
        return NULL;
    PyObject *out;
    if (PyDict_GET_SIZE(kw) != 1 ||
        !(out = PyDict_GetItemString(kw, "out"))) {
        *ok = false;
        return NULL;
    }
    if (PyTuple_Check(out) && PyTuple_GET_SIZE(out) == 1)
        out = PyTuple_GET_ITEM(out, 0);
    *ok = plain(out);
    return out;
}

#define FAST_MAX 8

/* args: the inputs, then (when out_o is NULL and args holds nin + 1
 * arrays, as a gufunc takes it) the output. */
static PyObject *fast_call(ufpy_ufuncbase *self, PyObject *args,
                           PyObject *out_o)
{
    uf_func *f = ufpy_func_ptr(self->func);
    Py_ssize_t n = uf_func_nin(f);
    if (out_o == NULL && PyTuple_GET_SIZE(args) == n + 1)
        out_o = PyTuple_GET_ITEM(args, n);
    uf_array *in[FAST_MAX], *out = NULL;
    int nin = 0;
    PyObject *result = NULL;
    for (; nin < n; nin++)
        if (!(in[nin] = ufpy_array_from_object(PyTuple_GET_ITEM(args, nin),
                                               false)))
            goto done;
    if (out_o && !(out = ufpy_array_from_object(out_o, true)))
        goto done;
    uf_call_options o = {.size = sizeof o};
    uf_error err;
    int rc;
    int64_t elements = out ? uf_array_size(out) : 0;
    for (int i = 0; i < nin; i++)
        if (uf_array_size(in[i]) > elements)
            elements = uf_array_size(in[i]);
    if (elements < self->hold_gil_below) {
        rc = uf_call(f, in, nin, &out, 1, &o, &err);
    } else {
        Py_BEGIN_ALLOW_THREADS
        rc = uf_call(f, in, nin, &out, 1, &o, &err);
        Py_END_ALLOW_THREADS
    }
    if (rc != 0)
        ufpy_raise(&err);
    else if (out_o)
        result = Py_NewRef(out_o); /* NumPy returns the out array */
    else {
        PyObject *a = ufpy_array_new(out);
        out = NULL;
        result = a ? PyObject_CallOneArg(asarray, a) : NULL;
        Py_XDECREF(a);
    }
done:
    for (int i = 0; i < nin; i++)
        uf_array_release(in[i]);
    uf_array_release(out);
    return result;
}

static PyObject *ufuncbase_call(ufpy_ufuncbase *self, PyObject *args,
                                PyObject *kw)
{
    uf_func *f = self->func && PyObject_TypeCheck(self->func,
                                                  &ufpy_func_type)
                     ? ufpy_func_ptr(self->func)
                     : NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    int nin = f ? uf_func_nin(f) : -1;
    /* the inputs, or the inputs and the output (a gufunc's way) */
    bool positional_out = n == nin + 1;
    if (f != NULL && n > 0 && n <= FAST_MAX &&
        (n == nin || positional_out) && uf_func_nout(f) == 1 &&
        numpy_ready() == 0) {
        bool ok = true;
        for (Py_ssize_t i = 0; i < n && ok; i++)
            ok = plain(PyTuple_GET_ITEM(args, i));
        PyObject *out = ok ? fast_out(kw, &ok) : NULL;
        if (ok && !(positional_out && out != NULL))
            return fast_call(self, args, out);
    }
    PyErr_Clear(); /* numpy_ready's failure only means: the slow path */
    PyObject *slow = PyObject_GetAttrString((PyObject *)self, "_slow_call");
    if (slow == NULL)
        return NULL;
    PyObject *r = PyObject_Call(slow, args, kw);
    Py_DECREF(slow);
    return r;
}

/* A static type: the Python subclasses' own dealloc and traverse (CPython's
 * subtype_dealloc/subtype_traverse) hold and release the reference to
 * their heap type; doing it here too freed the class under its instances. */
static void ufuncbase_dealloc(ufpy_ufuncbase *self)
{
    PyObject_GC_UnTrack(self);
    Py_CLEAR(self->func);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int ufuncbase_traverse(ufpy_ufuncbase *self, visitproc visit,
                              void *arg)
{
    Py_VISIT(self->func);
    return 0;
}

static int ufuncbase_clear(ufpy_ufuncbase *self)
{
    Py_CLEAR(self->func);
    return 0;
}

static PyMemberDef ufuncbase_members[] = {
    {"_core_func", T_OBJECT, offsetof(ufpy_ufuncbase, func), 0,
     "the compiled kernel (_core.Func), None before the first call"},
    {"_core_hold_gil_below", T_PYSSIZET,
     offsetof(ufpy_ufuncbase, hold_gil_below), 0,
     "calls on fewer elements keep the GIL (0: always released)"},
    {NULL, 0, 0, 0, NULL}};

PyTypeObject ufpy_ufuncbase_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ufjit._core.UFuncBase",
    .tp_basicsize = sizeof(ufpy_ufuncbase),
    .tp_dealloc = (destructor)ufuncbase_dealloc,
    .tp_call = (ternaryfunc)ufuncbase_call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)ufuncbase_traverse,
    .tp_clear = (inquiry)ufuncbase_clear,
    .tp_doc = "The C base of ufjit's ufunc objects (the fast call).",
    .tp_members = ufuncbase_members,
    .tp_new = PyType_GenericNew,
};
