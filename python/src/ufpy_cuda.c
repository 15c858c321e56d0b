/* What ufjit.cuda needs of the C library: streams, device arrays and the
 * copies between host and device, views by NumPy's basic indexing, and
 * launches of @cuda.jit kernels. */
#include "ufpy.h"

#include <string.h>
#include <ufjit/interop.h>

/* ---- _core.Stream ---- */

typedef struct {
    PyObject_HEAD
    uf_stream *s;
} ufpy_stream;

static void stream_dealloc(ufpy_stream *self)
{
    if (self->s) {
        Py_BEGIN_ALLOW_THREADS
        uf_stream_destroy(self->s);
        Py_END_ALLOW_THREADS
    }
    PyObject_Free(self);
}

static PyObject *stream_synchronize(ufpy_stream *self, PyObject *unused)
{
    (void)unused;
    uf_error err;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = uf_stream_synchronize(self->s, &err);
    Py_END_ALLOW_THREADS
    if (rc != 0)
        return ufpy_raise(&err);
    Py_RETURN_NONE;
}

static PyMethodDef stream_methods[] = {
    {"synchronize", (PyCFunction)stream_synchronize, METH_NOARGS,
     "Waits for everything queued on the stream."},
    {NULL, NULL, 0, NULL}};

PyTypeObject ufpy_stream_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ufjit._core.Stream",
    .tp_basicsize = sizeof(ufpy_stream),
    .tp_dealloc = (destructor)stream_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A CUDA stream of one target.",
    .tp_methods = stream_methods,
};

/* stream_create(target) -> Stream */
static PyObject *stream_create(PyObject *self, PyObject *args)
{
    (void)self;
    const char *target = NULL;
    if (!PyArg_ParseTuple(args, "|z", &target))
        return NULL;
    uf_error err;
    uf_stream *s = uf_stream_create(target, &err);
    if (s == NULL)
        return ufpy_raise(&err);
    ufpy_stream *o = PyObject_New(ufpy_stream, &ufpy_stream_type);
    if (o == NULL) {
        uf_stream_destroy(s);
        return NULL;
    }
    o->s = s;
    return (PyObject *)o;
}

/* stream_external(target, handle) -> Stream over a foreign CUstream */
static PyObject *stream_external(PyObject *self, PyObject *args)
{
    (void)self;
    const char *target = NULL;
    Py_ssize_t handle;
    if (!PyArg_ParseTuple(args, "zn", &target, &handle))
        return NULL;
    uf_error err;
    uf_stream *s = uf_stream_external(target, (intptr_t)handle, &err);
    if (s == NULL)
        return ufpy_raise(&err);
    ufpy_stream *o = PyObject_New(ufpy_stream, &ufpy_stream_type);
    if (o == NULL) {
        uf_stream_destroy(s);
        return NULL;
    }
    o->s = s;
    return (PyObject *)o;
}

/* None / 0 -> NULL (the legacy default stream), a Stream -> its stream;
 * -1 with an exception otherwise. */
int ufpy_stream_of(PyObject *o, uf_stream **out)
{
    *out = NULL;
    if (o == NULL || o == Py_None ||
        (PyLong_Check(o) && PyLong_AsLong(o) == 0))
        return 0;
    if (!PyObject_TypeCheck(o, &ufpy_stream_type)) {
        PyErr_SetString(PyExc_TypeError,
                        "stream: a ufjit.cuda stream, or 0 for the default "
                        "stream");
        return -1;
    }
    *out = ((ufpy_stream *)o)->s;
    return 0;
}

/* ---- arrays ---- */

static int shape_of(PyObject *seq, int64_t *shape, int *ndim)
{
    if (PyLong_Check(seq)) {
        shape[0] = PyLong_AsLongLong(seq);
        *ndim = 1;
        return shape[0] == -1 && PyErr_Occurred() ? -1 : 0;
    }
    PyObject *fast = PySequence_Fast(seq, "shape: an int or a sequence");
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > UF_MAXDIMS) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "at most %d dimensions", UF_MAXDIMS);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        shape[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (shape[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    *ndim = (int)n;
    Py_DECREF(fast);
    return 0;
}

/* device_array(shape, dtype_name, order, target, kind) with kind
 * "device", "pinned" or "mapped" -> Array */
static PyObject *new_array(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *shape_o;
    const char *dtype_name, *order = "C", *target = NULL, *kind = "device";
    if (!PyArg_ParseTuple(args, "Os|szs", &shape_o, &dtype_name, &order,
                          &target, &kind))
        return NULL;
    int64_t shape[UF_MAXDIMS];
    int ndim;
    if (shape_of(shape_o, shape, &ndim) != 0)
        return NULL;
    uf_error err;
    uf_dtype dt;
    if (uf_dtype_from_name(dtype_name, &dt, &err) != 0)
        return ufpy_raise(&err);
    if (strcmp(order, "C") != 0 && strcmp(order, "F") != 0)
        return PyErr_Format(PyExc_ValueError, "order: 'C' or 'F'");
    uf_order o = order[0] == 'F' ? UF_ORDER_F : UF_ORDER_C;
    uf_array *a;
    /* a Python memory manager's memalloc takes the GIL on its own */
    Py_BEGIN_ALLOW_THREADS
    if (strcmp(kind, "pinned") == 0)
        a = uf_pinned_array(dt, ndim, shape, o, target, &err);
    else if (strcmp(kind, "mapped") == 0)
        a = uf_mapped_array(dt, ndim, shape, o, target, &err);
    else
        a = uf_device_array(dt, ndim, shape, o, target, &err);
    Py_END_ALLOW_THREADS
    return a ? ufpy_array_new(a) : ufpy_raise(&err);
}

/* to_device(host, target, stream) -> Array */
static PyObject *to_device(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *obj, *stream_o = Py_None;
    const char *target = NULL;
    if (!PyArg_ParseTuple(args, "O|zO", &obj, &target, &stream_o))
        return NULL;
    uf_stream *s;
    if (ufpy_stream_of(stream_o, &s) != 0)
        return NULL;
    uf_array *h = ufpy_array_from_object(obj, false);
    if (h == NULL)
        return NULL;
    uf_error err;
    uf_array *d;
    Py_BEGIN_ALLOW_THREADS
    d = uf_to_device(h, target, s, &err);
    Py_END_ALLOW_THREADS
    uf_array_release(h);
    return d ? ufpy_array_new(d) : ufpy_raise(&err);
}

/* copy_to_host(device, out=None, stream=None) -> Array (host) */
static PyObject *copy_to_host(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *dev_o, *out_o = Py_None, *stream_o = Py_None;
    if (!PyArg_ParseTuple(args, "O|OO", &dev_o, &out_o, &stream_o))
        return NULL;
    uf_stream *s;
    if (ufpy_stream_of(stream_o, &s) != 0)
        return NULL;
    uf_array *d = ufpy_array_from_object(dev_o, false), *out = NULL;
    if (d == NULL)
        return NULL;
    if (out_o != Py_None && !(out = ufpy_array_from_object(out_o, true))) {
        uf_array_release(d);
        return NULL;
    }
    uf_error err;
    uf_array *r;
    Py_BEGIN_ALLOW_THREADS
    r = uf_copy_to_host(d, out, s, &err);
    Py_END_ALLOW_THREADS
    uf_array_release(d);
    uf_array_release(out);
    return r ? ufpy_array_new(r) : ufpy_raise(&err);
}

/* copy_to_device(device, host, stream=None) */
static PyObject *copy_to_device(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *dev_o, *host_o, *stream_o = Py_None;
    if (!PyArg_ParseTuple(args, "OO|O", &dev_o, &host_o, &stream_o))
        return NULL;
    uf_stream *s;
    if (ufpy_stream_of(stream_o, &s) != 0)
        return NULL;
    uf_array *d = ufpy_array_from_object(dev_o, false), *h = NULL;
    if (d == NULL || !(h = ufpy_array_from_object(host_o, false))) {
        uf_array_release(d);
        return NULL;
    }
    uf_error err;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = uf_copy_to_device(d, h, s, &err);
    Py_END_ALLOW_THREADS
    uf_array_release(d);
    uf_array_release(h);
    if (rc != 0)
        return ufpy_raise(&err);
    Py_RETURN_NONE;
}

/* One entry of a NumPy basic index. */
static int index_entry(PyObject *o, uf_index *ix)
{
    memset(ix, 0, sizeof *ix);
    if (o == Py_None) {
        ix->kind = UF_INDEX_NEWAXIS;
        return 0;
    }
    if (o == Py_Ellipsis) {
        ix->kind = UF_INDEX_ELLIPSIS;
        return 0;
    }
    if (PySlice_Check(o)) {
        PySliceObject *sl = (PySliceObject *)o;
        PyObject *parts[3] = {sl->start, sl->stop, sl->step};
        bool *has[3] = {&ix->has_start, &ix->has_stop, &ix->has_step};
        int64_t *val[3] = {&ix->start, &ix->stop, &ix->step};
        ix->kind = UF_INDEX_SLICE;
        for (int k = 0; k < 3; k++) {
            if (parts[k] == Py_None)
                continue;
            *val[k] = PyLong_AsLongLong(parts[k]);
            if (*val[k] == -1 && PyErr_Occurred())
                return -1;
            *has[k] = true;
        }
        return 0;
    }
    PyObject *i = PyNumber_Index(o);
    if (i == NULL) {
        PyErr_Format(PyExc_IndexError,
                     "ufjit: device arrays take basic indices only "
                     "(integers, slices, None, ...), not %s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    ix->kind = UF_INDEX_INTEGER;
    ix->start = PyLong_AsLongLong(i);
    Py_DECREF(i);
    return ix->start == -1 && PyErr_Occurred() ? -1 : 0;
}

/* index(array, key) -> Array: a view */
static PyObject *index_view(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *arr_o, *key;
    if (!PyArg_ParseTuple(args, "OO", &arr_o, &key))
        return NULL;
    uf_index ix[UF_MAXDIMS + 8];
    int n = 0;
    if (PyTuple_Check(key)) {
        Py_ssize_t len = PyTuple_GET_SIZE(key);
        if (len > UF_MAXDIMS + 8)
            return PyErr_Format(PyExc_IndexError, "too many indices");
        for (Py_ssize_t i = 0; i < len; i++)
            if (index_entry(PyTuple_GET_ITEM(key, i), &ix[n++]) != 0)
                return NULL;
    } else if (index_entry(key, &ix[n++]) != 0)
        return NULL;
    uf_array *a = ufpy_array_from_object(arr_o, false);
    if (a == NULL)
        return NULL;
    uf_error err;
    uf_array *v = uf_array_index(a, ix, n, &err);
    uf_array_release(a);
    return v ? ufpy_array_new(v) : ufpy_raise(&err);
}

/* ---- launches ---- */

static int dim3_of(PyObject *o, uf_dim3 *d)
{
    d->x = d->y = d->z = 1;
    if (PyLong_Check(o)) {
        long v = PyLong_AsLong(o);
        if (v < 0) {
            PyErr_SetString(PyExc_ValueError, "grid and block sizes are "
                                              "positive");
            return -1;
        }
        d->x = (unsigned)v;
        return PyErr_Occurred() ? -1 : 0;
    }
    int64_t v[UF_MAXDIMS];
    int n;
    if (shape_of(o, v, &n) != 0)
        return -1;
    if (n < 1 || n > 3) {
        PyErr_SetString(PyExc_ValueError,
                        "grid and block: an int or 1 to 3 ints");
        return -1;
    }
    unsigned *f[3] = {&d->x, &d->y, &d->z};
    for (int i = 0; i < n; i++) {
        if (v[i] < 0 || v[i] > UINT32_MAX) {
            PyErr_SetString(PyExc_ValueError,
                            "grid and block sizes are positive");
            return -1;
        }
        *f[i] = (unsigned)v[i];
    }
    return 0;
}

PyObject *ufpy_launch(uf_func *f, PyObject *args)
{
    PyObject *grid_o, *block_o, *argv, *stream_o = Py_None;
    const char *target = NULL;
    unsigned long long shared = 0, forall_n = 0;
    int forall = 0;
    if (!PyArg_ParseTuple(args, "OOO|OKzpK", &grid_o, &block_o, &argv,
                          &stream_o, &shared, &target, &forall, &forall_n))
        return NULL;
    uf_dim3 grid, block;
    uf_launch_options o = {.size = sizeof o, .target = target,
                           .shared_bytes = (size_t)shared};
    if (!forall && (dim3_of(grid_o, &grid) != 0 ||
                    dim3_of(block_o, &block) != 0))
        return NULL;
    if (ufpy_stream_of(stream_o, &o.stream) != 0)
        return NULL;
    PyObject *fast = PySequence_Fast(argv, "kernel arguments");
    if (fast == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    uf_array *a[64];
    int na = 0, rc = 0;
    if (n > 64) {
        PyErr_SetString(PyExc_ValueError, "at most 64 kernel arguments");
        rc = -1;
    }
    for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
        /* host arrays are copied back after the launch: writable */
        PyObject *x = PySequence_Fast_GET_ITEM(fast, i);
        if (!(a[na] = ufpy_array_from_object(x, false)))
            rc = -1;
        else
            na++;
    }
    Py_DECREF(fast);
    uf_error err;
    if (rc == 0) {
        Py_BEGIN_ALLOW_THREADS
        rc = forall ? uf_launch_forall(f, forall_n, a, na, &o, &err)
                    : uf_launch(f, grid, block, a, na, &o, &err);
        Py_END_ALLOW_THREADS
        if (rc != 0)
            ufpy_raise(&err);
    }
    for (int i = 0; i < na; i++)
        uf_array_release(a[i]);
    if (rc != 0)
        return NULL;
    Py_RETURN_NONE;
}

/* cuda_available() -> (bool, reason) */
static PyObject *cuda_available(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    uf_error err;
    int n = uf_cuda_driver(NULL, 0, NULL, 0, &err);
    if (n > 0)
        return Py_BuildValue("(Os)", Py_True, "");
    return Py_BuildValue("(Os)", Py_False, err.message);
}

PyMethodDef ufpy_cuda_methods[] = {
    {"stream_create", stream_create, METH_VARARGS,
     "stream_create(target=None) -> Stream"},
    {"stream_external", stream_external, METH_VARARGS,
     "stream_external(target, handle) -> Stream (not destroyed with it)"},
    {"new_array", new_array, METH_VARARGS,
     "new_array(shape, dtype, order='C', target=None, kind='device')"},
    {"to_device", to_device, METH_VARARGS,
     "to_device(host, target=None, stream=None) -> Array"},
    {"copy_to_host", copy_to_host, METH_VARARGS,
     "copy_to_host(device, out=None, stream=None) -> Array"},
    {"copy_to_device", copy_to_device, METH_VARARGS,
     "copy_to_device(device, host, stream=None)"},
    {"index", index_view, METH_VARARGS, "index(array, key) -> a view"},
    {"cuda_available", cuda_available, METH_NOARGS,
     "(whether the CUDA driver has a device, why not)"},
    {NULL, NULL, 0, NULL}};
