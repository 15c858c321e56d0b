/* _core.Module (a loaded kernel file) and _core.Func (one kernel of it):
 * uf_call and the ufunc methods, their options from keyword arguments. */
#include "ufpy.h"

#include <string.h>

typedef struct {
    PyObject_HEAD
    uf_module *m;
} ufpy_module;

typedef struct {
    PyObject_HEAD
    uf_func *f;
    PyObject *module; /* keeps the uf_module alive */
} ufpy_func;

uf_func *ufpy_func_ptr(PyObject *func)
{
    return ((ufpy_func *)func)->f;
}

PyObject *ufpy_module_new(uf_module *m)
{
    ufpy_module *self = PyObject_New(ufpy_module, &ufpy_module_type);
    if (self == NULL) {
        uf_module_free(m);
        return NULL;
    }
    self->m = m;
    return (PyObject *)self;
}

static void module_dealloc(ufpy_module *self)
{
    uf_module_free(self->m);
    PyObject_Free(self);
}

static PyObject *module_names(ufpy_module *self, PyObject *unused)
{
    (void)unused;
    int n = uf_module_nfuncs(self->m);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *s = PyUnicode_FromString(uf_module_func_name(self->m, i));
        if (s == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, s);
    }
    return list;
}

static PyObject *module_get(ufpy_module *self, PyObject *arg)
{
    const char *name = PyUnicode_AsUTF8(arg);
    if (name == NULL)
        return NULL;
    uf_error err;
    uf_func *f = uf_module_get(self->m, name, &err);
    if (f == NULL)
        return ufpy_raise(&err);
    ufpy_func *fo = PyObject_New(ufpy_func, &ufpy_func_type);
    if (fo == NULL)
        return NULL;
    fo->f = f;
    fo->module = Py_NewRef((PyObject *)self);
    return (PyObject *)fo;
}

static PyMethodDef module_methods[] = {
    {"names", (PyCFunction)module_names, METH_NOARGS,
     "The kernels' names, in source order."},
    {"get", (PyCFunction)module_get, METH_O, "get(name) -> Func"},
    {NULL, NULL, 0, NULL}};

PyTypeObject ufpy_module_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ufjit._core.Module",
    .tp_basicsize = sizeof(ufpy_module),
    .tp_dealloc = (destructor)module_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A kernel file loaded by ufjit.",
    .tp_methods = module_methods,
};

/* ---- options ---- */

/* uf_call_options and what they hold for the call's duration. */
typedef struct call_opts {
    uf_call_options o;
    int axes[UF_MAXDIMS];
    /* gufunc axes=: at most 32 operands */
    int gu_naxes[32];
    int gu_axes[32][UF_MAXDIMS];
    const int *gu_ptrs[32];
    uf_array *where, *initial;
} call_opts;

static void opts_clear(call_opts *c)
{
    uf_array_release(c->where);
    uf_array_release(c->initial);
}

static int int_list(PyObject *seq, int *out, int max, int *n,
                    const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d entries", what, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    *n = (int)len;
    Py_DECREF(fast);
    return 0;
}

/* Keyword arguments common to every call: target, casting, where,
 * num_threads, axes (a sequence, or None with all_axes), all_axes,
 * keepdims, initial, gufunc_axes (a sequence of sequences). */
static int parse_opts(PyObject *kw, call_opts *c)
{
    memset(c, 0, sizeof *c);
    c->o.size = sizeof c->o;
    if (kw == NULL)
        return 0;
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kw, &pos, &key, &val)) {
        const char *k = PyUnicode_AsUTF8(key);
        if (k == NULL)
            return -1;
        if (val == Py_None)
            continue;
        if (strcmp(k, "target") == 0) {
            if (!(c->o.target = PyUnicode_AsUTF8(val)))
                return -1;
        } else if (strcmp(k, "casting") == 0) {
            const char *s = PyUnicode_AsUTF8(val);
            uf_error err;
            if (s == NULL)
                return -1;
            if (uf_casting_from_name(s, &c->o.casting, &err) != 0) {
                ufpy_raise(&err);
                return -1;
            }
            c->o.casting_set = true;
        } else if (strcmp(k, "where") == 0) {
            if (!(c->where = ufpy_array_from_object(val, false)))
                return -1;
            c->o.where = c->where;
        } else if (strcmp(k, "initial") == 0) {
            if (!(c->initial = ufpy_array_from_object(val, false)))
                return -1;
            c->o.initial = c->initial;
        } else if (strcmp(k, "num_threads") == 0) {
            long n = PyLong_AsLong(val);
            if (n == -1 && PyErr_Occurred())
                return -1;
            c->o.num_threads = (int)n;
        } else if (strcmp(k, "stream") == 0) {
            if (ufpy_stream_of(val, &c->o.stream) != 0)
                return -1;
        } else if (strcmp(k, "keepdims") == 0) {
            c->o.keepdims = PyObject_IsTrue(val);
        } else if (strcmp(k, "all_axes") == 0) {
            if (PyObject_IsTrue(val))
                c->o.axes_mode = UF_AXES_ALL;
        } else if (strcmp(k, "axes") == 0) {
            if (int_list(val, c->axes, UF_MAXDIMS, &c->o.naxes, "axes"))
                return -1;
            c->o.axes_mode = UF_AXES_LIST;
            c->o.axes = c->axes;
        } else if (strcmp(k, "gufunc_axes") == 0) {
            PyObject *fast = PySequence_Fast(val, "gufunc_axes");
            if (fast == NULL)
                return -1;
            Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
            int rc = n > 32 ? -1 : 0;
            if (rc)
                PyErr_SetString(PyExc_ValueError,
                                "gufunc_axes: at most 32 operands");
            for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
                rc = int_list(PySequence_Fast_GET_ITEM(fast, i),
                              c->gu_axes[i], UF_MAXDIMS, &c->gu_naxes[i],
                              "gufunc_axes");
                c->gu_ptrs[i] = c->gu_axes[i];
            }
            Py_DECREF(fast);
            if (rc)
                return -1;
            c->o.gufunc_nops = (int)n;
            c->o.gufunc_naxes = c->gu_naxes;
            c->o.gufunc_axes = c->gu_ptrs;
        } else {
            PyErr_Format(PyExc_TypeError, "unexpected keyword argument '%s'",
                         k);
            return -1;
        }
    }
    return 0;
}

/* Arrays of a sequence (None entries stay NULL when allowed). */
static int array_list(PyObject *seq, uf_array **out, int max, int *n,
                      bool writable, bool none_ok)
{
    PyObject *fast = PySequence_Fast(seq, "a sequence of arrays");
    if (fast == NULL)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "at most %d operands", max);
        return -1;
    }
    int rc = 0;
    *n = 0;
    for (Py_ssize_t i = 0; i < len && rc == 0; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(fast, i);
        out[i] = NULL;
        if (o == Py_None && none_ok)
            ;
        else if (!(out[i] = ufpy_array_from_object(o, writable)))
            rc = -1;
        *n = (int)i + 1;
    }
    Py_DECREF(fast);
    return rc;
}

static void release_all(uf_array **a, int n)
{
    for (int i = 0; i < n; i++)
        uf_array_release(a[i]);
}

#define MAX_OPERANDS 64

/* Func.call(inputs, outputs, **options) -> list of outputs */
/* A string an njit function returned (its code points) as a Python str;
 * takes the array's reference. */
static PyObject *string_object(uf_array *a)
{
    PyObject *s = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND,
                                            uf_array_data(a),
                                            (Py_ssize_t)uf_array_size(a));
    uf_array_release(a);
    return s;
}

static PyObject *func_call(ufpy_func *self, PyObject *args, PyObject *kw)
{
    PyObject *ins, *outs = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &ins, &outs))
        return NULL;
    uf_array *in[MAX_OPERANDS], *out[MAX_OPERANDS];
    int nin = 0, nout = 0;
    call_opts c;
    PyObject *result = NULL;
    if (parse_opts(kw, &c) != 0 ||
        array_list(ins, in, MAX_OPERANDS, &nin, false, false) != 0)
        goto done;
    if (outs != Py_None) {
        if (array_list(outs, out, MAX_OPERANDS, &nout, true, true) != 0)
            goto done;
    } else {
        nout = uf_func_nout(self->f);
        if (nout < 0)
            nout = 1;
        for (int i = 0; i < nout; i++)
            out[i] = NULL;
    }
    uf_error err;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = uf_call(self->f, in, nin, out, nout, &c.o, &err);
    Py_END_ALLOW_THREADS
    /* an njit function's output count is known once it is compiled for
     * these inputs: the first call may have guessed it wrong */
    int known = uf_func_nout(self->f);
    if (rc == UF_ERR_INVALID && outs == Py_None && known >= 0 &&
        known != nout && known <= MAX_OPERANDS) {
        nout = known;
        for (int i = 0; i < nout; i++)
            out[i] = NULL;
        Py_BEGIN_ALLOW_THREADS
        rc = uf_call(self->f, in, nin, out, nout, &c.o, &err);
        Py_END_ALLOW_THREADS
    }
    if (rc != 0) {
        ufpy_raise(&err);
        goto done;
    }
    result = PyList_New(nout);
    for (int i = 0; result && i < nout; i++) {
        PyObject *a = out[i] == NULL ? Py_NewRef(Py_None)
                      : uf_array_flags(out[i]) & UF_ARRAY_STRING
                          ? string_object(out[i])
                          : ufpy_array_new(out[i]);
        out[i] = NULL;
        if (a == NULL)
            Py_CLEAR(result);
        else
            PyList_SET_ITEM(result, i, a);
    }
done:
    release_all(in, nin);
    release_all(out, nout);
    opts_clear(&c);
    return result;
}

typedef int (*method_fn)(uf_func *, uf_array *, uf_array **,
                         const uf_call_options *, uf_error *);

/* reduce / accumulate: (input, out=None, **options) -> Array */
static PyObject *method_call(ufpy_func *self, PyObject *args, PyObject *kw,
                             method_fn fn)
{
    PyObject *ino, *outo = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &ino, &outo))
        return NULL;
    call_opts c;
    uf_array *in = NULL, *out = NULL;
    PyObject *result = NULL;
    if (parse_opts(kw, &c) != 0 || !(in = ufpy_array_from_object(ino, false)))
        goto done;
    if (outo != Py_None && !(out = ufpy_array_from_object(outo, true)))
        goto done;
    uf_error err;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = fn(self->f, in, &out, &c.o, &err);
    Py_END_ALLOW_THREADS
    if (rc != 0)
        ufpy_raise(&err);
    else {
        result = ufpy_array_new(out);
        out = NULL;
    }
done:
    uf_array_release(in);
    uf_array_release(out);
    opts_clear(&c);
    return result;
}

static PyObject *func_reduce(ufpy_func *self, PyObject *args, PyObject *kw)
{
    return method_call(self, args, kw, uf_reduce);
}

static PyObject *func_accumulate(ufpy_func *self, PyObject *args,
                                 PyObject *kw)
{
    return method_call(self, args, kw, uf_accumulate);
}

static PyObject *func_outer(ufpy_func *self, PyObject *args, PyObject *kw)
{
    PyObject *ao, *bo, *outo = Py_None;
    if (!PyArg_ParseTuple(args, "OO|O", &ao, &bo, &outo))
        return NULL;
    call_opts c;
    uf_array *a = NULL, *b = NULL, *out = NULL;
    PyObject *result = NULL;
    if (parse_opts(kw, &c) != 0 || !(a = ufpy_array_from_object(ao, false)) ||
        !(b = ufpy_array_from_object(bo, false)))
        goto done;
    if (outo != Py_None && !(out = ufpy_array_from_object(outo, true)))
        goto done;
    uf_error err;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = uf_outer(self->f, a, b, &out, &c.o, &err);
    Py_END_ALLOW_THREADS
    if (rc != 0)
        ufpy_raise(&err);
    else {
        result = ufpy_array_new(out);
        out = NULL;
    }
done:
    uf_array_release(a);
    uf_array_release(b);
    uf_array_release(out);
    opts_clear(&c);
    return result;
}

/* inspect(signature=None, what=bitmask) -> str */
static PyObject *func_inspect(ufpy_func *self, PyObject *args)
{
    const char *sig = NULL;
    unsigned what = UF_INSPECT_TYPES;
    if (!PyArg_ParseTuple(args, "|zI", &sig, &what))
        return NULL;
    uf_error err;
    char *s = uf_func_inspect(self->f, sig, what, &err);
    if (s == NULL)
        return ufpy_raise(&err);
    PyObject *r = PyUnicode_FromString(s);
    uf_free(s);
    return r;
}

static PyObject *func_signatures(ufpy_func *self, void *closure)
{
    (void)closure;
    int n = uf_func_nsignatures(self->f);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *s = PyUnicode_FromString(uf_func_signature(self->f, i));
        if (s == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, s);
    }
    return list;
}

static PyObject *func_kind(ufpy_func *self, void *closure)
{
    (void)closure;
    static const char *const names[] = {
        [UF_FUNC_UFUNC] = "vectorize", [UF_FUNC_GUFUNC] = "guvectorize",
        [UF_FUNC_REDUCE] = "reduce",   [UF_FUNC_PLAIN] = "njit",
        [UF_FUNC_DEVICE] = "device",   [UF_FUNC_KERNEL] = "kernel"};
    return PyUnicode_FromString(names[uf_func_get_kind(self->f)]);
}

static PyObject *func_nin(ufpy_func *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(uf_func_nin(self->f));
}

static PyObject *func_nout(ufpy_func *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(uf_func_nout(self->f));
}

/* "(0, (1, 2))" or None: how an njit function's outputs nest */
static PyObject *func_result_tree(ufpy_func *self, void *closure)
{
    (void)closure;
    const char *t = uf_func_result_tree(self->f);
    if (t == NULL)
        Py_RETURN_NONE;
    return PyUnicode_FromString(t);
}

static PyObject *func_name(ufpy_func *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(uf_func_name(self->f));
}

static void func_dealloc(ufpy_func *self)
{
    Py_DECREF(self->module);
    PyObject_Free(self);
}

static PyObject *func_launch(ufpy_func *self, PyObject *args)
{
    return ufpy_launch(self->f, args);
}

static PyMethodDef func_methods[] = {
    {"launch", (PyCFunction)func_launch, METH_VARARGS,
     "launch(grid, block, args, stream=None, shared=0, target=None, "
     "forall=False, n=0)"},
    {"call", (PyCFunction)(void (*)(void))func_call,
     METH_VARARGS | METH_KEYWORDS,
     "call(inputs, outputs=None, **options) -> list of outputs"},
    {"reduce", (PyCFunction)(void (*)(void))func_reduce,
     METH_VARARGS | METH_KEYWORDS, "reduce(a, out=None, **options)"},
    {"accumulate", (PyCFunction)(void (*)(void))func_accumulate,
     METH_VARARGS | METH_KEYWORDS, "accumulate(a, out=None, **options)"},
    {"outer", (PyCFunction)(void (*)(void))func_outer,
     METH_VARARGS | METH_KEYWORDS, "outer(a, b, out=None, **options)"},
    {"inspect", (PyCFunction)func_inspect, METH_VARARGS,
     "inspect(signature=None, what=1) -> str"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef func_getset[] = {
    {"name", (getter)func_name, NULL, NULL, NULL},
    {"kind", (getter)func_kind, NULL, NULL, NULL},
    {"nin", (getter)func_nin, NULL, NULL, NULL},
    {"nout", (getter)func_nout, NULL, NULL, NULL},
    {"result_tree", (getter)func_result_tree, NULL, NULL, NULL},
    {"signatures", (getter)func_signatures, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject ufpy_func_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ufjit._core.Func",
    .tp_basicsize = sizeof(ufpy_func),
    .tp_dealloc = (destructor)func_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One kernel of a ufjit module.",
    .tp_methods = func_methods,
    .tp_getset = func_getset,
};
